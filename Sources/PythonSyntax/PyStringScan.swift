/// Byte-level scanning of string literals, shared by the lexer and the f-string splitter.
enum PyStringScan {
    /// A problem found while scanning, at a byte offset.
    struct Failure: Error {
        var offset: Int
        var code: PythonSyntaxError.Code
        var message: String
    }

    /// Prefix flags of a string literal.
    struct Prefix {
        var raw = false
        var bytes = false
        var formatted = false
        var unicode = false
    }

    /// Parses a prefix such as `rb` or `F`; nil when it is not a valid string prefix. `python2`
    /// also accepts Python 2's raw unicode `ur` (read as a raw string).
    static func prefix(_ b: [UInt8], _ start: Int, _ end: Int, python2: Bool = false) -> Prefix? {
        var p = Prefix()
        var i = start
        while i < end {
            switch b[i] | 0x20 {
            case UInt8(ascii: "r"):
                if p.raw { return nil }
                p.raw = true
            case UInt8(ascii: "b"):
                if p.bytes { return nil }
                p.bytes = true
            case UInt8(ascii: "f"):
                if p.formatted { return nil }
                p.formatted = true
            case UInt8(ascii: "u"):
                if p.unicode { return nil }
                p.unicode = true
            default: return nil
            }
            i += 1
        }
        if p.unicode && python2 && p.raw && !p.bytes && !p.formatted && b[start] | 0x20 == UInt8(ascii: "u") { return p }
        if p.unicode && (p.raw || p.bytes || p.formatted) { return nil }
        if p.bytes && p.formatted { return nil }
        return p
    }

    @inline(__always) static func isClosing(_ b: [UInt8], _ i: Int, _ limit: Int, _ q: UInt8, _ triple: Bool) -> Bool {
        guard b[i] == q else { return false }
        if !triple { return true }
        return i + 2 < limit && b[i + 1] == q && b[i + 2] == q
    }

    /// Skips a non-f string whose opening quote(s) end just before `i`; returns the offset past the
    /// closing quote(s).
    static func skipPlain(_ b: [UInt8], from i0: Int, limit: Int, quote q: UInt8, triple: Bool, openAt: Int)
        throws(Failure) -> Int
    {
        var i = i0
        while i < limit {
            let c = b[i]
            if c == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if c == q && isClosing(b, i, limit, q, triple) { return i + (triple ? 3 : 1) }
            if !triple && (c == 10 || c == 13) { break }
            i += 1
        }
        throw Failure(
            offset: openAt, code: .unterminatedString,
            message: triple ? "unterminated triple-quoted string literal" : "unterminated string literal")
    }

    /// Skips any string literal starting at `i` (prefix included); returns the offset past it.
    static func skipLiteral(_ b: [UInt8], at start: Int, limit: Int, depth: Int) throws(Failure) -> Int {
        var i = start
        while i < limit && b[i] != UInt8(ascii: "'") && b[i] != UInt8(ascii: "\"") { i += 1 }
        guard i < limit, let p = prefix(b, start, i) else {
            throw Failure(offset: start, code: .unexpectedToken, message: "invalid string prefix")
        }
        let q = b[i]
        let triple = i + 2 < limit && b[i + 1] == q && b[i + 2] == q
        let bodyStart = i + (triple ? 3 : 1)
        if p.formatted {
            return try FStringScanner.scan(
                b, from: bodyStart, limit: limit, quote: q, triple: triple, raw: p.raw, openAt: start,
                depth: depth
            ).end
        }
        return try skipPlain(b, from: bodyStart, limit: limit, quote: q, triple: triple, openAt: start)
    }
}
