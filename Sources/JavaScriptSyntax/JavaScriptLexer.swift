/// Turns the bytes of a file into tokens, one at a time, as the parser asks.
///
/// JavaScript cannot be tokenised ahead of parsing: whether `/` starts a regex or divides, where a
/// template's `}` resumes, what is JSX text and whether `>>` is one operator or two closing type
/// brackets all depend on the grammar. So the lexer reads in "division" mode and the parser asks it to
/// rescan a token in another mode (``rescanRegex(_:)``, ``rescanTemplateContinuation(_:)``,
/// ``rescanGreater(_:)``, ``scanJSXChild(from:)``). `>` is always one token until then. The lexer is a
/// small value: the parser saves and restores it to read ahead.
struct JavaScriptLexer: Sendable {
    let bytes: [UInt8]
    let file: String
    let lines: JSLineMap
    /// Next byte to read.
    var pos: Int
    /// Tokens scanned so far, rescans and read-ahead included (the parser's linear-time bound).
    var scanned = 0
    /// A rule pattern's `$...X` is one name token (`$X` is an identifier already).
    var metavariables = false
    /// Annex B.1.1's HTML-like comments are read (a script's goal, ``JavaScriptGoal``).
    var htmlComments = false
    /// An HTML-like comment was read (a file read as a script is read again as a module when it
    /// turns out to declare imports or exports, only if it held one).
    var sawHTMLComment = false
    /// Where the input starts (after a byte order mark): a `-->` there starts a line.
    let inputStart: Int
    /// Where comments start, for suppressions (`JSComment`); nil when nobody asks.
    var comments: JSCommentLog?

    init(bytes: [UInt8], file: String, lines: JSLineMap, start: Int) {
        self.bytes = bytes
        self.file = file
        self.lines = lines
        self.pos = start
        self.inputStart = start
        if pos + 1 < bytes.count && bytes[pos] == 0x23 && bytes[pos + 1] == 0x21 {
            // A hashbang line is a comment, only as the first thing in the file.
            while pos < bytes.count && !isLineTerminator(at: pos) { pos += 1 }
        }
    }

    func error(_ code: JavaScriptSyntaxError.Code, _ message: String, at offset: Int) -> JavaScriptSyntaxError {
        let location = lines.location(min(offset, bytes.count))
        return JavaScriptSyntaxError(code, file: file, line: location.line, column: location.column, message: message)
    }

    @inline(__always) func byte(_ at: Int) -> UInt8 { at < bytes.count ? bytes[at] : 0 }

    /// The length of a line terminator at `at` (LF, CR, CRLF, U+2028, U+2029), or 0.
    func isLineTerminator(at: Int) -> Bool { lineTerminatorLength(at: at) > 0 }

    func lineTerminatorLength(at: Int) -> Int {
        guard at < bytes.count else { return 0 }
        switch bytes[at] {
        case 0x0A: return 1
        case 0x0D: return byte(at + 1) == 0x0A ? 2 : 1
        case 0xE2 where byte(at + 1) == 0x80 && (byte(at + 2) == 0xA8 || byte(at + 2) == 0xA9): return 3
        default: return 0
        }
    }

    /// The Unicode scalar at `at` and its length in bytes (the input was checked to be UTF-8).
    func scalar(at: Int) -> (value: UInt32, length: Int) {
        let b0 = UInt32(byte(at))
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0 { return (((b0 & 0x1F) << 6) | (UInt32(byte(at + 1)) & 0x3F), 2) }
        if b0 < 0xF0 {
            return (((b0 & 0x0F) << 12) | ((UInt32(byte(at + 1)) & 0x3F) << 6) | (UInt32(byte(at + 2)) & 0x3F), 3)
        }
        let value =
            ((b0 & 0x07) << 18) | ((UInt32(byte(at + 1)) & 0x3F) << 12) | ((UInt32(byte(at + 2)) & 0x3F) << 6)
            | (UInt32(byte(at + 3)) & 0x3F)
        return (value, 4)
    }

    static func isWhitespace(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0B, 0x0C, 0x20, 0xA0, 0xFEFF, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    @inline(__always) static func isASCIIIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x24 || c == 0x5F
    }

