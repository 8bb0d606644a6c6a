/// Tokeniser for Python 3 source held as UTF-8 bytes.
///
/// Produces NEWLINE/INDENT/DEDENT the way CPython's tokenizer does (blank and comment-only lines and
/// lines inside brackets produce none; tabs advance to the next multiple of 8), and collects comments
/// on the side. `nested` lexes an f-string replacement field in place: no line structure at all.
/// The Python 2 dialect reads `<>` as `!=`, old octal and long literals as their Python 3 spelling,
/// `ur''` strings, backtick tokens, and indentation that mixes tabs and spaces.
struct PythonLexer {
    private let b: [UInt8]
    private let file: String
    private let allowMetavariables: Bool
    private let nested: Bool
    private let python2: Bool
    private let limit: Int
    private var i: Int
    private var line: Int
    private var lineStart: Int
    private var tokens: [PythonToken] = []
    private var comments: [PyComment] = []
    private var indents: [Int] = [0]
    private var altIndents: [Int] = [0]
    private var brackets: [(UInt8, SourceLocation)] = []
    private var lineHasToken = false

    /// Prepares to lex `bytes[start..<limit]`, whose first byte is at `line`/`column`.
    init(
        bytes: [UInt8], file: String, allowMetavariables: Bool, start: Int = 0, limit: Int? = nil,
        line: Int = 1, column: Int = 1, nested: Bool = false, dialect: PythonDialect = .python3
    ) {
        self.b = bytes
        self.python2 = dialect == .python2
        self.file = file
        self.allowMetavariables = allowMetavariables
        self.nested = nested
        self.limit = limit ?? bytes.count
        self.i = start
        self.line = line
        self.lineStart = start - (column - 1)
        tokens.reserveCapacity(max(16, (self.limit - start) / 4))
    }

    @inline(__always) private func loc(_ at: Int) -> SourceLocation {
        SourceLocation(line: line, column: at - lineStart + 1, offset: at)
    }

    private func fail(_ code: PythonSyntaxError.Code, _ message: String, at: Int) -> PythonSyntaxError {
        PythonSyntaxError(code, file: file, line: line, column: at - lineStart + 1, message: message)
    }

    private func fail(_ f: PyStringScan.Failure) -> PythonSyntaxError {
        // Failures may point before the current line (an unterminated string's opening quote is
        // always on the current line, nested field errors may be later); recompute from the bytes.
        let (l, c) = PythonLexer.lineColumn(of: f.offset, in: b, from: lineStart, line: line)
        return PythonSyntaxError(f.code, file: file, line: l, column: c, message: f.message)
    }

    /// Line and column of `offset`, scanning forward from a known line start.
    static func lineColumn(of offset: Int, in b: [UInt8], from lineStart: Int, line: Int) -> (Int, Int) {
        var l = line
        var start = lineStart
        var j = max(lineStart, 0)
        while j < offset && j < b.count {
            if b[j] == 10 || (b[j] == 13 && (j + 1 >= b.count || b[j + 1] != 10)) {
                l += 1
                start = j + 1
            }
            j += 1
        }
        return (l, offset - start + 1)
    }

    private mutating func emit(_ kind: PythonToken.Kind, _ text: String, _ s: Int, _ e: Int) {
        tokens.append(PythonToken(kind: kind, text: text, range: SourceRange(start: loc(s), end: loc(e))))
        lineHasToken = true
    }

