/// Splits a template into ``TemplateToken``s the way Jinja2 and Django delimit them: `{{ }}`,
/// `{% %}`, `{# #}`, with `{%- -%}` whitespace control, and `{% raw %}` / `{% verbatim %}` (and
/// Django's `{% comment %}`) bodies kept as they are. Total: any bytes give tokens that cover the
/// input in order; an opening delimiter without its closing one is text, reported as a problem.
struct TemplateLexer {
    private let bytes: [UInt8]
    /// For each closing delimiter, an offset from which it is known not to occur again: an
    /// unterminated `{{` is searched for once, not once per opening (linear on hostile input).
    private var noCloseFrom: [UInt8: Int] = [:]
    private(set) var tokens: [TemplateToken] = []
    private(set) var problems: [TemplateProblem] = []
    /// Closing delimiters already reported missing: once one is, every later opening of that kind
    /// is unterminated too, and one problem says it.
    private var reported: Set<UInt8> = []

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Tokenizes the whole input, stopping (with a problem) after `maxTokens` tokens.
    mutating func run(maxTokens: Int) {
        var textStart = 0
        var i = 0
        let open = UInt8(ascii: "{")
        while i + 1 < bytes.count {
            guard bytes[i] == open, let close = Self.closer(of: bytes[i + 1]) else {
                i += 1
                continue
            }
            guard let end = find(close, from: i + 2) else {
                if reported.insert(close).inserted {
                    problems.append(TemplateProblem(offset: i, message: "unterminated \(Self.text(open, bytes[i + 1]))"))
                }
                i += 2
                continue
            }
            if tokens.count >= maxTokens {
                problems.append(
                    TemplateProblem(
                        offset: i, message: "more than \(maxTokens) template tokens; the rest is not analysed", isBound: true))
                textStart = bytes.count
                break
            }
            if textStart < i { tokens.append(TemplateToken(kind: .text, range: textStart..<i, inner: textStart..<i)) }
            let inner = trimmed((i + 2)..<end)
            let kind: TemplateToken.Kind = close == UInt8(ascii: "}") ? .output : close == UInt8(ascii: "%") ? .tag : .comment
            tokens.append(TemplateToken(kind: kind, range: i..<(end + 2), inner: inner))
            i = end + 2
            textStart = i
            if kind == .tag, let body = verbatimEnd(of: inner) {
                i = skipBody(from: i, ending: body.endTag, as: body.kind)
                textStart = i
            }
        }
        if textStart < bytes.count {
            tokens.append(TemplateToken(kind: .text, range: textStart..<bytes.count, inner: textStart..<bytes.count))
        }
    }

    /// The byte that, doubled with `}`, closes the delimiter opened by `{` and `second`.
    private static func closer(of second: UInt8) -> UInt8? {
        switch second {
        case UInt8(ascii: "{"): UInt8(ascii: "}")
        case UInt8(ascii: "%"): UInt8(ascii: "%")
        case UInt8(ascii: "#"): UInt8(ascii: "#")
        default: nil
        }
    }

    private static func text(_ a: UInt8, _ b: UInt8) -> String { String(decoding: [a, b], as: UTF8.self) }

    /// The offset of the next `close` followed by `}` at or after `from`.
    private mutating func find(_ close: UInt8, from: Int) -> Int? {
        if let known = noCloseFrom[close], known <= from { return nil }
        var j = from
        while j + 1 < bytes.count {
            if bytes[j] == close && bytes[j + 1] == UInt8(ascii: "}") { return j }
            j += 1
        }
        noCloseFrom[close] = from
        return nil
    }

    /// `range` without surrounding whitespace and whitespace-control marks.
    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        if lower < upper, bytes[lower] == UInt8(ascii: "-") || bytes[lower] == UInt8(ascii: "+") { lower += 1 }
        if upper > lower, bytes[upper - 1] == UInt8(ascii: "-") || bytes[upper - 1] == UInt8(ascii: "+") { upper -= 1 }
        while lower < upper, Self.isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, Self.isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == 12 }

    /// For `raw`, `verbatim` and `comment` tags: the tag that ends the body and what the body is.
    private func verbatimEnd(of inner: Range<Int>) -> (endTag: String, kind: TemplateToken.Kind)? {
        let name = TemplateText.firstWord(bytes, inner)
        switch name {
        // `{% raw %}` alone: Tornado's `{% raw expr %}` is an unescaped output, not a block.
        case "raw": return inner.count == 3 ? ("endraw", .text) : nil
        case "verbatim": return ("endverbatim", .text)
        case "comment": return ("endcomment", .comment)
        default: return nil
        }
    }

    /// Emits the body up to `{% endTag %}` as one token and the end tag; returns the offset after
    /// it. Without an end tag the rest of the input is the body (a problem).
    private mutating func skipBody(from start: Int, ending endTag: String, as kind: TemplateToken.Kind) -> Int {
        var j = start
        while j + 1 < bytes.count {
            if bytes[j] == UInt8(ascii: "{") && bytes[j + 1] == UInt8(ascii: "%"), let end = find(UInt8(ascii: "%"), from: j + 2) {
                let inner = trimmed((j + 2)..<end)
                if TemplateText.firstWord(bytes, inner) == endTag {
                    if start < j { tokens.append(TemplateToken(kind: kind, range: start..<j, inner: start..<j)) }
                    tokens.append(TemplateToken(kind: .tag, range: j..<(end + 2), inner: inner))
                    return end + 2
                }
                j = end + 2
                continue
            }
            j += 1
        }
        problems.append(TemplateProblem(offset: start, message: "no {% \(endTag) %} before the end of the file"))
        if start < bytes.count { tokens.append(TemplateToken(kind: kind, range: start..<bytes.count, inner: start..<bytes.count)) }
        return bytes.count
    }
}

/// Something the tokenizer could not read as a template would: reported, never fatal.
public struct TemplateProblem: Sendable, Hashable {
    /// Byte offset where it starts.
    public var offset: Int
    /// What is wrong (`unterminated {{`).
    public var message: String
    /// Whether a bound stopped the analysis (the rest of the file was not read), rather than
    /// syntax the template engine would reject.
    public var isBound = false
}

/// Small byte helpers shared by the lexer and the HTML scanner.
enum TemplateText {
    /// The first word (letters, digits, `_`) of `range`, lowercased.
    static func firstWord(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        var end = range.lowerBound
        while end < range.upperBound, isWordByte(bytes[end]) { end += 1 }
        return String(decoding: bytes[range.lowerBound..<end], as: UTF8.self).lowercased()
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F
    }
}
