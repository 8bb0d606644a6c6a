/// Stack traces and framework debug pages in an answer: they show code paths, file names,
/// versions and sometimes secrets. A framework's debug page (Werkzeug's debugger, Django's
/// `DEBUG = True` page) is reported as the debug mode it is, not as a stack trace as well.
public struct ErrorDisclosureCheck: PassiveCheck {
    static let rule = WebRule(
        id: "stack-trace", name: "Stack trace or debug page disclosed", severity: .low, cwe: [209],
        help: "Show users a generic error page; log the details on the server. Turn debug modes off in production.")
    static let debugRule = WebRule(
        id: "debug-mode", name: "Framework debug mode on", severity: .medium, cwe: [215, 489],
        help: "Turn the framework's debug mode off outside development (Flask debug=False, Django DEBUG = False): "
            + "its pages show code, settings and, with Werkzeug's debugger, a console.")
    /// Texts only a framework's debug page contains.
    /// (Django writes its apostrophe curly and `DEBUG = True` in a `<code>` since 3.x.)
    static let debugSignatures = [
        "Werkzeug Debugger", "You're seeing this error because you have DEBUG = True",
        "seeing this error because you have <code>DEBUG = True</code>",
    ]
    /// Texts only a stack trace or a debug page contains.
    static let signatures = [
        "Traceback (most recent call last):", "Werkzeug Debugger", "You're seeing this error because you have DEBUG = True",
        "seeing this error because you have <code>DEBUG = True</code>",
        "Exception in thread \"", "\tat java.", "at org.springframework.", "Server Error in '/' Application",
        "Stack trace:\n#0 ", "PHP Fatal error:", "Fatal error: Uncaught", "ActionController::RoutingError",
        "at Object.<anonymous> (", "System.NullReferenceException",
    ]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule, Self.debugRule] }

    /// A check.
    public init() {}

    /// Inspects the body.
    public func inspect(_ exchange: Exchange, into sink: FindingSink) {
        let text = exchange.response.text
        guard let signature = Self.signatures.first(where: text.contains) else { return }
        let url = exchange.request.url.withQuery([])
        let debug = Self.debugSignatures.first(where: text.contains)
        let rule = debug == nil ? Self.rule : Self.debugRule
        let message =
            debug == nil
            ? "\(url.path) answers with a stack trace or debug page"
            : "\(url.path) answers with the framework's debug page: debug mode is on"
        sink.report(
            rule.finding(
                url: url.string, method: exchange.request.method, message: message,
                evidence: Evidence.of(exchange.request, exchange.response, around: debug ?? signature)),
            // Debug mode is the application's setting: one finding per app. A stack trace is one code path's.
            key: debug == nil ? "\(rule.ruleId)|\(url.origin)\(url.path)" : "\(rule.ruleId)|\(url.origin)",
            // A page the application serves stands for its debug mode before a not-found page.
            rank: exchange.response.status == 404 ? 1 : 0)
    }
}
