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
