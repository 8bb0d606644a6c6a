import Web

/// One operation of an OpenAPI document: a method on a path template, its parameters with
/// example values and its request body.
public struct APIOperation: Sendable, Hashable {
    /// The HTTP method, uppercased.
    public var method: String
    /// The path as templated in the document (`/users/{id}`).
    public var pathTemplate: String
    /// The `operationId`.
    public var operationId: String?
    /// The `summary`.
    public var summary: String?
    /// Path-level parameters merged with the operation's (which override by name and location).
    public var parameters: [APIParameter]
    /// The request body, when the operation takes one.
    public var requestBody: APIRequestBody?
    /// The server URLs in effect (the operation's, else the path's, else the document's), with
    /// server variables replaced by their defaults; empty means `/`.
    public var servers: [String]
    /// The line where the operation is written.
    public var line: Int

    /// An operation.
    public init(
        method: String, pathTemplate: String, operationId: String? = nil, summary: String? = nil,
        parameters: [APIParameter] = [], requestBody: APIRequestBody? = nil, servers: [String] = [], line: Int = 0
    ) {
        self.method = method.uppercased()
        self.pathTemplate = pathTemplate
        self.operationId = operationId
        self.summary = summary
        self.parameters = parameters
        self.requestBody = requestBody
        self.servers = servers
        self.line = line
    }

    /// The template with each `{name}` replaced by the percent-encoded example of the path
    /// parameter `name` (`1` when the document does not define it).
    public var filledPath: String {
        var result = ""
        var rest = Substring(pathTemplate)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            let example = parameters.first { $0.location == .path && $0.name == name }?.example ?? "1"
            result += FormEncoding.percentEncode(example)
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The request path against the scan URL `base`: the first server's path (relative servers
    /// resolved against `base`) joined with `filledPath`. A server on another origin is not
    /// followed: only its path is used, on `base`'s origin (`usesForeignServer` tells).
    public func path(base: WebURL) -> String {
        let prefix = serverURL(base: base)?.path ?? "/"
        let trimmed = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        let filled = filledPath
        return trimmed + (filled.hasPrefix("/") ? filled : "/" + filled)
    }

    /// Whether the first server is an absolute URL on an origin other than `base`'s.
    public func usesForeignServer(base: WebURL) -> Bool {
        guard let server = serverURL(base: base) else { return false }
        return server.origin != base.origin
    }

    /// The URL to request on `base`'s origin: `path(base:)` with every query parameter's
    /// example (required or not) as the query.
    public func url(base: WebURL) -> WebURL? {
        guard let url = base.resolving(path(base: base)) else { return nil }
        let query = parameters.filter { $0.location == .query }.map { (name: $0.name, value: $0.example) }
        return query.isEmpty ? url : url.withQuery(query)
    }

    private func serverURL(base: WebURL) -> WebURL? {
        base.resolving(servers.first ?? "/")
    }
}
