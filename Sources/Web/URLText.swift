/// Byte classes and clean-ups shared by the URL parser and the form encoder.
package enum URLText {
    /// ASCII letters.
    package static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// ASCII digits.
    package static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// RFC 3986 `unreserved`: `A-Z a-z 0-9 - . _ ~`.
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    /// RFC 3986 `sub-delims`.
    package static func isSubDelimiter(_ byte: UInt8) -> Bool {
        "!$&'()*+,;=".utf8.contains(byte)
    }

    /// Space, C0 controls and DEL.
    package static func isSpaceOrControl(_ byte: UInt8) -> Bool { byte <= 0x20 || byte == 0x7F }

    /// The value of a hex digit, nil for anything else.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The byte a valid `%XX` escape at `index` stands for; nil when there is none.
    package static func escapedByte(_ bytes: [UInt8], at index: Int) -> UInt8? {
        guard bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
            let low = hexValue(bytes[index + 2])
        else { return nil }
        return high << 4 | low
    }

    /// `%XX` with uppercase hex digits.
    package static func escape(_ byte: UInt8, into out: inout [UInt8]) {
        let digits = Array("0123456789ABCDEF".utf8)
        out.append(UInt8(ascii: "%"))
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }

    /// `text` without leading and trailing spaces and C0 controls, as browsers trim URLs.
    package static func trimmed(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: { !isSpaceOrControl($0) }),
            let last = bytes.lastIndex(where: { !isSpaceOrControl($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// A path, query or fragment with the bytes browsers escape before sending (non-ASCII,
    /// space, controls, `"<>\^`{|}`) percent-encoded; `uppercasing` also uppercases the hex of
    /// existing escapes (paths are normalised, queries stay as the server wrote them).
    package static func encodingUnsafe(_ text: String, uppercasing: Bool) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if uppercasing, let decoded = escapedByte(bytes, at: index) {
                escape(decoded, into: &out)
                index += 3
                continue
            }
            if byte >= 0x80 || isSpaceOrControl(byte) || "\"<>\\^`{|}".utf8.contains(byte) {
                escape(byte, into: &out)
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
