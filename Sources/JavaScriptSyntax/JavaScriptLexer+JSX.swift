/// JSX's own tokens: text between tags, names with `-`, and attribute strings without escapes.
extension JavaScriptLexer {
    /// What follows `from` inside an element's content: `{`, `<`, JSX text up to either, or the end.
    mutating func scanJSXChild(from: Int) throws -> JSToken {
        scanned += 1
        pos = from
        guard pos < bytes.count else { return JSToken(kind: .end, text: "", start: pos, end: pos, newlineBefore: false) }
        let start = pos
        if bytes[pos] == 0x7B || bytes[pos] == 0x3C {
            pos += 1
            return JSToken(kind: .punct, text: bytes[start] == 0x7B ? "{" : "<", start: start, end: pos, newlineBefore: false)
        }
        while pos < bytes.count && bytes[pos] != 0x7B && bytes[pos] != 0x3C {
            // JSX text may not hold `>` or `}` (write `{'>'}` or `&gt;`), as Babel and TypeScript require.
            if bytes[pos] == 0x3E || bytes[pos] == 0x7D {
                throw error(
                    .invalidJSX, "'\(bytes[pos] == 0x3E ? ">" : "}")' in JSX text (write {'\(bytes[pos] == 0x3E ? ">" : "}")'})", at: pos)
            }
            pos += 1
        }
        return JSToken(
            kind: .jsxText, text: JavaScriptLexer.decodeEntities(bytes[start..<pos]), start: start, end: pos,
            newlineBefore: false)
    }

    /// `name` extended over `-` and identifier characters (`data-id`, `aria-label`).
    mutating func extendJSXName(_ name: JSToken) -> JSToken {
        pos = name.end
        var end = pos
        while end < bytes.count {
            if bytes[end] == 0x2D {
                end += 1
                continue
            }
            let (value, length) = scalar(at: end)
            guard JavaScriptLexer.isIdentifierPart(value) else { break }
            end += length
        }
        guard end > pos else { return name }
        pos = end
        var token = name
        token.end = end
        token.text = source(name.start, end)
        return token
    }

    /// A JSX attribute string at `quoteToken`'s start: no escapes, may span lines, entities decoded.
    mutating func rescanJSXString(_ quoteToken: JSToken) throws -> JSToken {
        let start = quoteToken.start
        let quote = bytes[start]
        var end = start + 1
        while end < bytes.count && bytes[end] != quote { end += 1 }
        guard end < bytes.count else { throw error(.unterminatedString, "unterminated JSX attribute string", at: start) }
        pos = end + 1
        return JSToken(
            kind: .string, text: JavaScriptLexer.decodeEntities(bytes[(start + 1)..<end]), start: start, end: pos,
            newlineBefore: quoteToken.newlineBefore)
    }

    /// The common HTML entities JSX text uses; an unknown one stays as written.
    static let entities: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "copy": "\u{A9}",
        "reg": "\u{AE}", "trade": "\u{2122}", "hellip": "\u{2026}", "mdash": "\u{2014}", "ndash": "\u{2013}",
        "lsquo": "\u{2018}", "rsquo": "\u{2019}", "ldquo": "\u{201C}", "rdquo": "\u{201D}", "bull": "\u{2022}",
        "middot": "\u{B7}", "times": "\u{D7}", "divide": "\u{F7}", "larr": "\u{2190}", "rarr": "\u{2192}",
        "uarr": "\u{2191}", "darr": "\u{2193}", "laquo": "\u{AB}", "raquo": "\u{BB}", "euro": "\u{20AC}",
        "deg": "\u{B0}", "plusmn": "\u{B1}", "zwj": "\u{200D}", "zwnj": "\u{200C}", "thinsp": "\u{2009}",
        "ensp": "\u{2002}", "emsp": "\u{2003}", "check": "\u{2713}", "hearts": "\u{2665}", "shy": "\u{AD}",
    ]

    /// `bytes` as text with `&name;`, `&#123;` and `&#x1F;` decoded.
    static func decodeEntities(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(0x26) else { return String(decoding: bytes, as: UTF8.self) }
        var out = String.UnicodeScalarView()
        let text = String(decoding: bytes, as: UTF8.self)
        var scalars = text.unicodeScalars[...]
        while let first = scalars.first {
            if first == "&", let semicolon = scalars.prefix(12).firstIndex(of: ";") {
                let name = String(String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<semicolon]))
                var decoded: Unicode.Scalar?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                } else {
                    decoded = entities[name]
                }
                if let decoded {
                    out.append(decoded)
                    scalars = scalars[scalars.index(after: semicolon)...]
                    continue
                }
            }
            out.append(first)
            scalars = scalars.dropFirst()
        }
        return String(out)
    }
}
