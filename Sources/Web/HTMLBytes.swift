/// Byte classes of the HTML tokenizer (ASCII only: HTML's syntax characters all are).
package enum HTMLBytes {
    /// ASCII letters.
    package static func isAlpha(_ byte: UInt8) -> Bool { URLText.isAlpha(byte) }

    /// HTML whitespace: tab, LF, FF, CR, space.
    package static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// What ends a tag name: whitespace, `/` or `>`.
    package static func isTagNameEnd(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    /// What ends an attribute name: whitespace, `/`, `>` or `=`.
    package static func isAttributeNameEnd(_ byte: UInt8) -> Bool { isTagNameEnd(byte) || byte == UInt8(ascii: "=") }

    /// ASCII-lowercased text of `bytes` (tag and attribute names are ASCII case-insensitive).
    package static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether `bytes` holds `prefix` at `index` (ASCII case-insensitively when asked).
    package static func hasPrefix(_ bytes: [UInt8], at index: Int, _ prefix: String, caseInsensitive: Bool = false) -> Bool {
        var cursor = index
        for expected in prefix.utf8 {
            guard cursor < bytes.count else { return false }
            var actual = bytes[cursor]
            if caseInsensitive, actual >= 0x41, actual <= 0x5A { actual += 0x20 }
            guard actual == expected else { return false }
            cursor += 1
        }
        return true
    }

    /// `text` with runs of HTML whitespace collapsed to one space and the ends trimmed, as
    /// option labels and titles display.
    package static func collapsingSpace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isASCII && $0.asciiValue.map(isSpace) == true }).joined(separator: " ")
    }
}
