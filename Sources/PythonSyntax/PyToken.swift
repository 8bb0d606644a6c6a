/// Token categories produced by ``PythonLexer``.
enum PyTokenKind: UInt8, Sendable {
    /// Identifier or keyword (keywords are resolved by the parser, since some are soft).
    case name
    case number
    /// Any string literal, `text` is its full source including prefix and quotes.
    case string
    /// Operator or delimiter, `text` is its spelling.
    case op
    case newline
    case indent
    case dedent
    case end
}

/// One token with its source span.
struct PyToken: Sendable {
    var kind: PyTokenKind
    var text: String
    var start: SourceLocation
    var end: SourceLocation

    /// Whether this is the operator or keyword spelled `s`.
    @inline(__always) func `is`(_ s: String) -> Bool {
        (kind == .op || kind == .name) && text == s
    }
}

/// A `#` comment, kept beside the tree for suppressions (`# nosec`, `# sentinel: ignore[...]`).
public struct PyComment: Sendable, Hashable {
    /// The comment text including the leading `#`, without the line break.
    public var text: String
    /// Where the comment is.
    public var range: SourceRange
    /// Whether code precedes the comment on its line (a trailing comment applies to that line only).
    public var isTrailing: Bool

    /// Creates a comment record.
    public init(text: String, range: SourceRange, isTrailing: Bool) {
        self.text = text
        self.range = range
        self.isTrailing = isTrailing
    }
}