    @inline(__always) static func isASCIIIdentifierPart(_ c: UInt8) -> Bool {
        isASCIIIdentifierStart(c) || (c >= 0x30 && c <= 0x39)
    }

    static func isIdentifierStart(_ value: UInt32) -> Bool {
        if value < 0x80 { return isASCIIIdentifierStart(UInt8(value)) }
        guard let s = Unicode.Scalar(value) else { return false }
        return s.properties.isIDStart
    }

    static func isIdentifierPart(_ value: UInt32) -> Bool {
        if value < 0x80 { return isASCIIIdentifierPart(UInt8(value)) }
        // ZWNJ and ZWJ continue identifiers.
        if value == 0x200C || value == 0x200D { return true }
        guard let s = Unicode.Scalar(value) else { return false }
        return s.properties.isIDContinue
    }

    // MARK: Trivia

    /// Skips whitespace and comments; returns whether a line terminator was among them.
    mutating func skipTrivia() throws -> Bool {
        var newline = false
        while pos < bytes.count {
            let c = bytes[pos]
            switch c {
            case 0x20, 0x09, 0x0B, 0x0C:
                pos += 1
            case 0x0A, 0x0D:
                newline = true
                pos += 1
            case 0x2F where byte(pos + 1) == 0x2F:
                comments?.record(pos)
                pos += 2
                while pos < bytes.count && !isLineTerminator(at: pos) { pos += 1 }
            case 0x3C where htmlComments && byte(pos + 1) == 0x21 && byte(pos + 2) == 0x2D && byte(pos + 3) == 0x2D:
                // `<!--` anywhere a comment may start runs to the end of the line (Annex B.1.1).
                comments?.record(pos)
                sawHTMLComment = true
                pos += 4
                while pos < bytes.count && !isLineTerminator(at: pos) { pos += 1 }
            case 0x2D where htmlComments && (newline || pos == inputStart) && byte(pos + 1) == 0x2D && byte(pos + 2) == 0x3E:
                // `-->` is a comment only first on its line, after nothing but white space and
                // comments (V8 and Node also take it first in the input).
                comments?.record(pos)
                sawHTMLComment = true
                pos += 3
                while pos < bytes.count && !isLineTerminator(at: pos) { pos += 1 }
            case 0x2F where byte(pos + 1) == 0x2A:
                comments?.record(pos)
                let start = pos
                pos += 2
                var closed = false
                while pos < bytes.count {
                    if bytes[pos] == 0x2A && byte(pos + 1) == 0x2F {
                        pos += 2
                        closed = true
                        break
                    }
                    let terminator = lineTerminatorLength(at: pos)
                    if terminator > 0 {
                        newline = true
                        pos += terminator
                    } else {
                        pos += 1
                    }
                }
                if !closed { throw error(.unterminatedComment, "unterminated comment", at: start) }
            case 0x80...:
                let (value, length) = scalar(at: pos)
                if value == 0x2028 || value == 0x2029 {
                    newline = true
                } else if !JavaScriptLexer.isWhitespace(value) {
                    return newline
                }
                pos += length
            default:
                return newline
            }
        }
        return newline
    }

    // MARK: Tokens

