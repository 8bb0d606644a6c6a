/// A template read for analysis: its tokens, its outputs with their HTML context, its tags, and
/// the HTML elements rules look at (start tags with attributes; forms and scripts with bodies).
///
/// Bounded and total: any bytes give a document; what it could not read as a template would, and a
/// bound it hit, are in `problems` (never silent).
public struct TemplateDocument: Sendable {
    /// The template's bytes.
    public let bytes: [UInt8]
    /// The template's pieces, in order, covering the input up to a bound.
    public let tokens: [TemplateToken]
    /// Every `{{ ... }}`, in order.
    public let outputs: [TemplateOutput]
    /// Every `{% ... %}`, in order.
    public let tags: [TemplateTag]
    /// HTML start tags, in order.
    public let elements: [HTMLElement]
    /// HTML comments (`<!-- ... -->`), delimiters included.
    public let htmlComments: [Range<Int>]
    /// What could not be read as expected, and bounds hit.
    public let problems: [TemplateProblem]
    private let lineStarts: [Int]

    /// At most this many template tokens and HTML elements are read; the rest is reported.
    public static let maxConstructs = 200_000

    /// Reads `bytes` as a Jinja2/Django template in HTML.
    public init(bytes: [UInt8], maxConstructs: Int = Self.maxConstructs) {
        self.bytes = bytes
        var lexer = TemplateLexer(bytes)
        lexer.run(maxTokens: maxConstructs)
        var html = HTMLScanner(bytes: bytes, maxElements: maxConstructs)
        html.run(lexer.tokens)
        tokens = lexer.tokens
        outputs = html.outputs
        tags = html.tags
        elements = html.elements
        htmlComments = html.comments
        problems = (lexer.problems + html.problems).sorted { $0.offset < $1.offset }
        var starts = [0]
        for (i, byte) in bytes.enumerated() where byte == 10 { starts.append(i + 1) }
        lineStarts = starts
    }

    /// The text of `range` (invalid UTF-8 repaired).
    public func text(_ range: Range<Int>) -> String {
        let clamped = max(0, min(range.lowerBound, bytes.count))..<max(0, min(range.upperBound, bytes.count))
        return String(decoding: bytes[clamped], as: UTF8.self)
    }

    /// The 1-based line and code-point column of the byte at `offset`.
    public func position(of offset: Int) -> (line: Int, column: Int) {
        let offset = max(0, min(offset, bytes.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        var column = 1
        for byte in bytes[lineStarts[low]..<offset] where byte & 0xC0 != 0x80 { column += 1 }
        return (low + 1, column)
    }

    /// The text of line `line` (1-based), without its line break.
    public func line(_ line: Int) -> String {
        guard line >= 1, line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == 13 { end -= 1 }
        return text(start..<max(start, end))
    }

    /// The number of lines.
    public var lineCount: Int { lineStarts.count }
}

/// One `{{ expression }}` and where it lands in the HTML.
public struct TemplateOutput: Sendable, Hashable {
    /// The whole output, delimiters included.
    public var range: Range<Int>
    /// The expression (filters included), without delimiters.
    public var expression: Range<Int>
    /// The HTML context.
    public var context: OutputContext
    /// The attribute it is in (lowercased), if any.
    public var attribute: String?
    /// False inside `{% autoescape off %}` (Django) / `{% autoescape false %}` (Jinja2).
    public var autoescaped: Bool
}

/// One `{% name arguments %}`.
public struct TemplateTag: Sendable, Hashable {
    /// The whole tag, delimiters included.
    public var range: Range<Int>
    /// Name and arguments, without delimiters.
    public var content: Range<Int>
    /// The tag's name, lowercased (`autoescape`, `csrf_token`).
    public var name: String
}

/// One HTML start tag.
public struct HTMLElement: Sendable, Hashable {
    /// The element name, lowercased.
    public var name: String
    /// The start tag, `<` to `>` (to the end of the input when it never closes).
    public var range: Range<Int>
    /// Attributes in order: lowercased name and the value's bytes (nil for a bare attribute).
    public var attributes: [HTMLAttribute]
    /// For `form`, `script` and `style`: the content up to the end tag (to the end of the input
    /// when there is none); nil for other elements.
    public var body: Range<Int>?

    /// The first attribute named `name` (lowercase).
    public func attribute(_ name: String) -> HTMLAttribute? { attributes.first { $0.name == name } }
}

/// One attribute of a start tag.
public struct HTMLAttribute: Sendable, Hashable {
    /// The name, lowercased.
    public var name: String
    /// The value's bytes without quotes; nil for a bare attribute (`disabled`).
    public var value: Range<Int>?
}
