import Findings

/// A form that changes state (`POST`) with no anti-CSRF token among its fields: another site can
/// submit it with the user's cookies (ZAP's "Absence of Anti-CSRF Tokens"). A token is a field
/// whose name frameworks use for one (`csrfmiddlewaretoken`, `csrf_token`, `_token`,
/// `authenticity_token`, `__RequestVerificationToken`, ...); a form with no field at all
/// submits nothing an attacker chooses and is not reported. One finding per form action.
public struct CSRFTokenCheck: PassiveCheck {
    static let rule = WebRule(
        id: "csrf-token-missing", name: "Form without an anti-CSRF token", severity: .medium, cwe: [352],
        help: "Add a per-session token to every state-changing form and check it on submission "
            + "(Flask-WTF CSRFProtect, Django's {% csrf_token %}); SameSite cookies help but are not enough alone.")

    /// Words that name a token field, lowercased (a field name containing one is a token).
    static let tokenWords = ["csrf", "xsrf", "authenticity_token", "requestverificationtoken", "anticsrf", "nonce"]
    /// Exact names of token fields that carry no such word.
    static let tokenNames: Set<String> = ["_token", "token", "__token", "form_token", "formkey", "_wpnonce"]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Inspects the forms of an HTML answer.
    public func inspect(_ exchange: Exchange, into sink: FindingSink) {
        let response = exchange.response
        guard response.isHTML, response.status < 400, response.text.utf8.count > 0 else { return }
        let page = exchange.request.url
        for form in HTMLDocument.parse(response.text, url: page).forms where form.method == "POST" {
            let named = form.fields.filter { !$0.name.isEmpty && $0.kind != .submit && $0.kind != .button }
            guard !named.isEmpty, !named.contains(where: { Self.isToken($0.name) }) else { continue }
            let action = form.action.withQuery([])
            let fields = named.prefix(6).map(\.name).joined(separator: ", ")
            sink.report(
                Self.rule.finding(
                    url: action.string, method: "POST",
                    message: "The form on \(page.path) posting to \(action.path) (\(fields)) carries no anti-CSRF token",
                    evidence: "Request: \(exchange.request.method) \(page)\nForm: POST \(action) with fields \(fields)",
                    confidence: .medium),
                key: "\(Self.rule.ruleId)|\(action.origin)\(action.path)")
        }
    }

    /// Whether a field called `name` is an anti-CSRF token.
    static func isToken(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return tokenNames.contains(lowered) || tokenWords.contains { lowered.contains($0) }
    }
}
