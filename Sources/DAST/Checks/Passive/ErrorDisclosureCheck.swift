/// Stack traces and framework debug pages in an answer: they show code paths, file names,
/// versions and sometimes secrets.
public struct ErrorDisclosureCheck: PassiveCheck {
    static let rule = WebRule(
        id: "stack-trace", name: "Stack trace or debug page disclosed", severity: .low, cwe: [209],
        help: "Show users a generic error page; log the details on the server. Turn debug modes off in production.")
    /// Texts only a stack trace or a debug page contains.
    static let signatures = [
        "Traceback (most recent call last):", "Werkzeug Debugger", "You're seeing this error because you have DEBUG = True",
        "Exception in thread \"", "\tat java.", "at org.springframework.", "Server Error in '/' Application",
        "Stack trace:\n#0 ", "PHP Fatal error:", "Fatal error: Uncaught", "ActionController::RoutingError",
        "at Object.<anonymous> (", "System.NullReferenceException",
    ]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Inspects the body.
    public func inspect(_ exchange: Exchange, into sink: FindingSink) {
        let text = exchange.response.text
        guard let signature = Self.signatures.first(where: text.contains) else { return }
        let url = exchange.request.url.withQuery([])
        sink.report(
            Self.rule.finding(
                url: url.string, method: exchange.request.method,
                message: "\(url.path) answers with a stack trace or debug page",
                evidence: Evidence.of(exchange.request, exchange.response, around: signature)),
            key: "\(Self.rule.ruleId)|\(url.origin)\(url.path)")
    }
}