    /// Runs the lexer to the end; returns tokens (ending with `.end`) and comments.
    mutating func run() throws -> ([PythonToken], [PyComment]) {
        var atLineStart = !nested
        while true {
            if atLineStart {
                atLineStart = false
                lineHasToken = false
                var col = 0
                var altCol = 0
                // Where the first `\` continuation came, if after some indentation: as in CPython, it
                // fixes the level (`  \` then `    x` is at 2; `\` at column 0 then `    x` is at 4).
                var continuedAt = 0
                while i < limit {
                    let c = b[i]
                    if c == 32 {
                        col += 1
                        altCol += 1
                    } else if c == 9 {
                        col = (col / 8 + 1) * 8
                        altCol += 1
                    } else if c == 12 {
                        col = 0
                        altCol = 0
                    } else if c == 92, let n = continuation(at: i) {
                        if continuedAt == 0 { continuedAt = col }
                        try continueLine(past: n)
                        continue
                    } else {
                        break
                    }
                    i += 1
                }
                if i < limit {
                    let c = b[i]
                    let blank = c == 35 || c == 10 || c == 13
                    if !blank {
                        try indent(to: continuedAt > 0 ? continuedAt : col, alternate: continuedAt > 0 ? continuedAt : altCol)
                    }
                }
            }
            guard i < limit else { break }
            let c = b[i]
            switch c {
            case 32, 9, 12:
                i += 1
            case 10, 13:
                if brackets.isEmpty && !nested, let last = tokens.last, last.kind != .newline,
                    last.kind != .indent, last.kind != .dedent
                {
                    emit(.newline, "", i, i + 1)
                }
                i += (c == 13 && i + 1 < limit && b[i + 1] == 10) ? 2 : 1
                line += 1
                lineStart = i
                atLineStart = brackets.isEmpty && !nested
            case 35:  // '#'
                let s = i
                while i < limit && b[i] != 10 && b[i] != 13 { i += 1 }
                comments.append(
                    PyComment(
                        text: String(decoding: b[s..<i], as: UTF8.self), range: SourceRange(start: loc(s), end: loc(i)),
                        isTrailing: lineHasToken, offset: s))
            case 92:  // '\\'
                if let n = continuation(at: i) {
                    try continueLine(past: n)
                } else if i + 1 >= limit {
                    throw fail(.unexpectedEndOfFile, "unexpected EOF while parsing", at: i)
                } else {
                    throw fail(.invalidCharacter, "unexpected character after line continuation character", at: i)
                }
            case 0:
                throw fail(.invalidCharacter, "source code cannot contain null bytes", at: i)
            case 34, 39:  // quotes
                try string(start: i, quoteAt: i)
            case 48...57:
                try number()
            case 46 where i + 1 < limit && b[i + 1] >= 48 && b[i + 1] <= 57:
                try number()
            case 36 where allowMetavariables:  // '$'
                try metavariable()
            default:
                if PythonIdentifier.isStart(c) {
                    try identifier()
                } else {
                    try op()
                }
            }
        }
        if let (open, at) = brackets.last {
            throw PythonSyntaxError(
                .unbalancedBracket, file: file, line: at.line, column: at.column,
                message: "'\(Character(Unicode.Scalar(open)))' was never closed")
        }
        if !nested {
            if let last = tokens.last, last.kind != .newline, last.kind != .dedent, last.kind != .indent {
                emit(.newline, "", i, i)
            }
            while indents.count > 1 {
                indents.removeLast()
                altIndents.removeLast()
                emit(.dedent, "", i, i)
            }
        }
        emit(.end, "", i, i)
        return (tokens, comments)
    }

    /// Length of the `\` line continuation at `at` (backslash and line break), nil if there is none.
    @inline(__always) private func continuation(at: Int) -> Int? {
        guard at + 1 < limit else { return nil }
        if b[at + 1] == 10 { return 2 }
        if b[at + 1] == 13 { return at + 2 < limit && b[at + 2] == 10 ? 3 : 2 }
        return nil
    }

    /// Steps over a line continuation of `length` bytes; like CPython, one that ends the file is an
    /// unexpected EOF (the logical line has no end).
    private mutating func continueLine(past length: Int) throws {
        if i + length >= limit && !nested {
            throw fail(.unexpectedEndOfFile, "unexpected EOF while parsing", at: i)
        }
        i += length
        line += 1
        lineStart = i
    }

    /// `col` counts tabs to the next multiple of 8, `alternate` counts them as 1: like CPython, a
    /// layout whose meaning depends on the tab size is rejected (TabError).
    private mutating func indent(to col: Int, alternate: Int) throws {
        let top = indents[indents.count - 1]
        let altTop = altIndents[altIndents.count - 1]
        if col > top {
            if alternate <= altTop && !python2 { throw inconsistentTabs() }
            indents.append(col)
            altIndents.append(alternate)
            emit(.indent, "", i, i)
            lineHasToken = false
        } else if col < top {
            while col < indents[indents.count - 1] {
                indents.removeLast()
                altIndents.removeLast()
                emit(.dedent, "", i, i)
            }
            lineHasToken = false
            if col != indents[indents.count - 1] {
                throw fail(.indentation, "unindent does not match any outer indentation level", at: i)
            }
            if alternate != altIndents[altIndents.count - 1] && !python2 { throw inconsistentTabs() }
        } else if alternate != altTop && !python2 {
            throw inconsistentTabs()
        }
    }

    /// Python 2 read a tab as 8 columns whatever the spaces around it: such a file may be Python 2.
    private func inconsistentTabs() -> PythonSyntaxError {
        fail(.python2Syntax, "inconsistent use of tabs and spaces in indentation (Python 2 layout)", at: i)
    }

