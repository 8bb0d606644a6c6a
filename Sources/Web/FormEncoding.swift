/// `application/x-www-form-urlencoded` (HTML's form encoding) and plain percent-encoding, for
/// query strings and POST bodies. Decoding never fails: invalid escapes stay literal as
/// browsers and most servers read them.
public enum FormEncoding {
    /// `name=value` pairs joined by `&`; every byte but `A-Za-z0-9-._~` escaped, space as `%20`:
    /// a server that decodes only `%XX` (Python's `unquote`, many hand-written handlers) reads a
    /// `+` as a plus sign, while every form decoder reads `%20` as a space.
    public static func encode(_ pairs: [FormPair]) -> String {
        pairs.map { percentEncode($0.name) + "=" + percentEncode($0.value) }.joined(separator: "&")
    }

    /// `encode`, where a pair whose value came from a URL or body unchanged carries its encoded
    /// text (`raw`): re-sent byte for byte, `+`, `%FF` and all, as the page gave it.
    public static func encode(_ pairs: [(name: String, value: String, raw: String?)]) -> String {
        pairs.map { percentEncode($0.name) + "=" + ($0.raw ?? percentEncode($0.value)) }.joined(separator: "&")
    }

    /// The pairs of `text` as `decode` reads them, each with its value's text as it stands
    /// (still encoded), so that an unchanged value can be sent back as it came.
    public static func decodeKeepingRaw(_ text: String) -> [(name: String, value: String, raw: String)] {
        text.split(separator: "&").map { piece in
            guard let equals = piece.firstIndex(of: "=") else { return (name: unescape(piece), value: "", raw: "") }
            let raw = piece[piece.index(after: equals)...]
            return (name: unescape(piece[..<equals]), value: unescape(raw), raw: String(raw))
        }
    }

    /// One name or value, form-encoded as a browser's form does (space as `+`).
    public static func component(_ text: String) -> String {
        encodeBytes(text, allowing: [], spaceAsPlus: true)
    }

    /// `text` with every byte but `A-Za-z0-9-._~` and those in `allowing` (ASCII) escaped as
    /// `%XX` (uppercase hex), space as `%20`.
    public static func percentEncode(_ text: String, allowing: String = "") -> String {
        encodeBytes(text, allowing: Set(allowing.utf8.filter { $0 < 0x80 }), spaceAsPlus: false)
    }

    /// The pairs of `text`: split on `&`, empty pieces skipped, name and value split at the first
    /// `=` (a piece without one is a name with an empty value), `+` and `%XX` decoded.
    public static func decode(_ text: String) -> [FormPair] {
        text.split(separator: "&").map { piece in
            guard let equals = piece.firstIndex(of: "=") else { return (name: unescape(piece), value: "") }
            return (name: unescape(piece[..<equals]), value: unescape(piece[piece.index(after: equals)...]))
        }
    }

    /// `text` with `+` as space and valid `%XX` escapes decoded; invalid UTF-8 becomes U+FFFD.
    public static func unescape(_ text: Substring) -> String {
        String(decoding: unescapedBytes(text, plusIsSpace: true).bytes, as: UTF8.self)
    }

    /// The bytes `text` stands for, valid `%XX` escapes decoded (`+` as a space if `plusIsSpace`:
    /// in a query or form, not a path), and whether it held an escape.
    public static func unescapedBytes(_ text: Substring, plusIsSpace: Bool) -> (bytes: [UInt8], escaped: Bool) {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var escaped = false
        var index = 0
        while index < bytes.count {
            if let decoded = URLText.escapedByte(bytes, at: index) {
                out.append(decoded)
                escaped = true
                index += 3
                continue
            }
            out.append(plusIsSpace && bytes[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : bytes[index])
            index += 1
        }
        return (out, escaped)
    }

    private static func encodeBytes(_ text: String, allowing: Set<UInt8>, spaceAsPlus: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if URLText.isUnreserved(byte) || allowing.contains(byte) {
                out.append(byte)
            } else if byte == UInt8(ascii: " ") && spaceAsPlus {
                out.append(UInt8(ascii: "+"))
            } else {
                URLText.escape(byte, into: &out)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
