/// One request to the GitHub REST API: what `publish` sends and what a dry run prints. It holds
/// no credentials; the token is added only when the request is sent.
public struct GitHubRequest: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The HTTP method: `GET`, `POST` or `DELETE`.
    public var method: String
    /// The path below the API URL, e.g. `/repos/octo/demo/git/blobs`.
    public var path: String
    /// The JSON body, or nil for none.
    public var body: String?

    /// A request for `method` and `path`, with a JSON `body` when there is one.
    public init(method: String, path: String, body: String? = nil) {
        self.method = method
        self.path = path
        self.body = body
    }

    /// `METHOD path`.
    public var description: String { "\(method) \(path)" }
}
