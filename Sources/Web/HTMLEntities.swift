/// Character references: the named ones pages commonly use (and those XSS filters are evaded
/// with, such as `&colon;` and `&Tab;`) and every numeric one. Unknown names stay literal.
package enum HTMLEntities {
    /// The longest entity name looked up.
    private static let maxNameLength = 32

    /// `bytes` as text with references decoded. In attribute values a reference without `;`
    /// followed by `=` or an alphanumeric stays literal, as browsers keep `?a=1&copy=2` intact.
    package static func decode(_ bytes: ArraySlice<UInt8>, inAttribute: Bool) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "&") else {
                out.append(bytes[index])
                index += 1
                continue
            }
            if let (scalar, end) = reference(bytes, at: index, inAttribute: inAttribute) {
                out.append(contentsOf: Array(String(scalar).utf8))
                index = end
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text of a reference starting at `&`, and the index just past it.
    private static func reference(_ bytes: ArraySlice<UInt8>, at start: Int, inAttribute: Bool) -> (
        Character, Int
    )? {
        let index = start + 1
        guard index < bytes.endIndex else { return nil }
        if bytes[index] == UInt8(ascii: "#") { return numeric(bytes, at: index + 1) }
        var end = index
        while end < bytes.endIndex, end - index < maxNameLength, isAlphanumeric(bytes[end]) { end += 1 }
        let name = String(decoding: bytes[index..<end], as: UTF8.self)
        if end < bytes.endIndex, bytes[end] == UInt8(ascii: ";"), let value = named[name] { return (value, end + 1) }
        // Legacy references work without `;` (`&amp`, `&lt`), except before `=`/alphanumerics in attributes.
        for legacy in legacyNames where name.hasPrefix(legacy) {
            let after = index + legacy.utf8.count
            let next = after < bytes.endIndex ? bytes[after] : 0
            if inAttribute, isAlphanumeric(next) || next == UInt8(ascii: "=") { return nil }
            if let value = named[legacy] { return (value, after) }
        }
        return nil
    }

    /// `&#123;` or `&#x7B;` (the `;` optional); out-of-range and surrogate values are U+FFFD.
    private static func numeric(_ bytes: ArraySlice<UInt8>, at start: Int) -> (Character, Int)? {
        var index = start
        var radix: UInt32 = 10
        if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            index += 1
        }
        let digitsStart = index
        var value: UInt32 = 0
        while index < bytes.endIndex, let digit = URLText.hexValue(bytes[index]), UInt32(digit) < radix {
            // Saturate rather than overflow on a hostile run of digits.
            value = min(value * radix + UInt32(digit), 0x11_0000)
            index += 1
        }
        guard index > digitsStart else { return nil }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ";") { index += 1 }
        let scalar = value == 0 ? nil : Unicode.Scalar(value)
        return (Character(scalar ?? "\u{FFFD}"), index)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool { URLText.isAlpha(byte) || URLText.isDigit(byte) }

    /// Names that browsers decode even without the closing `;`.
    private static let legacyNames = ["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"]

    private static let named: [String: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "copy": "©", "reg": "®",
        "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“",
        "rdquo": "”", "laquo": "«", "raquo": "»", "bull": "•", "middot": "·", "times": "×", "divide": "÷",
        "euro": "€", "pound": "£", "yen": "¥", "cent": "¢", "sect": "§", "para": "¶", "deg": "°", "plusmn": "±",
        "iexcl": "¡", "iquest": "¿", "shy": "\u{AD}", "Tab": "\t", "NewLine": "\n", "colon": ":", "semi": ";",
        "comma": ",", "period": ".", "excl": "!", "quest": "?", "sol": "/", "bsol": "\\", "lpar": "(", "rpar": ")",
        "lsqb": "[", "rsqb": "]", "lcub": "{", "rcub": "}", "lowbar": "_", "num": "#", "equals": "=", "plus": "+",
        "grave": "`", "verbar": "|", "dollar": "$", "percnt": "%", "ast": "*", "commat": "@", "Hat": "^",
        "AMP": "&", "LT": "<", "GT": ">", "QUOT": "\"",
    ]
}
