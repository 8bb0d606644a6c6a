import Support

/// Where fleet state lives: a PostgreSQL server (`postgres://` or `postgresql://`, handed to libpq
/// as it is) or an SQLite file (`sqlite:PATH`), the embedded default.
public enum DatabaseURL: Sendable, Hashable, CustomStringConvertible {
    /// A libpq connection URI.
    case postgres(String)
    /// An SQLite database file.
    case sqlite(path: String)

    /// Reads `text`; throws `invalidInput` naming what is wrong (never echoing a password).
    public init(parsing text: String) throws {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(text)
        } else if text.hasPrefix("sqlite:") {
            var path = String(text.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path.removeFirst(2) }
            guard !path.isEmpty else { throw SentinelURLError.emptyPath }
            self = .sqlite(path: path)
        } else {
            throw SentinelURLError.scheme(Self.redact(text))
        }
    }

    /// True when the URL itself carries a password (`user:password@`, or a `password=` parameter).
    public var hasPassword: Bool {
        guard case .postgres(let uri) = self else { return false }
        if Self.credentials(of: uri)?.contains(":") == true { return true }
        return Self.passwordParameter(in: uri) != nil
    }

    /// The value's range of a `password=` query parameter.
    static func passwordParameter(in uri: String) -> Range<String.Index>? {
        guard let query = uri.firstIndex(of: "?") else { return nil }
        var start = uri.index(after: query)
        while start < uri.endIndex {
            let end = uri[start...].firstIndex(of: "&") ?? uri.endIndex
            if uri[start..<end].lowercased().hasPrefix("password=") {
                return uri.index(start, offsetBy: "password=".count)..<end
            }
            start = end < uri.endIndex ? uri.index(after: end) : end
        }
        return nil
    }

    /// The URL with any password replaced by `***`: what messages and logs show.
    public var redacted: String {
        switch self {
        case .postgres(let uri): Self.redact(uri)
        case .sqlite(let path): "sqlite:" + path
        }
    }

    /// The redacted URL.
    public var description: String { redacted }

    /// `user:password` of `scheme://user:password@host...`, nil without an `@`.
    static func credentials(of uri: String) -> Substring? {
        guard let start = uri.range(of: "://")?.upperBound else { return nil }
        let authority = uri[start...].prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        return authority[..<at]
    }

    static func redact(_ uri: String) -> String {
        var text = uri
        if let parameter = passwordParameter(in: text) { text.replaceSubrange(parameter, with: "***") }
        guard let credentials = credentials(of: text), let colon = credentials.firstIndex(of: ":") else { return text }
        text.replaceSubrange(credentials.index(after: colon)..<credentials.endIndex, with: "***")
        return text
    }
}

/// Why a database URL was refused.
enum SentinelURLError {
    static let emptyPath = SentinelError(.invalidInput, "sqlite: needs a file path (sqlite:/var/lib/sentinel/fleet.sqlite)")

    static func scheme(_ shown: String) -> SentinelError {
        SentinelError(.invalidInput, "'\(shown)': a database URL starts with postgres://, postgresql:// or sqlite:")
    }
}