    /// The next token in division mode.
    mutating func next() throws -> JSToken {
        scanned += 1
        let newline = try skipTrivia()
        let start = pos
        guard pos < bytes.count else {
            return JSToken(kind: .end, text: "", start: start, end: start, newlineBefore: true)
        }
        let c = bytes[pos]
        if metavariables, c == 0x24, byte(pos + 1) == 0x2E, byte(pos + 2) == 0x2E, byte(pos + 3) == 0x2E,
            JavaScriptLexer.isASCIIIdentifierStart(byte(pos + 4))
        {
            pos += 4
            let name = try scanIdentifier()
            return JSToken(kind: .name, text: "$..." + name.text, start: start, end: pos, newlineBefore: newline)
        }
        if JavaScriptLexer.isASCIIIdentifierStart(c) || c == 0x5C || c >= 0x80 {
            if c >= 0x80 && !JavaScriptLexer.isIdentifierStart(scalar(at: pos).value) {
                throw error(.invalidCharacter, "invalid character U+\(String(scalar(at: pos).value, radix: 16, uppercase: true))", at: pos)
            }
            var token = try scanIdentifier()
            token.newlineBefore = newline
            return token
        }
        if c >= 0x30 && c <= 0x39 || (c == 0x2E && byte(pos + 1) >= 0x30 && byte(pos + 1) <= 0x39) {
            var token = try scanNumber()
            token.newlineBefore = newline
            return token
        }
        switch c {
        case 0x22, 0x27:
            var token = try scanString(quote: c)
            token.newlineBefore = newline
            return token
        case 0x60:
            pos += 1
            var token = try scanTemplate(from: start)
            token.newlineBefore = newline
            return token
        case 0x23:
            pos += 1
            guard pos < bytes.count, JavaScriptLexer.isIdentifierStart(scalar(at: pos).value) || byte(pos) == 0x5C else {
                throw error(.invalidCharacter, "invalid character '#'", at: start)
            }
            let name = try scanIdentifier()
            return JSToken(kind: .privateName, text: "#" + name.text, start: start, end: pos, newlineBefore: newline)
        default:
            let length = punctuatorLength(c)
            guard length > 0 else {
                let what = c == 0 ? "NUL byte" : "character '\(UnicodeScalar(c))'"
                throw error(.invalidCharacter, "invalid \(what)", at: start)
            }
            pos += length
            return JSToken(
                kind: .punct, text: String(decoding: bytes[start..<pos], as: UTF8.self), start: start, end: pos,
                newlineBefore: newline)
        }
    }

    /// The length of the punctuator at `pos` starting with `c`, or 0. `>` is always one byte.
    func punctuatorLength(_ c: UInt8) -> Int {
        let c1 = byte(pos + 1)
        let c2 = byte(pos + 2)
        let c3 = byte(pos + 3)
        switch c {
        case 0x7B, 0x7D, 0x28, 0x29, 0x5B, 0x5D, 0x3B, 0x2C, 0x7E, 0x3A, 0x40, 0x3E: return 1
        case 0x2E: return c1 == 0x2E && c2 == 0x2E ? 3 : 1  // . ...
        case 0x3C:  // < <= << <<=
            if c1 == 0x3C { return c2 == 0x3D ? 3 : 2 }
            return c1 == 0x3D ? 2 : 1
        case 0x3D:  // = == === =>
            if c1 == 0x3D { return c2 == 0x3D ? 3 : 2 }
            return c1 == 0x3E ? 2 : 1
        case 0x21:  // ! != !==
            if c1 == 0x3D { return c2 == 0x3D ? 3 : 2 }
            return 1
        case 0x2B, 0x2D:  // + ++ += - -- -=
            return c1 == c || c1 == 0x3D ? 2 : 1
        case 0x2A:  // * ** *= **=
            if c1 == 0x2A { return c2 == 0x3D ? 3 : 2 }
            return c1 == 0x3D ? 2 : 1
        case 0x2F, 0x25, 0x5E:  // / /= % %= ^ ^=
            return c1 == 0x3D ? 2 : 1
        case 0x26, 0x7C:  // & && &= &&= | || |= ||=
            if c1 == c { return c2 == 0x3D ? 3 : 2 }
            return c1 == 0x3D ? 2 : 1
        case 0x3F:  // ? ?? ??= ?.
            if c1 == 0x3F { return c2 == 0x3D ? 3 : 2 }
            // `a?.5:b` is a conditional, not optional chaining.
            if c1 == 0x2E && !(c2 >= 0x30 && c2 <= 0x39) { return 2 }
            _ = c3
            return 1
        default: return 0
        }
    }

    /// `>` followed by `>`, `>>`, `=`, `>=`, `>>=` joined into one operator, for a `>` read where a
    /// binary operator is expected (in a type, `>>` closes two argument lists).
    mutating func rescanGreater(_ token: JSToken) -> JSToken {
        var end = token.start + 1
        if byte(end) == 0x3E {
            end += 1
            if byte(end) == 0x3E { end += 1 }
        }
        if byte(end) == 0x3D { end += 1 }
        pos = end
        var result = token
        result.end = end
        result.text = String(decoding: bytes[token.start..<end], as: UTF8.self)
        return result
    }

    // MARK: Identifiers

