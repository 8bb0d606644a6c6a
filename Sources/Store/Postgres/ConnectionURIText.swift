/// Where a `scheme://` connection URI holds its secrets, found as libpq's URI parser finds them
/// (`conninfo_uri_parse_options` in fe-connect.c), so that what is hidden is what libpq reads:
/// the user information runs to the first `@` before any `/` (a `?` included), its password
/// from the first `:`; the query starts at the first `?` after the hosts (a bracketed host may
/// hold one); its keys and values are percent-decoded before a key is looked up.
struct ConnectionURIText {
    /// The text's bytes.
    let bytes: [UInt8]
    /// Up to and including `://`; empty when the text has none (nothing is found then).
    let prefixLength: Int
    /// Byte ranges of the values to hide: the user information's password, and the value of
    /// each query parameter whose decoded key names a secret option, in any case (hiding more
    /// than libpq reads costs nothing).
    private(set) var secretRanges: [Range<Int>] = []
    /// True when a non-empty password is there as libpq reads it: keys are case-sensitive.
    private(set) var hasSecret = false
    /// False where libpq's parser would stop before the end (an unclosed `[`, a parameter
    /// without `=` or with two): the rest cannot be located, so it is hidden whole.
    private(set) var isWellFormed = true

    init(_ text: String, secretKeywords: Set<String> = LibpqConninfo.secretKeywords) {
        let bytes = Array(text.utf8)
        self.bytes = bytes
        let separator = Array("://".utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            prefixLength = 0
            return
        }
        prefixLength = start + separator.count
        let netloc = findUserPassword(from: prefixLength)
        guard let query = findQuery(from: netloc) else { return }
        findParameters(from: query, secretKeywords: secretKeywords)
    }

    /// The text with each secret value replaced by `***`, or only its `scheme://` and `***`
    /// when it is not well formed.
    var redacted: String {
        guard isWellFormed else { return String(decoding: bytes[..<prefixLength], as: UTF8.self) + "***" }
        var shown: [UInt8] = []
        var next = 0
        for range in secretRanges {
            shown += bytes[next..<range.lowerBound] + Array("***".utf8)
            next = range.upperBound
        }
        return String(decoding: shown + bytes[next...], as: UTF8.self)
    }

    /// The secret values as written, for checking that a message does not repeat one.
    var secretValues: [String] { secretRanges.map { String(decoding: bytes[$0], as: UTF8.self) } }

    private static func byte(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }

    /// Records the password of `user:password@`; returns where the hosts start.
    private mutating func findUserPassword(from start: Int) -> Int {
        var end = start
        while end < bytes.count, bytes[end] != Self.byte("@"), bytes[end] != Self.byte("/") { end += 1 }
        guard end < bytes.count, bytes[end] == Self.byte("@") else { return start }
        if let colon = bytes[start..<end].firstIndex(of: Self.byte(":")) {
            let password = (colon + 1)..<end
            if !password.isEmpty {
                secretRanges.append(password)
                hasSecret = true
            }
        }
        return end + 1
    }

    /// Skips `host[:port]` pairs separated by `,` (a host may be `[bracketed]`) and a `/dbname`;
    /// returns where the query's parameters start, nil when there is no query.
    private mutating func findQuery(from start: Int) -> Int? {
        let hostEnd: Set<UInt8> = [Self.byte(":"), Self.byte("/"), Self.byte("?"), Self.byte(",")]
        var index = start
        var terminator: UInt8?
        while true {
            if index < bytes.count, bytes[index] == Self.byte("[") {
                guard let close = bytes[(index + 1)...].firstIndex(of: Self.byte("]")), close > index + 1,
                    close + 1 == bytes.count || hostEnd.contains(bytes[close + 1])
                else {
                    isWellFormed = false
                    return nil
                }
                index = close + 1
            } else {
                while index < bytes.count, !hostEnd.contains(bytes[index]) { index += 1 }
            }
            terminator = index < bytes.count ? bytes[index] : nil
            if terminator == Self.byte(":") {
                index += 1
                while index < bytes.count, ![Self.byte("/"), Self.byte("?"), Self.byte(",")].contains(bytes[index]) { index += 1 }
                terminator = index < bytes.count ? bytes[index] : nil
            }
            guard terminator == Self.byte(",") else { break }
            index += 1
        }
        if terminator == Self.byte("/") {
            index = bytes[index...].firstIndex(of: Self.byte("?")) ?? bytes.count
        }
        return index < bytes.count ? index + 1 : nil
    }

    /// Records the value of each `key=value` whose decoded key names a secret option.
    private mutating func findParameters(from start: Int, secretKeywords: Set<String>) {
        var index = start
        while index < bytes.count {
            let end = bytes[index...].firstIndex(of: Self.byte("&")) ?? bytes.count
            let parameter = index..<end
            let equals = bytes[parameter].filter { $0 == Self.byte("=") }.count
            guard equals == 1, let separator = bytes[parameter].firstIndex(of: Self.byte("=")) else {
                isWellFormed = false
                return
            }
            let value = (separator + 1)..<end
            if let key = Self.percentDecoded(bytes[index..<separator]) {
                let keyword = String(decoding: key, as: UTF8.self)
                if secretKeywords.contains(keyword.lowercased()) && !value.isEmpty {
                    secretRanges.append(value)
                    if secretKeywords.contains(keyword) { hasSecret = true }
                }
            } else if !value.isEmpty {
                secretRanges.append(value)  // libpq refuses the key; its value may be anything
            }
            index = end + 1
        }
    }

    /// `%XX` decoded as libpq decodes it; nil for a `%` without two hex digits or a `%00`.
    static func percentDecoded(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var decoded: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == byte("%") else {
                decoded.append(text[index])
                index += 1
                continue
            }
            guard index + 2 < text.endIndex, let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2]),
                (high << 4 | low) != 0
            else { return nil }
            decoded.append(high << 4 | low)
            index += 3
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
