import Web

/// A light JavaScript lexer: at any byte of a script it tells code from a string (and its
/// delimiter), a template literal, a comment or a regular expression literal. Regex-versus-
/// division is guessed from the previous token, as tools without a full parser do; strings and
/// line comments end at a newline, so a wrong guess does not spread past its line.
struct JSScanner {
    /// Where the scanner is.
    enum State: Sendable, Equatable {
        case code
        /// Inside a `'` or `"` string.
        case string(UInt8)
        /// Inside a template literal's text (not its `${...}`).
        case template
        case lineComment
        case blockComment
        /// Inside a regular expression literal (`inClass`: within `[...]`).
        case regex(inClass: Bool)
    }

    /// The deepest `${` nesting tracked.
    private static let maxTemplateDepth = 64

    private(set) var state: State = .code
    private var braces = 0
    /// Brace depths at which open `${` substitutions return to their template.
    private var templateBraces: [Int] = []
    /// The last byte of the previous significant code token, and where the last word lies.
    private var previous: UInt8 = 0
    private var word: Range<Int> = 0..<0

    /// Consumes the byte at `index` (two for `//`, `/*`, `*/`, `${` and escapes); returns the next index.
    mutating func step(_ bytes: [UInt8], _ index: Int) -> Int {
        let byte = bytes[index]
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        switch state {
        case .code: return code(bytes, index, byte, next)
        case .string(let quote):
            if byte == UInt8(ascii: "\\") { return index + 2 }
            if byte == quote || byte == 0x0A {
                state = .code
                previous = quote
            }
        case .template:
            if byte == UInt8(ascii: "\\") { return index + 2 }
            if byte == UInt8(ascii: "`") {
                state = .code
                previous = byte
            } else if byte == UInt8(ascii: "$"), next == UInt8(ascii: "{"), templateBraces.count < Self.maxTemplateDepth {
                templateBraces.append(braces)
                braces += 1
                state = .code
                previous = UInt8(ascii: "{")
                return index + 2
            }
        case .lineComment:
            if byte == 0x0A || byte == 0x0D { state = .code }
        case .blockComment:
            if byte == UInt8(ascii: "*"), next == UInt8(ascii: "/") {
                state = .code
                return index + 2
            }
        case .regex(let inClass):
            if byte == UInt8(ascii: "\\") { return index + 2 }
            if byte == 0x0A {
                state = .code
            } else if inClass {
                if byte == UInt8(ascii: "]") { state = .regex(inClass: false) }
            } else if byte == UInt8(ascii: "[") {
                state = .regex(inClass: true)
            } else if byte == UInt8(ascii: "/") {
                state = .code
                previous = UInt8(ascii: ")")
            }
        }
        return index + 1
    }

    private mutating func code(_ bytes: [UInt8], _ index: Int, _ byte: UInt8, _ next: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "'"), UInt8(ascii: "\""): state = .string(byte)
        case UInt8(ascii: "`"): state = .template
        case UInt8(ascii: "/"):
            if next == UInt8(ascii: "/") || next == UInt8(ascii: "*") {
                state = next == UInt8(ascii: "/") ? .lineComment : .blockComment
                return index + 2
            }
            if startsRegex(bytes) {
                state = .regex(inClass: false)
            } else {
                previous = byte
            }
        case UInt8(ascii: "{"):
            braces += 1
            previous = byte
        case UInt8(ascii: "}"):
            braces = max(0, braces - 1)
            if let open = templateBraces.last, open == braces {
                templateBraces.removeLast()
                state = .template
            }
            previous = byte
        case 0x20, 0x09, 0x0A, 0x0D, 0x0C: break
        default:
            if Self.isWordByte(byte) {
                if !Self.isWordByte(previous) || word.upperBound != index { word = index..<index }
                word = word.lowerBound..<(index + 1)
            }
            previous = byte
        }
        return index + 1
    }

    /// Whether a `/` in code starts a regular expression: after an operator, an opening
    /// bracket, the start, or a keyword such as `return`.
    private func startsRegex(_ bytes: [UInt8]) -> Bool {
        if previous == 0 || "(,=:[!&|?{};+-*%<>~^".utf8.contains(previous) { return true }
        guard Self.isWordByte(previous) else { return false }
        let text = String(decoding: bytes[word], as: UTF8.self)
        return Self.keywordsBeforeExpression.contains(text)
    }

    private static let keywordsBeforeExpression: Set<String> = [
        "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield",
        "await",
    ]

    private static func isWordByte(_ byte: UInt8) -> Bool {
        URLText.isAlpha(byte) || URLText.isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
            || byte >= 0x80
    }
}
