import Findings

/// Cookies set without `HttpOnly` (scripts can read them), without `Secure` on HTTPS (they
/// travel in clear), or without `SameSite` (sent on cross-site requests). One finding per
/// cookie name and flag.
public struct CookieFlagsCheck: PassiveCheck {
    static let httpOnly = WebRule(
        id: "cookie-no-httponly", name: "Cookie without HttpOnly", severity: .low, cwe: [1004],
        help: "Set HttpOnly on cookies scripts do not need (session cookies above all).")
    static let secure = WebRule(
        id: "cookie-no-secure", name: "Cookie without Secure on HTTPS", severity: .low, cwe: [614],
        help: "Set Secure on every cookie of an HTTPS site so it never travels over plain HTTP.")
    static let sameSite = WebRule(
        id: "cookie-no-samesite", name: "Cookie without SameSite", severity: .low, cwe: [1275],
        help: "Set SameSite=Lax (or Strict) so the cookie is not sent with cross-site requests.")

    /// The rules it reports.
    public var rules: [WebRule] { [Self.httpOnly, Self.secure, Self.sameSite] }

    /// A check.
    public init() {}

    /// Inspects every `Set-Cookie` of a response.
    public func inspect(_ exchange: Exchange, into sink: FindingSink) {
        let url = exchange.request.url
        for line in exchange.response.headers(named: "Set-Cookie") {
            guard let cookie = SetCookie(line), !cookie.value.isEmpty, cookie.maxAge != 0 else { continue }
            let evidence = "Request: \(exchange.request.method) \(url)\nResponse header: Set-Cookie: \(Self.redacted(line))"
            // A cookie that grants nothing (a theme, a demo value) loses little without the flags:
            // reported, but with low confidence, below the default report's threshold.
            let confidence: Confidence? = Self.mayGrantAccess(cookie) ? nil : .low
            func report(_ rule: WebRule, _ message: String) {
                sink.report(
                    rule.finding(
                        url: url.string, method: exchange.request.method, parameter: cookie.name, message: message,
                        evidence: evidence, confidence: confidence, web: WebFacts(parameterIn: "cookie")),
                    key: "\(rule.ruleId)|\(url.origin)|\(cookie.name)")
            }
            // A double-submit CSRF cookie is meant for scripts (Django's csrftoken, Angular's
            // XSRF-TOKEN): HttpOnly would break it and protect nothing.
            let lowered = cookie.name.lowercased()
            if !cookie.flags.contains("httponly"), !lowered.contains("csrf"), !lowered.contains("xsrf") {
                report(Self.httpOnly, "Cookie '\(cookie.name)' is set without HttpOnly: any script on the page can read it")
            }
            if url.scheme == "https", !cookie.flags.contains("secure") {
                report(Self.secure, "Cookie '\(cookie.name)' is set without Secure on an HTTPS site")
            }
            if cookie.sameSite == nil {
                report(Self.sameSite, "Cookie '\(cookie.name)' is set without SameSite")
            }
        }
    }

    /// The header with the cookie's value hidden (it may be a live session).
    static func redacted(_ line: String) -> String {
        guard let equals = line.firstIndex(of: "=") else { return line }
        let rest = line[line.index(after: equals)...]
        let attributes = rest.firstIndex(of: ";").map { String(rest[$0...]) } ?? ""
        return String(line[...equals]) + "…" + attributes
    }

    /// Words in the names of cookies that carry a session or a credential.
    static let accessWords = ["sess", "sid", "auth", "token", "jwt", "login", "remember", "user", "account", "key", "id"]

    /// Whether `cookie` may be what identifies a user: its name says so, or its value looks like a
    /// random token (16 or more characters, letters and digits mixed).
    static func mayGrantAccess(_ cookie: SetCookie) -> Bool {
        let name = cookie.name.lowercased()
        if accessWords.contains(where: name.contains) { return true }
        let value = cookie.value
        let letters = value.contains { $0.isLetter }
        let digits = value.contains { $0.isNumber }
        return value.count >= 16 && letters && digits
    }
}
