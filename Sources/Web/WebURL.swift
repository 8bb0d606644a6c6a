/// An absolute `http` or `https` URL, parsed by hand per RFC 3986: Foundation's `URL` treats
/// odd input differently across platforms, and every URL here comes from a hostile server.
/// Components are stored normalised (lowercase scheme and host, explicit port, dot segments
/// removed, uppercase percent-escapes) so equal resources compare equal.
public struct WebURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`, lowercased.
    public let scheme: String
    /// The host, lowercased; an IPv6 literal keeps its brackets (`[::1]`).
    public let host: String
    /// The explicit port, else the scheme's default (80 or 443).
    public let port: Int
    /// The path, never empty: percent-escapes kept as written (hex uppercased), dot segments removed.
    public let path: String
    /// The raw query without `?`; nil when there is no `?`, empty for a bare `?`.
    public let query: String?
    /// The raw fragment without `#`.
    public let fragment: String?
    /// The raw `user:password` part before `@`, if any.
    public let userInfo: String?

    /// Parses an absolute `http`/`https` URL; surrounding whitespace is trimmed as browsers do.
    /// Nil for other schemes, a missing or invalid host, a bad port, or spaces and control
    /// characters inside.
    public init?(_ text: String) {
        let trimmed = URLText.trimmed(text)
        guard !trimmed.utf8.contains(where: URLText.isSpaceOrControl) else { return nil }
        guard let url = WebURL(parts: URLReference(trimmed)) else { return nil }
        self = url
    }

    /// Builds a URL from already validated, normalised components.
    init(scheme: String, host: String, port: Int, path: String, query: String?, fragment: String?, userInfo: String?) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.fragment = fragment
        self.userInfo = userInfo
    }

    /// The scheme's default port: 443 for `https`, 80 otherwise.
    static func defaultPort(_ scheme: String) -> Int { scheme == "https" ? 443 : 80 }

    /// Scheme, host and port: what the same-origin policy and the scan scope compare.
    public var origin: WebOrigin { WebOrigin(scheme: scheme, host: host, port: port) }

    /// The authority as serialised: `[userinfo@]host[:port]`, the default port omitted.
    var authority: String {
        let user = userInfo.map { $0 + "@" } ?? ""
        let portText = port == Self.defaultPort(scheme) ? "" : ":\(port)"
        return user + host + portText
    }

    /// The path and, when present, `?query`: the request target of an HTTP request line.
    public var pathAndQuery: String { query.map { path + "?" + $0 } ?? path }

    /// The URL without its fragment and with the default port omitted: what is requested.
    public var string: String { scheme + "://" + authority + pathAndQuery }

    /// Same as `string`.
    public var description: String { string }

    /// This URL with `fragment` replaced.
    package func with(fragment newFragment: String?) -> WebURL {
        WebURL(
            scheme: scheme, host: host, port: port, path: path, query: query, fragment: newFragment,
            userInfo: userInfo)
    }

    /// This URL with its path replaced by `newPath` (already percent-encoded, starting with `/`).
    package func with(path newPath: String) -> WebURL {
        WebURL(
            scheme: scheme, host: host, port: port, path: newPath, query: query, fragment: fragment,
            userInfo: userInfo)
    }

    /// This URL with its query replaced by `newQuery` (raw) and the fragment kept.
    package func with(query newQuery: String?) -> WebURL {
        WebURL(
            scheme: scheme, host: host, port: port, path: path, query: newQuery, fragment: fragment,
            userInfo: userInfo)
    }
}
