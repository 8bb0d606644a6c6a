extension PyEscapeCodecs {
    /// `utf-7` as CPython decodes it (RFC 2152, strict): ASCII but `+` is itself; `+-` is `+`; `+`
    /// followed by base64 is UTF-16 until the first other byte (a `-` there is absorbed).
    static func utf7(_ b: [UInt8]) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var inShift = false
        var bits = 0
        var buffer: UInt32 = 0
        var surrogate: UInt32 = 0
        var i = 0
        while i < b.count {
            let c = b[i]
            if inShift {
                if let v = base64(c) {
                    buffer = buffer << 6 | v
                    bits += 6
                    i += 1
                    guard bits >= 16 else { continue }
                    let unit = buffer >> UInt32(bits - 16)
                    bits -= 16
                    buffer &= (1 << UInt32(bits)) - 1
                    if surrogate != 0 {
                        guard (0xDC00...0xDFFF).contains(unit) else { throw .malformed("surrogates not allowed") }
                        try put(0x10000 + (surrogate - 0xD800) << 10 + (unit - 0xDC00), &out)
                        surrogate = 0
                    } else if (0xD800...0xDBFF).contains(unit) {
                        surrogate = unit
                    } else {
                        try put(unit, &out)
                    }
                    continue
                }
                inShift = false
                if bits > 6 { throw .malformed("partial character in shift sequence") }
                if buffer != 0 { throw .malformed("non-zero padding bits in shift sequence") }
                if surrogate != 0 { throw .malformed("surrogates not allowed") }
                if c == UInt8(ascii: "-") { i += 1 }  // absorbed; any other byte is read again below
                continue
            }
            i += 1
            if c == UInt8(ascii: "+") {
                if i < b.count && b[i] == UInt8(ascii: "-") {
                    out.append(c)
                    i += 1
                } else if i < b.count && base64(b[i]) == nil {
                    throw .malformed("ill-formed sequence")
                } else {
                    inShift = true
                    bits = 0
                    buffer = 0
                    surrogate = 0
                }
            } else if c < 0x80 {
                out.append(c)
            } else {
                throw .malformed("unexpected special character")
            }
        }
        if inShift && (surrogate != 0 || bits >= 6 || (bits > 0 && buffer != 0)) {
            throw .malformed("unterminated shift sequence")
        }
        return out
    }

    private static func base64(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x41...0x5A: UInt32(c - 0x41)
        case 0x61...0x7A: UInt32(c - 0x61 + 26)
        case 0x30...0x39: UInt32(c - 0x30 + 52)
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
