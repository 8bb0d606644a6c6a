import Foundation
import Web

/// How a parameter's value wraps what the application reads: hex, base64 or percent-encoded
/// bytes that are not UTF-8. A probe appended to the wrapped text is noise the server decodes into
/// garbage; a probe appended to what it decodes to, wrapped again, reaches the code that reads it.
public enum ValueCoding: Sendable, Hashable {
    /// Two hex digits per byte, in the original's case.
    case hex(uppercase: Bool)
    /// RFC 4648 base64; `urlSafe`: `-_` for `+/`; `padded`: with its `=`.
    case base64(urlSafe: Bool, padded: Bool)
    /// Percent-encoded bytes of a query or form value that are not UTF-8 (a serialised object in
    /// a link): the decoded value is carried one byte per scalar (Latin-1) and sent back as `%XX`.
    case bytes

    /// The wrapping's name in a parameter's reported name (`data (base64)`).
    public var label: String {
        switch self {
        case .hex: "hex"
        case .base64: "base64"
        case .bytes: "bytes"
        }
    }

    /// What a value of this coding carries: its decoded text (UTF-8), or its bytes one scalar per
    /// byte when they are not text (`binary`).
    public struct Inner: Sendable, Hashable {
        /// How the value is wrapped.
        public var coding: ValueCoding
        /// The decoded value.
        public var text: String
        /// True when `text` holds bytes one scalar each (U+0000–U+00FF), not UTF-8 text.
        public var binary: Bool
    }

    /// The wrapped value that carries `value` (decoded text, or one scalar per byte if `binary`);
    /// for `.bytes`, its percent-encoded form.
    public func wrap(_ value: String, binary: Bool) -> String {
        let bytes = binary ? value.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } : Array(value.utf8)
        switch self {
        case .hex(let uppercase):
            return bytes.map { String(format: uppercase ? "%02X" : "%02x", $0) }.joined()
        case .base64(let urlSafe, let padded):
            var text = Data(bytes).base64EncodedString()
            if urlSafe { text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") }
            if !padded { text = text.replacingOccurrences(of: "=", with: "") }
            return text
        case .bytes:
            return bytes.map { URLText.isUnreserved($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
        }
    }

    /// What `original` wraps, when it plainly wraps something: text (printable UTF-8 of at least
    /// three characters) or a serialised object (a pickle, Java serialisation). `raw` is the value
    /// as the page gave it, still percent-encoded (query and form values only). Random tokens
    /// (session ids, CSRF tokens) decode to bytes with no such shape and are not wrapped values.
    public static func inner(of original: String, raw: String?) -> Inner? {
        if let raw, let bytes = percentDecoded(raw), String(validating: bytes, as: UTF8.self) == nil,
            isSerialisedObject(bytes)
        {
            return Inner(coding: .bytes, text: latin1(bytes), binary: true)
        }
        guard original.utf8.count >= 8, original.utf8.count <= 16 << 10 else { return nil }
        for coding in candidates(original) {
            guard let bytes = coding.unwrap(original), coding.wrap(latin1(bytes), binary: true) == original else { continue }
            if let text = String(validating: bytes, as: UTF8.self), isText(text) {
                return Inner(coding: coding, text: text, binary: false)
            }
            if isSerialisedObject(bytes) { return Inner(coding: coding, text: latin1(bytes), binary: true) }
        }
        return nil
    }

    /// The codings `text`'s alphabet allows, likeliest first: hex digits of one case, then base64.
    static func candidates(_ text: String) -> [ValueCoding] {
        let bytes = Array(text.utf8)
        var codings: [ValueCoding] = []
        let lowerHex = bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        let upperHex = bytes.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) }
        // All digits is a number (an id, a timestamp), not hex.
        if bytes.count % 2 == 0, lowerHex || upperHex, !bytes.allSatisfy(URLText.isDigit) {
            codings.append(.hex(uppercase: !lowerHex))
        }
        let body = bytes.reversed().drop { $0 == UInt8(ascii: "=") }
        let padding = bytes.count - body.count
        let standard = body.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }
        let urlSafe = body.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        if padding <= 2, standard || urlSafe, bytes.count % 4 != 1 {
            codings.append(.base64(urlSafe: !standard, padded: padding > 0))
        }
        return codings
    }

    /// The bytes `text` decodes to in this coding; nil when it does not decode.
    func unwrap(_ text: String) -> [UInt8]? {
        switch self {
        case .hex:
            let digits = Array(text.utf8)
            guard digits.count % 2 == 0 else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(digits.count / 2)
            for index in stride(from: 0, to: digits.count, by: 2) {
                guard let high = URLText.hexValue(digits[index]), let low = URLText.hexValue(digits[index + 1]) else { return nil }
                out.append(high << 4 | low)
            }
            return out
        case .base64:
            var normalized = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while normalized.utf8.count % 4 != 0 { normalized += "=" }
            return Data(base64Encoded: normalized).map { [UInt8]($0) }
        case .bytes:
            return Self.percentDecoded(text)
        }
    }

    /// Printable text of at least three characters (tabs and line ends allowed).
    static func isText(_ text: String) -> Bool {
        text.unicodeScalars.count >= 3
            && text.unicodeScalars.allSatisfy { $0 == "\t" || $0 == "\n" || $0 == "\r" || ($0.value >= 0x20 && $0.value != 0x7F) }
    }

    /// A Python pickle (protocol 2 to 5) or Java serialisation stream: objects a client should
    /// never be trusted to send.
    static func isSerialisedObject(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        return (bytes[0] == 0x80 && (2...5).contains(bytes[1])) || (bytes[0] == 0xAC && bytes[1] == 0xED)
    }

    /// `bytes`, one scalar per byte.
    static func latin1(_ bytes: [UInt8]) -> String {
        String(String.UnicodeScalarView(bytes.map { UnicodeScalar($0) }))
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool { URLText.isAlpha(byte) || URLText.isDigit(byte) }

    /// `%XX` escapes decoded, `+` as a space; nil when nothing was escaped.
    private static func percentDecoded(_ text: String) -> [UInt8]? {
        let (bytes, escaped) = FormEncoding.unescapedBytes(Substring(text), plusIsSpace: true)
        return escaped ? bytes : nil
    }
}
