import Findings

/// `Server`, `X-Powered-By` and `X-AspNet-Version` headers that name a product *and version*:
/// they tell an attacker which advisories to try. One finding per header value.
public struct ServerBannerCheck: PassiveCheck {
    static let rule = WebRule(
        id: "server-banner", name: "Server software and version disclosed", severity: .info, confidence: .high,
        cwe: [497], help: "Remove version numbers from Server and X-Powered-By headers (or drop the headers).")

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Inspects the response headers.
    public func inspect(_ exchange: Exchange, into sink: FindingSink) {
        for name in ["Server", "X-Powered-By", "X-AspNet-Version", "X-AspNetMvc-Version"] {
            guard let value = exchange.response.header(name), value.contains(where: \.isNumber) else { continue }
            let url = exchange.request.url
            sink.report(
                Self.rule.finding(
                    url: url.string, method: exchange.request.method, parameter: name,
                    message: "The \(name) header discloses '\(value)'",
                    evidence: "Request: \(exchange.request.method) \(url)\nResponse header: \(name): \(value)",
                    web: WebFacts(parameterIn: "header")),
                key: "\(Self.rule.ruleId)|\(url.origin)|\(name)|\(value)")
        }
    }
}
