/// Splits the body of an f-string into literal pieces and replacement fields (PEP 701 rules: a
/// field may contain strings with any quotes and nested f-strings).
///
/// Offsets are into the file's bytes; the parser later parses each field's expression in place.
enum FStringScanner {
    /// A piece of an f-string body.
    enum Part {
        /// Undecoded literal bytes `[start, end)`; `{{`/`}}` have already been reduced to one brace.
        case literal(start: Int, end: Int)
        case field(Field)
    }

    /// A `{expr!c:spec}` replacement field.
    struct Field {
        var start: Int
        var exprStart: Int
        var exprEnd: Int
        /// Offset just past `=` for self-documenting fields (`{x=}`), else nil.
        var debugEnd: Int?
        var conversion: UInt8?
        var spec: [Part]?
        /// Offset just past the closing `}`.
        var end: Int
    }

    /// Nested f-strings deeper than this are refused (CPython has a similar limit).
    static let maximumDepth = 16

    static func scan(
        _ b: [UInt8], from: Int, limit: Int, quote: UInt8, triple: Bool, raw: Bool, openAt: Int, depth: Int
    ) throws(PyStringScan.Failure) -> (parts: [Part], end: Int) {
        guard depth < maximumDepth else {
            throw .init(offset: openAt, code: .nestingTooDeep, message: "f-string: too many nested expressions")
        }
        let s = State(b: b, limit: limit, quote: quote, triple: triple, raw: raw, openAt: openAt, depth: depth)
        let (parts, i) = try s.literal(from, specDepth: 0)
        return (parts, i + (triple ? 3 : 1))
    }

    private struct State {
        let b: [UInt8]
        let limit: Int
        let quote: UInt8
        let triple: Bool
        let raw: Bool
        let openAt: Int
        let depth: Int

        func unterminated() -> PyStringScan.Failure {
            .init(
                offset: openAt, code: .unterminatedString,
                message: triple ? "unterminated triple-quoted f-string literal" : "unterminated f-string literal")
        }

        /// Scans literal text up to the closing quote (top level) or `}` (format spec); returns the
        /// offset of that terminator.
        func literal(_ i0: Int, specDepth: Int) throws(PyStringScan.Failure) -> ([Part], Int) {
            let inSpec = specDepth > 0
            var parts: [Part] = []
            var i = i0
            var litStart = i0
            func flush(_ end: Int) {
                if end > litStart { parts.append(.literal(start: litStart, end: end)) }
            }
            while true {
                guard i < limit else { throw unterminated() }
                let c = b[i]
                if c == quote && PyStringScan.isClosing(b, i, limit, quote, triple) {
                    if inSpec {
                        throw .init(offset: i, code: .invalidFString, message: "f-string: expecting '}'")
                    }
                    flush(i)
                    return (parts, i)
                }
                switch c {
                case UInt8(ascii: "\\"):
                    // A backslash never escapes a brace; `\N{NAME}` is one escape, not a field.
                    let n: UInt8 = i + 1 < limit ? b[i + 1] : 0
                    if !raw && n == UInt8(ascii: "N") && i + 2 < limit && b[i + 2] == UInt8(ascii: "{") {
                        i += 3
                        while i < limit && b[i] != UInt8(ascii: "}") && b[i] != quote && b[i] != 10 { i += 1 }
                        if i < limit && b[i] == UInt8(ascii: "}") { i += 1 }
                    } else if n == UInt8(ascii: "{") || n == UInt8(ascii: "}") {
                        i += 1
                    } else {
                        i += 2
                    }
                case 10, 13:
                    if !triple {
                        guard inSpec else { throw unterminated() }
                        // CPython 3.12: a line break ends a single-quoted f-string's format spec; only
                        // the field's `}` may follow (after blanks).
                        flush(i)
                        let j = skipBlank(i)
                        guard j < limit, b[j] == UInt8(ascii: "}") else {
                            throw .init(offset: j, code: .invalidFString, message: "f-string: expecting '}'")
                        }
                        return (parts, j)
                    }
                    i += 1
                case UInt8(ascii: "{"):
                    if !inSpec && i + 1 < limit && b[i + 1] == UInt8(ascii: "{") {
                        flush(i + 1)
                        i += 2
                        litStart = i
                        continue
                    }
                    flush(i)
                    let f = try field(i, specDepth: specDepth)
                    parts.append(.field(f))
                    i = f.end
                    litStart = i
                case UInt8(ascii: "}"):
                    if inSpec {
                        flush(i)
                        return (parts, i)
                    }
                    if i + 1 < limit && b[i + 1] == UInt8(ascii: "}") {
                        flush(i + 1)
                        i += 2
                        litStart = i
                        continue
                    }
                    throw .init(offset: i, code: .invalidFString, message: "f-string: single '}' is not allowed")
                default:
                    i += 1
                }
            }
        }

