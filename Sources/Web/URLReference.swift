/// A URI reference split into its five raw components per RFC 3986 Appendix B, before any
/// validation: the shared first step of parsing an absolute URL and of resolving a reference.
struct URLReference: Sendable, Hashable {
    /// The scheme, lowercased; nil for a relative reference.
    var scheme: String?
    /// The text after `//` up to the path; nil when there is no `//`.
    var authority: String?
    /// The path as written, possibly empty.
    var path: String
    /// The query without `?`, nil when there is no `?`.
    var query: String?
    /// The fragment without `#`, nil when there is no `#`.
    var fragment: String?

    /// Splits `text`; every string splits, so this never fails for lack of structure.
    init(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        scheme = Self.scheme(bytes)
        if let scheme { index = scheme.utf8.count + 1 }
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
            let start = index + 2
            index = Self.end(bytes, from: start, stops: "/?#")
            authority = String(decoding: bytes[start..<index], as: UTF8.self)
        }
        let pathEnd = Self.end(bytes, from: index, stops: "?#")
        path = String(decoding: bytes[index..<pathEnd], as: UTF8.self)
        index = pathEnd
        if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
            let queryEnd = Self.end(bytes, from: index + 1, stops: "#")
            query = String(decoding: bytes[(index + 1)..<queryEnd], as: UTF8.self)
            index = queryEnd
        }
        if index < bytes.count {
            fragment = String(decoding: bytes[(index + 1)...], as: UTF8.self)
        }
    }

    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"` at the start, lowercased; nil otherwise.
    private static func scheme(_ bytes: [UInt8]) -> String? {
        guard let first = bytes.first, URLText.isAlpha(first) else { return nil }
        for (index, byte) in bytes.enumerated().dropFirst() {
            if byte == UInt8(ascii: ":") {
                return String(decoding: bytes[..<index], as: UTF8.self).lowercased()
            }
            let allowed =
                URLText.isAlpha(byte) || URLText.isDigit(byte) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            if !allowed { return nil }
        }
        return nil
    }

    /// The index of the first byte in `stops` at or after `start`, else the end.
    private static func end(_ bytes: [UInt8], from start: Int, stops: String) -> Int {
        let stopBytes = Array(stops.utf8)
        var index = start
        while index < bytes.count, !stopBytes.contains(bytes[index]) { index += 1 }
        return index
    }
}
