/// CPython's `unicode_escape`, `raw_unicode_escape` and `utf-7` decoders, for source files that
/// declare them. Each reads plain ASCII differently (`\u000a` or `+AAo-` is a newline), so code can
/// hide in what a reader takes for a comment; the file is lexed as CPython decodes it. Output is UTF-8.
enum PyEscapeCodecs {
    /// Why the bytes do not decode (CPython raises a `SyntaxError` for these too).
    enum Failure: Error, Equatable {
        /// Malformed input, in CPython's words.
        case malformed(String)
        /// Well-formed input this decoder does not reproduce (`\N{name}` needs the Unicode name table).
        case unsupported(String)
    }

    /// The decoder for a normalised codec name, or nil when the name is none of these.
    static func decoder(named key: String) -> (([UInt8]) throws(Failure) -> [UInt8])? {
        switch key {
        case "unicode_escape": return unicodeEscape
        case "raw_unicode_escape": return rawUnicodeEscape
        case "utf_7", "utf7", "u7", "unicode_1_1_utf_7": return utf7
        default: return nil
        }
    }

    /// `unicode_escape`: bytes are Latin-1 code points; Python string-literal escapes are decoded;
    /// an unknown escape keeps its backslash.
    static func unicodeEscape(_ b: [UInt8]) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            let c = b[i]
            i += 1
            guard c == 0x5C else {
                try put(UInt32(c), &out)
                continue
            }
            guard i < b.count else { throw .malformed("\\ at end of string") }
            let e = b[i]
            i += 1
            switch e {
            case 0x0A: break  // backslash-newline: a continuation, nothing is written
            case 0x5C, 0x27, 0x22: out.append(e)
            case UInt8(ascii: "a"): out.append(7)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "v"): out.append(11)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "r"): out.append(13)
            case 0x30...0x37:
                var value = UInt32(e - 0x30)
                var digits = 1
                while digits < 3, i < b.count, (0x30...0x37).contains(b[i]) {
                    value = value * 8 + UInt32(b[i] - 0x30)
                    i += 1
                    digits += 1
                }
                try put(value, &out)
            case UInt8(ascii: "x"): try put(try hex(b, &i, count: 2, escape: "\\xXX"), &out)
            case UInt8(ascii: "u"): try put(try hex(b, &i, count: 4, escape: "\\uXXXX"), &out)
            case UInt8(ascii: "U"): try put(try hex(b, &i, count: 8, escape: "\\UXXXXXXXX"), &out)
            case UInt8(ascii: "N"): throw .unsupported("\\N{...} escapes are not decoded")
            default:
                out.append(0x5C)
                try put(UInt32(e), &out)
            }
        }
        return out
    }

    /// `raw_unicode_escape`: bytes are Latin-1 code points; only `\uXXXX` and `\UXXXXXXXX` after an
    /// odd run of backslashes are escapes.
    static func rawUnicodeEscape(_ b: [UInt8]) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            guard b[i] == 0x5C else {
                try put(UInt32(b[i]), &out)
                i += 1
                continue
            }
            var j = i
            while j < b.count && b[j] == 0x5C { j += 1 }
            let run = j - i
            let escape = run % 2 == 1 && j < b.count && (b[j] == UInt8(ascii: "u") || b[j] == UInt8(ascii: "U"))
            out.append(contentsOf: repeatElement(0x5C, count: escape ? run - 1 : run))
            i = j
            guard escape else { continue }
            let long = b[i] == UInt8(ascii: "U")
            i += 1
            try put(try hex(b, &i, count: long ? 8 : 4, escape: long ? "\\UXXXXXXXX" : "\\uXXXX"), &out)
        }
        return out
    }

    /// Exactly `count` hex digits at `i` (advanced past them).
    private static func hex(_ b: [UInt8], _ i: inout Int, count: Int, escape: String) throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard i < b.count, let digit = hexValue(b[i]) else { throw .malformed("truncated \(escape) escape") }
            value = value << 4 | digit
            i += 1
        }
        return value
    }

    private static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: UInt32(c - 0x30)
        case 0x41...0x46: UInt32(c - 0x41 + 10)
        case 0x61...0x66: UInt32(c - 0x61 + 10)
        default: nil
        }
    }

    /// Appends a code point as UTF-8; a lone surrogate cannot be (CPython fails there too).
    static func put(_ v: UInt32, _ out: inout [UInt8]) throws(Failure) {
        guard v < 0xD800 || (v > 0xDFFF && v <= 0x10FFFF) else {
            throw .malformed(v > 0x10FFFF ? "illegal Unicode character" : "surrogates not allowed")
        }
        switch v {
        case ..<0x80: out.append(UInt8(v))
        case ..<0x800: out += [0xC0 | UInt8(v >> 6), 0x80 | UInt8(v & 0x3F)]
        case ..<0x10000: out += [0xE0 | UInt8(v >> 12), 0x80 | UInt8(v >> 6 & 0x3F), 0x80 | UInt8(v & 0x3F)]
        default:
            out += [0xF0 | UInt8(v >> 18), 0x80 | UInt8(v >> 12 & 0x3F), 0x80 | UInt8(v >> 6 & 0x3F), 0x80 | UInt8(v & 0x3F)]
        }
    }
}
