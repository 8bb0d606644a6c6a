/// A page that is a server-generated directory index: every file in the directory is exposed.
public struct DirectoryListingCheck: PassiveCheck {
    static let rule = WebRule(
        id: "directory-listing", name: "Directory listing enabled", severity: .medium, cwe: [548],
        help: "Turn off automatic directory indexes (autoindex off, Options -Indexes) and serve an index page or 403.")
    /// Texts of the indexes Apache, nginx, lighttpd, IIS, Python and Node servers generate.
    static let signatures = [
        "<title>index of /", "<h1>index of /", "<title>directory listing for /", "<h1>directory listing for /",
        "[to parent directory]", "<title>listing directory /",
    ]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Inspects a 200 HTML body.
    public func inspect(_ exchange: Exchange, into sink: FindingSink) {
        let response = exchange.response
        guard response.status == 200, response.isHTML else { return }
        let head = response.text.prefix(4096).lowercased()
        guard let signature = Self.signatures.first(where: head.contains) else { return }
        let url = exchange.request.url.withQuery([])
        sink.report(
            Self.rule.finding(
                url: url.string, method: exchange.request.method, message: "\(url.path) lists the directory's files",
                evidence: "Request: GET \(url)\nResponse: HTTP 200 containing '\(signature)'"),
            key: "\(Self.rule.ruleId)|\(url.origin)\(url.path)")
    }
}