    private mutating func identifier() throws {
        let s = i
        i += 1
        var nonASCII = b[s] >= 0x80
        while i < limit && PythonIdentifier.isContinue(b[i]) {
            if b[i] >= 0x80 { nonASCII = true }
            i += 1
        }
        if i < limit && (b[i] == 34 || b[i] == 39) && i - s <= 2 {
            if PyStringScan.prefix(b, s, i, python2: python2) != nil {
                try string(start: s, quoteAt: i)
                return
            }
            if PyStringScan.prefix(b, s, i, python2: true) != nil {
                throw fail(.python2Syntax, "invalid string prefix '\(String(decoding: b[s..<i], as: UTF8.self))' (Python 2 syntax)", at: s)
            }
        }
        var text = String(decoding: b[s..<i], as: UTF8.self)
        if nonASCII {
            try checkIdentifier(text, at: s)
            // CPython reads every identifier in NFKC: `𝐨𝐬.sʸstem` is `os.system` to it, and so to every rule.
            text = text.precomposedStringWithCompatibilityMapping
        }
        emit(.name, text, s, i)
    }

    /// PEP 3131: non-ASCII identifiers must be XID_Start XID_Continue*; anything else (a no-break
    /// space, `€`, a smart quote) is an invalid character, as CPython says.
    private func checkIdentifier(_ text: String, at s: Int) throws {
        var offset = s
        for (k, scalar) in text.unicodeScalars.enumerated() {
            let p = scalar.properties
            let ok = k == 0 ? (p.isXIDStart || scalar == "_") : p.isXIDContinue
            if !ok {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                let padded = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                throw fail(.invalidCharacter, "invalid character '\(scalar)' (U+\(padded))", at: offset)
            }
            offset += String(scalar).utf8.count
        }
    }

    /// `$X` or `$...X` in pattern mode: one name token.
    private mutating func metavariable() throws {
        let s = i
        i += 1
        if i + 2 < limit && b[i] == 46 && b[i + 1] == 46 && b[i + 2] == 46 { i += 3 }
        guard i < limit, PythonIdentifier.isStart(b[i]) else {
            throw fail(.invalidCharacter, "invalid metavariable", at: s)
        }
        while i < limit && PythonIdentifier.isContinue(b[i]) { i += 1 }
        emit(.name, String(decoding: b[s..<i], as: UTF8.self), s, i)
    }

    private mutating func string(start s: Int, quoteAt q: Int) throws {
        guard let prefix = PyStringScan.prefix(b, s, q, python2: python2) else {
            throw fail(.unexpectedToken, "invalid string prefix", at: s)
        }
        let quote = b[q]
        let triple = q + 2 < limit && b[q + 1] == quote && b[q + 2] == quote
        let body = q + (triple ? 3 : 1)
        let end: Int
        do {
            if prefix.formatted {
                end = try FStringScanner.scan(
                    b, from: body, limit: limit, quote: quote, triple: triple, raw: prefix.raw, openAt: s, depth: 0
                ).end
            } else {
                end = try PyStringScan.skipPlain(b, from: body, limit: limit, quote: quote, triple: triple, openAt: s)
            }
        } catch {
            throw fail(error)
        }
        let startLoc = loc(s)
        var j = s
        while j < end {
            if b[j] == 10 || (b[j] == 13 && (j + 1 >= end || b[j + 1] != 10)) {
                line += 1
                lineStart = j + 1
            }
            j += 1
        }
        i = end
        tokens.append(
            PythonToken(
                kind: .string, text: String(decoding: b[s..<end], as: UTF8.self), range: SourceRange(start: startLoc, end: loc(end))))
        lineHasToken = true
    }

    private mutating func digits(_ ok: (UInt8) -> Bool) {
        while i < limit && (ok(b[i]) || (b[i] == 95 && i + 1 < limit && ok(b[i + 1]))) { i += 1 }
    }

