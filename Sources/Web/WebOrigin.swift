/// The origin of a URL (scheme, host, port): the unit the crawler's scope and the
/// same-origin checks compare.
public struct WebOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The lowercased host; IPv6 literals in brackets.
    public let host: String
    /// The port, explicit or the scheme's default.
    public let port: Int

    /// An origin from its parts; `scheme` and `host` are lowercased.
    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port
    }

    /// `scheme://host[:port]`, the port omitted when it is the scheme's default
    /// (`http://127.0.0.1:8080`, `https://example.com`).
    public var description: String {
        port == WebURL.defaultPort(scheme) ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(port)"
    }
}
