import CPostgres
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// libpq's own reading of a connection string (`PQconninfoParse`: no connection, no `PG*`
/// variables), for checks that must agree with what libpq will connect with.
enum LibpqConninfo {
    /// One option libpq set from the text.
    struct Option: Equatable {
        /// libpq's keyword (`password`, `sslmode`).
        var keyword: String
        /// Its value, percent-decoded as libpq decodes it.
        var value: String
        /// True for the options libpq itself hides (its display character `*`): the secrets.
        var isSecret: Bool
    }

    /// The options libpq sets from `text`, or libpq's one-line message saying why it refuses it
    /// (which may quote the text, password included: not for display as it is).
    static func parse(_ text: String) -> Result<[Option], LibpqRefusal> {
        if let missing = sentinel_pq_load() { return .failure(LibpqRefusal(message: "libpq: \(String(cString: missing))")) }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = sentinel_PQconninfoParse(text, &error) else {
            defer { sentinel_PQfreemem(error) }
            let message = error.map { String(cString: $0) } ?? "out of memory"
            return .failure(LibpqRefusal(message: message.trimmedOfWhitespace()))
        }
        defer { sentinel_PQconninfoFree(options) }
        var parsed: [Option] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val {
                let display = option.pointee.dispchar.map { String(cString: $0) } ?? ""
                parsed.append(Option(keyword: String(cString: keyword), value: String(cString: value), isSecret: display.hasPrefix("*")))
            }
            option += 1
        }
        return .success(parsed)
    }

    /// The keywords of every option libpq hides (`password`, `sslpassword` in libpq 15).
    static let secretKeywords: Set<String> = {
        var keywords: Set<String> = ["password", "sslpassword"]
        guard sentinel_pq_load() == nil, let defaults = sentinel_PQconndefaults() else { return keywords }
        defer { sentinel_PQconninfoFree(defaults) }
        var option = defaults
        while let keyword = option.pointee.keyword {
            if let display = option.pointee.dispchar, display.pointee == CChar(UInt8(ascii: "*")) {
                keywords.insert(String(cString: keyword))
            }
            option += 1
        }
        return keywords
    }()
}

/// libpq's message refusing a connection string.
struct LibpqRefusal: Error, Equatable {
    /// As libpq words it, trimmed.
    var message: String

    /// The message without the text libpq quotes at its end (`invalid URI query parameter:
    /// "…"`, or the whole URI for some), which may hold a password; nil when the message does
    /// not have that shape (a translation), or its remainder still holds one of `secrets`.
    func withoutQuotedText(secrets: [String]) -> String? {
        let bytes = Array(message.utf8)
        guard let quote = bytes.indices.dropLast(2).last(where: { bytes[$0...].starts(with: Array(": \"".utf8)) }) else {
            return nil
        }
        let reason = String(decoding: bytes[..<quote], as: UTF8.self)
        guard !reason.isEmpty, !secrets.contains(where: { !$0.isEmpty && reason.contains($0) }) else { return nil }
        return reason
    }
}