    private mutating func number() throws {
        let s = i
        let dec: (UInt8) -> Bool = { $0 >= 48 && $0 <= 57 }
        var isInt = true
        var text: String?
        if b[i] == 48 && i + 1 < limit && "xXoObB".utf8.contains(b[i + 1]) {
            let base = b[i + 1] | 0x20
            i += 2
            if i < limit && b[i] == 95 { i += 1 }
            let d0 = i
            switch base {
            case UInt8(ascii: "x"): digits { ($0 >= 48 && $0 <= 57) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) }
            case UInt8(ascii: "o"): digits { $0 >= 48 && $0 <= 55 }
            default: digits { $0 == 48 || $0 == 49 }
            }
            if i == d0 || (i < limit && dec(b[i])) {
                throw fail(
                    .invalidNumber, "invalid \(base == 120 ? "hexadecimal" : base == 111 ? "octal" : "binary") literal",
                    at: s)
            }
        } else {
            digits(dec)
            if i < limit && b[i] == 46 {
                isInt = false
                i += 1
                digits(dec)
            }
            if i < limit && (b[i] | 0x20) == 101 {
                var j = i + 1
                if j < limit && (b[j] == 43 || b[j] == 45) { j += 1 }
                if j < limit && dec(b[j]) {
                    isInt = false
                    i = j
                    digits(dec)
                } else if j >= limit || !PythonIdentifier.isStart(b[j]) {
                    throw fail(.invalidNumber, "invalid decimal literal", at: s)
                }
            }
            if i < limit && (b[i] | 0x20) == 106 {
                isInt = false
                i += 1
            }
            if isInt && b[s] == 48 && i - s > 1 {
                var allZero = true
                for k in s..<i where b[k] != 48 && b[k] != 95 { allZero = false }
                if !allZero {
                    guard python2 else {
                        throw fail(
                            .python2Syntax,
                            "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
                            at: s)
                    }
                    // Python 2's old octal `0777` is Python 3's `0o777`.
                    guard b[s..<i].allSatisfy({ $0 >= 48 && $0 <= 55 }) else {
                        throw fail(.invalidNumber, "invalid octal literal", at: s)
                    }
                    text = "0o" + String(decoding: b[(s + 1)..<i], as: UTF8.self)
                }
            }
        }
        // Python 2's long suffix (`10L`, `0x1fL`): the same integer in Python 3.
        if isInt && i < limit && (b[i] | 0x20) == 108 && !(i + 1 < limit && PythonIdentifier.isContinue(b[i + 1])) {
            guard python2 else {
                throw fail(.python2Syntax, "invalid decimal literal: the 'L' suffix of long integers is Python 2", at: s)
            }
            let digits = text ?? String(decoding: b[s..<i], as: UTF8.self)
            i += 1
            emit(.number, digits, s, i)
            return
        }
        emit(.number, text ?? String(decoding: b[s..<i], as: UTF8.self), s, i)
    }

    private mutating func op() throws {
        let s = i
        let c = b[i]
        let c1: UInt8 = i + 1 < limit ? b[i + 1] : 0
        let c2: UInt8 = i + 2 < limit ? b[i + 2] : 0
        var n = 1
        switch c {
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
            brackets.append((c, loc(i)))
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
            guard let (open, _) = brackets.popLast() else {
                throw fail(.unbalancedBracket, "unmatched '\(Character(Unicode.Scalar(c)))'", at: i)
            }
            let want: UInt8 = open == 40 ? 41 : open + 2
            if want != c {
                throw fail(
                    .unbalancedBracket,
                    "closing parenthesis '\(Character(Unicode.Scalar(c)))' does not match opening parenthesis '\(Character(Unicode.Scalar(open)))'",
                    at: i)
            }
        case UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "<"), UInt8(ascii: ">"):
            if c1 == c {
                n = c2 == UInt8(ascii: "=") ? 3 : 2
            } else if c1 == UInt8(ascii: "=") {
                n = 2
            } else if c == UInt8(ascii: "<") && c1 == UInt8(ascii: ">") {
                guard python2 else { throw fail(.python2Syntax, "invalid syntax: '<>' is Python 2; use '!='", at: i) }
                i += 2
                emit(.op, "!=", s, i)
                return
            }
        case UInt8(ascii: "-"):
            if c1 == UInt8(ascii: ">") || c1 == UInt8(ascii: "=") { n = 2 }
        case UInt8(ascii: "+"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "^"),
            UInt8(ascii: "@"), UInt8(ascii: "="), UInt8(ascii: ":"):
            if c1 == UInt8(ascii: "=") { n = 2 }
        case UInt8(ascii: "!"):
            guard c1 == UInt8(ascii: "=") else { throw fail(.invalidCharacter, "invalid syntax: '!'", at: i) }
            n = 2
        case UInt8(ascii: "."):
            if c1 == 46 && c2 == 46 { n = 3 }
        case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "~"):
            break
        case UInt8(ascii: "`"):
            // Python 2's `x` is repr(x); the parser pairs the backticks.
            guard python2 else { throw fail(.python2Syntax, "invalid syntax: backticks are Python 2; use repr()", at: i) }
        default:
            throw fail(
                .invalidCharacter,
                "invalid character '\(String(decoding: [c], as: UTF8.self))' (U+\(String(c, radix: 16, uppercase: true)))",
                at: i)
        }
        i += n
        emit(.op, String(decoding: b[s..<i], as: UTF8.self), s, i)
    }
}