    /// An identifier at `pos`, `\u` escapes decoded.
    mutating func scanIdentifier() throws -> JSToken {
        let start = pos
        while pos < bytes.count && JavaScriptLexer.isASCIIIdentifierPart(bytes[pos]) { pos += 1 }
        if pos >= bytes.count || (bytes[pos] != 0x5C && bytes[pos] < 0x80) {
            return JSToken(
                kind: .name, text: String(decoding: bytes[start..<pos], as: UTF8.self), start: start, end: pos,
                newlineBefore: false)
        }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: String(decoding: bytes[start..<pos], as: UTF8.self).unicodeScalars)
        var escaped = false
        while pos < bytes.count {
            if bytes[pos] == 0x5C {
                let escapeStart = pos
                guard byte(pos + 1) == 0x75 else { throw error(.invalidEscape, "invalid escape in identifier", at: pos) }
                pos += 2
                guard let value = try scanUnicodeEscapeValue(), let s = Unicode.Scalar(value),
                    scalars.isEmpty ? JavaScriptLexer.isIdentifierStart(value) : JavaScriptLexer.isIdentifierPart(value)
                else { throw error(.invalidEscape, "invalid escape in identifier", at: escapeStart) }
                scalars.append(s)
                escaped = true
                continue
            }
            let (value, length) = scalar(at: pos)
            guard scalars.isEmpty ? JavaScriptLexer.isIdentifierStart(value) : JavaScriptLexer.isIdentifierPart(value),
                let s = Unicode.Scalar(value)
            else { break }
            scalars.append(s)
            pos += length
        }
        var token = JSToken(kind: .name, text: String(scalars), start: start, end: pos, newlineBefore: false)
        token.escaped = escaped
        return token
    }

    /// The value of `XXXX` or `{X...}` after `\u` at `pos`; nil when malformed.
    mutating func scanUnicodeEscapeValue() throws -> UInt32? {
        if byte(pos) == 0x7B {
            pos += 1
            var value: UInt32 = 0
            var digits = 0
            while let digit = JavaScriptLexer.hexValue(byte(pos)) {
                value = value &* 16 &+ UInt32(digit)
                digits += 1
                pos += 1
                if value > 0x10FFFF { return nil }
            }
            guard digits > 0, byte(pos) == 0x7D else { return nil }
            pos += 1
            return value
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JavaScriptLexer.hexValue(byte(pos)) else { return nil }
            value = value * 16 + UInt32(digit)
            pos += 1
        }
        return value
    }

    static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case 0x30...0x39: return Int(c - 0x30)
        case 0x61...0x66: return Int(c - 0x61 + 10)
        case 0x41...0x46: return Int(c - 0x41 + 10)
        default: return nil
        }
    }

    // MARK: Numbers

    /// A numeric literal at `pos`: decimal, `.5`, exponent, `0x`/`0o`/`0b`, legacy octal, `_`
    /// separators and the BigInt `n`.
    mutating func scanNumber() throws -> JSToken {
        let start = pos
        var bigint = false
        func digits(_ isDigit: (UInt8) -> Bool) throws {
            var last: UInt8 = 0
            while pos < bytes.count, isDigit(bytes[pos]) || bytes[pos] == 0x5F {
                if bytes[pos] == 0x5F && (last == 0x5F || last == 0) {
                    throw error(.invalidNumber, "invalid numeric separator", at: pos)
                }
                last = bytes[pos]
                pos += 1
            }
            if last == 0x5F { throw error(.invalidNumber, "numeric separator at the end of a number", at: pos - 1) }
        }
        let isDecimal: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
        let c1 = byte(pos + 1) | 0x20
        if bytes[pos] == 0x30 && (c1 == 0x78 || c1 == 0x6F || c1 == 0x62) {
            pos += 2
            let before = pos
            switch c1 {
            case 0x78: try digits { JavaScriptLexer.hexValue($0) != nil }
            case 0x6F: try digits { $0 >= 0x30 && $0 <= 0x37 }
            default: try digits { $0 == 0x30 || $0 == 0x31 }
            }
            if pos == before { throw error(.invalidNumber, "missing digits after the base prefix", at: start) }
            if byte(pos) == 0x6E {
                bigint = true
                pos += 1
            }
        } else {
            if bytes[pos] != 0x2E { try digits(isDecimal) }
            var fraction = false
            if byte(pos) == 0x2E {
                fraction = true
                pos += 1
                if isDecimal(byte(pos)) { try digits(isDecimal) }
            }
            if byte(pos) | 0x20 == 0x65 {
                let sign = byte(pos + 1) == 0x2B || byte(pos + 1) == 0x2D ? 1 : 0
                if isDecimal(byte(pos + 1 + sign)) {
                    fraction = true
                    pos += 1 + sign
                    try digits(isDecimal)
                } else {
                    throw error(.invalidNumber, "missing exponent digits", at: pos)
                }
            }
            if !fraction && byte(pos) == 0x6E {
                bigint = true
                pos += 1
            }
        }
        if pos < bytes.count {
            let (value, _) = scalar(at: pos)
            if JavaScriptLexer.isIdentifierStart(value) || isDecimal(bytes[pos]) || bytes[pos] == 0x5C {
                throw error(.invalidNumber, "identifier starts immediately after a number", at: pos)
            }
        }
        return JSToken(
            kind: bigint ? .bigint : .number, text: String(decoding: bytes[start..<pos], as: UTF8.self), start: start,
            end: pos, newlineBefore: false)
    }

    // MARK: Strings and templates

    /// A `'` or `"` string at `pos`, decoded.
    mutating func scanString(quote: UInt8) throws -> JSToken {
        let start = pos
        pos += 1
        var plain = true
        var i = pos
        while i < bytes.count && bytes[i] != quote && bytes[i] != 0x5C && bytes[i] != 0x0A && bytes[i] != 0x0D { i += 1 }
        if i < bytes.count && bytes[i] == quote {
            let text = String(decoding: bytes[pos..<i], as: UTF8.self)
            pos = i + 1
            return JSToken(kind: .string, text: text, start: start, end: pos, newlineBefore: false)
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: String(decoding: bytes[pos..<i], as: UTF8.self).unicodeScalars)
        pos = i
        while true {
            guard pos < bytes.count, bytes[pos] != 0x0A, bytes[pos] != 0x0D else {
                throw error(.unterminatedString, "unterminated string literal", at: start)
            }
            let c = bytes[pos]
            if c == quote {
                pos += 1
                break
            }
            if c == 0x5C {
                plain = false
                pos += 1
                if let value = try scanEscape(inTemplate: false) { out.append(value) }
                continue
            }
            let (value, length) = scalar(at: pos)
            out.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            pos += length
        }
        _ = plain
        return JSToken(kind: .string, text: String(out), start: start, end: pos, newlineBefore: false)
    }

    /// The character an escape after `\` at `pos` stands for; nil for a line continuation. A
    /// surrogate pair of `\u` escapes gives one scalar; a lone surrogate gives U+FFFD.
    mutating func scanEscape(inTemplate: Bool) throws -> Unicode.Scalar? {
        let escapeStart = pos - 1
        guard pos < bytes.count else { throw error(.unterminatedString, "unterminated string literal", at: escapeStart) }
        let c = bytes[pos]
        let terminator = lineTerminatorLength(at: pos)
        if terminator > 0 {
            pos += terminator
            return nil
        }
        pos += 1
        switch c {
        case 0x6E: return "\n"
        case 0x74: return "\t"
        case 0x72: return "\r"
        case 0x62: return "\u{08}"
        case 0x66: return "\u{0C}"
        case 0x76: return "\u{0B}"
        case 0x30 where !(byte(pos) >= 0x30 && byte(pos) <= 0x39): return "\u{0}"
        case 0x78:
            guard let high = JavaScriptLexer.hexValue(byte(pos)), let low = JavaScriptLexer.hexValue(byte(pos + 1)) else {
                throw error(.invalidEscape, "invalid \\x escape", at: escapeStart)
            }
            pos += 2
            return Unicode.Scalar(UInt8(high * 16 + low))
        case 0x75:
            guard let value = try scanUnicodeEscapeValue() else {
                throw error(.invalidEscape, "invalid \\u escape", at: escapeStart)
            }
            if value >= 0xD800 && value <= 0xDBFF && byte(pos) == 0x5C && byte(pos + 1) == 0x75 {
                let save = pos
                pos += 2
                if let low = try scanUnicodeEscapeValue(), low >= 0xDC00 && low <= 0xDFFF {
                    return Unicode.Scalar(0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00))
                }
                pos = save
            }
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        case 0x30...0x37:
            // Legacy octal escape (sloppy-mode strings); templates forbid it.
            if inTemplate { throw error(.invalidEscape, "octal escape in a template", at: escapeStart) }
            var value = UInt32(c - 0x30)
            let maxDigits = c <= 0x33 ? 2 : 1
            var taken = 0
            while taken < maxDigits, byte(pos) >= 0x30 && byte(pos) <= 0x37 {
                value = value * 8 + UInt32(byte(pos) - 0x30)
                pos += 1
                taken += 1
            }
            return Unicode.Scalar(value)
        case 0x38, 0x39:
            if inTemplate { throw error(.invalidEscape, "\\8 and \\9 are not allowed in a template", at: escapeStart) }
            return Unicode.Scalar(c)
        default:
            pos -= 1
            let (value, length) = scalar(at: pos)
            pos += length
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        }
    }

    /// A template part from `pos` (just after `` ` `` or `}`) up to `${` or the closing `` ` ``.
    mutating func scanTemplate(from start: Int) throws -> JSToken {
        var out = String.UnicodeScalarView()
        var invalid = false
        while true {
            guard pos < bytes.count else {
                throw error(.unterminatedTemplate, "unterminated template literal", at: start)
            }
            let c = bytes[pos]
            if c == 0x60 {
                pos += 1
                var token = JSToken(
                    kind: .template, text: String(out), start: start, end: pos, newlineBefore: false)
                token.templateTail = true
                token.cookedInvalid = invalid
                return token
            }
            if c == 0x24 && byte(pos + 1) == 0x7B {
                pos += 2
                var token = JSToken(kind: .template, text: String(out), start: start, end: pos, newlineBefore: false)
                token.cookedInvalid = invalid
                return token
            }
            if c == 0x5C {
                pos += 1
                let save = pos
                do {
                    if let value = try scanEscape(inTemplate: true) { out.append(value) }
                } catch let failure as JavaScriptSyntaxError where failure.code == .invalidEscape {
                    // Tagged templates allow any escape (the cooked value is then undefined).
                    invalid = true
                    pos = save
                    if pos < bytes.count { pos += scalar(at: pos).length }
                }
                continue
            }
            if c == 0x0D {
                // Line terminators in templates read as LF.
                out.append("\n")
                pos += byte(pos + 1) == 0x0A ? 2 : 1
                continue
            }
            let (value, length) = scalar(at: pos)
            out.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            pos += length
        }
    }

    /// The template part after the `}` of a substitution (the token `brace`).
    mutating func rescanTemplateContinuation(_ brace: JSToken) throws -> JSToken {
        pos = brace.start + 1
        scanned += 1
        var token = try scanTemplate(from: brace.start)
        token.newlineBefore = brace.newlineBefore
        return token
    }

    // MARK: Regular expressions

    /// The token `slash` (`/` or `/=`) read again as the start of a regex literal.
    mutating func rescanRegex(_ slash: JSToken) throws -> JSToken {
        let start = slash.start
        pos = start + 1
        scanned += 1
        var inClass = false
        while true {
            guard pos < bytes.count, !isLineTerminator(at: pos) else {
                throw error(.unterminatedRegex, "unterminated regular expression", at: start)
            }
            let c = bytes[pos]
            if c == 0x5C {
                pos += 1
                guard pos < bytes.count, !isLineTerminator(at: pos) else {
                    throw error(.unterminatedRegex, "unterminated regular expression", at: start)
                }
                pos += scalar(at: pos).length
                continue
            }
            if c == 0x5B {
                inClass = true
            } else if c == 0x5D {
                inClass = false
            } else if c == 0x2F && !inClass {
                break
            }
            pos += c < 0x80 ? 1 : scalar(at: pos).length
        }
        let pattern = String(decoding: bytes[(start + 1)..<pos], as: UTF8.self)
        pos += 1
        while pos < bytes.count, JavaScriptLexer.isIdentifierPart(scalar(at: pos).value) { pos += scalar(at: pos).length }
        return JSToken(kind: .regex, text: pattern, start: start, end: pos, newlineBefore: slash.newlineBefore)
    }

    /// The source text of `start..<end`.
    func source(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[max(0, start)..<min(bytes.count, max(start, end))], as: UTF8.self)
    }
}
