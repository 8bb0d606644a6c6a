/// HTML pages without the headers that stop content sniffing, framing (clickjacking) and
/// injected scripts, and HTTPS pages without HSTS. One finding per header per origin, at the
/// first page that lacks it; the count says how many did.
public struct SecurityHeadersCheck: PassiveCheck {
    static let csp = WebRule(
        id: "missing-csp", name: "Content-Security-Policy header missing", severity: .low, cwe: [693],
        help: "Send a Content-Security-Policy that restricts script sources (script-src 'self'), so that an injected script does not run.")
    static let nosniff = WebRule(
        id: "missing-x-content-type-options", name: "X-Content-Type-Options header missing", severity: .low, cwe: [693],
        help: "Send X-Content-Type-Options: nosniff so browsers do not reinterpret responses as HTML or script.")
    static let clickjacking = WebRule(
        id: "clickjacking", name: "Page can be framed (clickjacking)", severity: .medium, cwe: [1021],
        help: "Send Content-Security-Policy: frame-ancestors 'none' (or 'self'), and X-Frame-Options: DENY for older browsers.")
    static let hsts = WebRule(
        id: "missing-hsts", name: "Strict-Transport-Security header missing", severity: .low, cwe: [319],
        help: "Send Strict-Transport-Security: max-age=31536000; includeSubDomains on every HTTPS response.")

    /// The rules it reports.
    public var rules: [WebRule] { [Self.csp, Self.nosniff, Self.clickjacking, Self.hsts] }

    /// A check.
    public init() {}

    /// Inspects a 2xx HTML page's headers.
    public func inspect(_ exchange: Exchange, into sink: FindingSink) {
        let response = exchange.response
        guard (200..<300).contains(response.status), response.isHTML else { return }
        let url = exchange.request.url
        let policy = response.headers(named: "Content-Security-Policy").joined(separator: "; ").lowercased()
        func report(_ rule: WebRule, _ message: String) {
            let evidence = "Request: GET \(url)\nResponse: HTTP \(response.status) without the header"
            sink.report(
                rule.finding(url: url.string, method: exchange.request.method, message: message, evidence: evidence),
                key: rule.ruleId + "|" + url.origin.description)
        }
        if policy.isEmpty {
            report(Self.csp, "No Content-Security-Policy on \(url.path): an injected script would run unhindered")
        }
        if response.header("X-Content-Type-Options")?.lowercased().contains("nosniff") != true {
            report(Self.nosniff, "No X-Content-Type-Options: nosniff on \(url.path)")
        }
        let frameOptions = response.header("X-Frame-Options")?.lowercased() ?? ""
        if !policy.contains("frame-ancestors"), !(frameOptions.contains("deny") || frameOptions.contains("sameorigin")) {
            report(Self.clickjacking, "\(url.path) can be framed by any site: neither frame-ancestors nor X-Frame-Options is set")
        }
        if url.scheme == "https", response.header("Strict-Transport-Security") == nil {
            report(Self.hsts, "No Strict-Transport-Security on \(url.path)")
        }
    }
}
