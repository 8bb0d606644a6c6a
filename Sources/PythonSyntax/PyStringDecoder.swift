/// Decodes the escapes of a string or bytes literal body.
enum PyStringDecoder {
    /// Decodes `b[start..<end]`. Bytes literals come back as Latin-1 characters (one per byte).
    /// Unknown escapes and `\N{...}` (which needs the Unicode name table) are kept verbatim.
    /// - Throws: where CPython does: a truncated `\x`, `\u` or `\U`, a `\U` beyond U+10FFFF, a `\N`
    ///   without its braced name.
    /// `python2Str`: a Python 2 `str` literal, where `\u`, `\U` and `\N` are not escapes.
    static func decode(
        _ b: [UInt8], _ start: Int, _ end: Int, raw: Bool, bytes: Bool, python2Str: Bool = false
    ) throws(PyStringScan.Failure) -> String {
        if raw || !b[start..<end].contains(UInt8(ascii: "\\")) {
            return bytes ? latin1(b[start..<end]) : String(decoding: b[start..<end], as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        func hex(_ c: UInt8) -> UInt32? {
            switch c {
            case 48...57: return UInt32(c - 48)
            case 97...102: return UInt32(c - 87)
            case 65...70: return UInt32(c - 55)
            default: return nil
            }
        }
        func appendScalar(_ v: UInt32) {
            if bytes {
                out.append(UInt8(truncatingIfNeeded: v))
            } else if let s = Unicode.Scalar(v) {
                out.append(contentsOf: Array(String(Character(s)).utf8))
            } else {
                out.append(contentsOf: Array("\u{FFFD}".utf8))
            }
        }
        while i < end {
            let c = b[i]
            guard c == UInt8(ascii: "\\"), i + 1 < end else {
                out.append(c)
                i += 1
                continue
            }
            let e = b[i + 1]
            i += 2
            switch e {
            case 10: break
            case 13: if i < end && b[i] == 10 { i += 1 }
            case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""): out.append(e)
            case UInt8(ascii: "a"): out.append(7)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "v"): out.append(11)
            case 48...55:
                var v = UInt32(e - 48)
                var n = 1
                while n < 3 && i < end && b[i] >= 48 && b[i] <= 55 {
                    v = v * 8 + UInt32(b[i] - 48)
                    i += 1
                    n += 1
                }
                appendScalar(v)
            case UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "U"):
                let width = e == UInt8(ascii: "x") ? 2 : e == UInt8(ascii: "u") ? 4 : 8
                if (bytes || python2Str) && e != UInt8(ascii: "x") {
                    out.append(UInt8(ascii: "\\"))
                    out.append(e)
                    continue
                }
                var v: UInt32 = 0
                for k in i..<(i + width) {
                    guard k < end, let h = hex(b[k]) else {
                        let form = e == UInt8(ascii: "x") ? "xXX" : e == UInt8(ascii: "u") ? "uXXXX" : "UXXXXXXXX"
                        let message = bytes ? "(value error) invalid \\x escape" : "(unicode error) truncated \\\(form) escape"
                        throw .init(offset: i - 2, code: .invalidEscape, message: message)
                    }
                    v = v &* 16 &+ h
                }
                if v > 0x10FFFF {
                    throw .init(offset: i - 2, code: .invalidEscape, message: "(unicode error) illegal Unicode character in \\U escape")
                }
                i += width
                appendScalar(v)
            case UInt8(ascii: "N") where !bytes && !python2Str:
                // Kept verbatim (no name table here), but it must be well formed: `\N{NAME}`.
                guard i < end, b[i] == UInt8(ascii: "{"), let close = b[i..<end].firstIndex(of: UInt8(ascii: "}")),
                    close > i + 1
                else {
                    throw .init(offset: i - 2, code: .invalidEscape, message: "(unicode error) malformed \\N character escape")
                }
                out.append(contentsOf: b[(i - 2)...close])
                i = close + 1
            default:
                out.append(UInt8(ascii: "\\"))
                out.append(e)
            }
        }
        return bytes ? latin1(out[...]) : String(decoding: out, as: UTF8.self)
    }

    static func latin1(_ s: ArraySlice<UInt8>) -> String {
        var out = String.UnicodeScalarView()
        for c in s { out.append(Unicode.Scalar(c)) }
        return String(out)
    }
}
