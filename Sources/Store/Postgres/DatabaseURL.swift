import Support

/// Where fleet state lives: a PostgreSQL server (`postgres://` or `postgresql://`, handed to libpq
/// as it is) or an SQLite file (`sqlite:PATH`), the embedded default.
public enum DatabaseURL: Sendable, Hashable, CustomStringConvertible {
    /// A libpq connection URI.
    case postgres(String)
    /// An SQLite database file.
    case sqlite(path: String)

    /// Reads `text`; throws `invalidInput` naming what is wrong (never echoing a password). A
    /// postgres URL libpq itself would refuse is refused here, with libpq's reason.
    public init(parsing text: String) throws {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            if case .failure(let refusal) = LibpqConninfo.parse(text) {
                let reason = refusal.withoutQuotedText(secrets: ConnectionURIText(text).secretValues)
                throw SentinelURLError.refused(Self.redact(text), reason: reason)
            }
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

    /// True when the URL itself carries a secret libpq reads: a password in `user:password@`, or
    /// a `password=` or `sslpassword=` parameter however percent-encoded (`pass%77ord=`).
    public var hasPassword: Bool {
        guard case .postgres(let uri) = self else { return false }
        if ConnectionURIText(uri).hasSecret { return true }
        // libpq's own reading decides too: whatever it would use as a secret is one.
        guard case .success(let options) = LibpqConninfo.parse(uri) else { return false }
        return options.contains { $0.isSecret && !$0.value.isEmpty }
    }

    /// The URL with every secret value replaced by `***`: what messages and logs show.
    public var redacted: String {
        switch self {
        case .postgres(let uri): Self.redact(uri)
        case .sqlite(let path): "sqlite:" + path
        }
    }

    /// The redacted URL.
    public var description: String { redacted }

    static func redact(_ uri: String) -> String {
        let text = ConnectionURIText(uri)
        let shown = text.redacted
        guard uri.hasPrefix("postgres://") || uri.hasPrefix("postgresql://") else { return shown }
        // What libpq reads from the text shown must hold no secret but the mask; should the
        // two parsers ever disagree, only the scheme is shown.
        if case .success(let options) = LibpqConninfo.parse(shown),
            options.contains(where: { $0.isSecret && !$0.value.isEmpty && $0.value != "***" })
        {
            return String(decoding: text.bytes[..<text.prefixLength], as: UTF8.self) + "***"
        }
        return shown
    }
}

/// Why a database URL was refused.
enum SentinelURLError {
    static let emptyPath = SentinelError(.invalidInput, "sqlite: needs a file path (sqlite:/var/lib/sentinel/fleet.sqlite)")

    /// libpq refuses the URL; `reason` is its message without the text it quotes, when it has one.
    static func refused(_ shown: String, reason: String?) -> SentinelError {
        SentinelError(.invalidInput, "\(shown): libpq refuses it: \(reason ?? "not a connection URI it reads")")
    }

    static func scheme(_ shown: String) -> SentinelError {
        SentinelError(.invalidInput, "'\(shown)': a database URL starts with postgres://, postgresql:// or sqlite:")
    }
}