        /// Scans a replacement field starting at its `{`.
        func field(_ open: Int, specDepth: Int) throws(PyStringScan.Failure) -> Field {
            // `{x:{y:{z}}}` is as deep as CPython goes in format specs.
            guard specDepth < 3 else {
                throw .init(offset: open, code: .invalidFString, message: "f-string: expressions nested too deeply")
            }
            var f = Field(start: open, exprStart: open + 1, exprEnd: open + 1, end: open + 1)
            var i = open + 1
            var nesting = 0
            func expectClose(_ j: Int) throws(PyStringScan.Failure) -> Int {
                let j = skipBlank(j)
                guard j < limit, b[j] == UInt8(ascii: "}") else {
                    throw .init(offset: j, code: .invalidFString, message: "f-string: expecting '}'")
                }
                return j + 1
            }
            while true {
                guard i < limit else { throw unterminated() }
                let c = b[i]
                switch c {
                case UInt8(ascii: "'"), UInt8(ascii: "\""):
                    if !triple && c == quote && nesting == 0 && PyStringScan.isClosing(b, i, limit, quote, triple)
                        && isEndOfLineOrString(i)
                    {
                        throw .init(offset: i, code: .invalidFString, message: "f-string: expecting '}'")
                    }
                    var p = i
                    while p > f.exprStart && isLetter(b[p - 1]) && i - p < 2 { p -= 1 }
                    i = try PyStringScan.skipLiteral(b, at: p, limit: limit, depth: depth + 1)
                    continue
                case UInt8(ascii: "#"):
                    // PEP 701: a comment ends at the line break; the field continues on the next line.
                    while i < limit && b[i] != 10 && b[i] != 13 { i += 1 }
                    continue
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                    nesting += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"):
                    nesting -= 1
                case UInt8(ascii: "}"):
                    if nesting == 0 {
                        f.exprEnd = f.debugEnd == nil ? i : f.exprEnd
                        f.end = i + 1
                        return try finish(f)
                    }
                    nesting -= 1
                case UInt8(ascii: "="):
                    if nesting == 0 && next(i) != UInt8(ascii: "=") && !isComparisonPrefix(prev(i)) {
                        let j = skipBlank(i + 1)
                        if j < limit
                            && (b[j] == UInt8(ascii: "}") || b[j] == UInt8(ascii: "!") || b[j] == UInt8(ascii: ":"))
                        {
                            f.exprEnd = i
                            f.debugEnd = j
                            i = j
                            continue
                        }
                    }
                case UInt8(ascii: "!"):
                    if nesting == 0 && next(i) != UInt8(ascii: "=") {
                        if f.debugEnd == nil { f.exprEnd = i }
                        guard i + 1 < limit, isLetter(b[i + 1]) else {
                            throw .init(
                                offset: i, code: .invalidFString, message: "f-string: missing conversion character")
                        }
                        f.conversion = b[i + 1]
                        // PEP 701: line breaks may follow the conversion, even in a single-quoted f-string.
                        i = skipBlank(i + 2)
                        if i < limit && b[i] == UInt8(ascii: ":") {
                            let (spec, j) = try literal(i + 1, specDepth: specDepth + 1)
                            f.spec = spec
                            f.end = try expectClose(j)
                        } else {
                            f.end = try expectClose(i)
                        }
                        return try finish(f)
                    }
                case UInt8(ascii: ":"):
                    if nesting == 0 {
                        if f.debugEnd == nil { f.exprEnd = i }
                        let (spec, j) = try literal(i + 1, specDepth: specDepth + 1)
                        f.spec = spec
                        f.end = try expectClose(j)
                        return try finish(f)
                    }
                case 10, 13:
                    break  // PEP 701: replacement fields may span lines, even in single-quoted f-strings
                default:
                    break
                }
                i += 1
            }
        }

        /// Skips spaces, line breaks and comments inside a field (PEP 701 allows all three).
        func skipBlank(_ j0: Int) -> Int {
            var j = j0
            while j < limit {
                switch b[j] {
                case 32, 9, 10, 13, 12: j += 1
                case UInt8(ascii: "#"):
                    while j < limit && b[j] != 10 && b[j] != 13 { j += 1 }
                default: return j
                }
            }
            return j
        }

        /// A quote right at the end of a single-quoted f-string line means the field was never closed.
        func isEndOfLineOrString(_ i: Int) -> Bool {
            i + 1 >= limit || b[i + 1] == 10 || b[i + 1] == 13
        }

        func finish(_ f: Field) throws(PyStringScan.Failure) -> Field {
            var s = f.exprStart
            while s < f.exprEnd && isSpace(b[s]) { s += 1 }
            guard s < f.exprEnd else {
                throw .init(
                    offset: f.start, code: .invalidFString, message: "f-string: valid expression required before '}'")
            }
            return f
        }

        @inline(__always) func next(_ i: Int) -> UInt8 { i + 1 < limit ? b[i + 1] : 0 }
        @inline(__always) func prev(_ i: Int) -> UInt8 { i > 0 ? b[i - 1] : 0 }
        @inline(__always) func isComparisonPrefix(_ c: UInt8) -> Bool {
            c == UInt8(ascii: "=") || c == UInt8(ascii: "!") || c == UInt8(ascii: "<") || c == UInt8(ascii: ">")
        }
        @inline(__always) func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
        @inline(__always) func isSpace(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 10 || c == 13 || c == 12 }
    }
}
