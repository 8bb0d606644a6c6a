import Support

/// A `#` comment, kept beside the tree for suppressions (`# nosec`, `# sentinel: ignore[...]`).
public struct PyComment: Sendable, Hashable {
    /// The comment text including the leading `#`, without the line break.
    public var text: String
    /// Where the comment is.
    public var range: SourceRange
    /// Whether code precedes the comment on its line (a trailing comment applies to that line only).
    public var isTrailing: Bool
    /// Byte offset of its `#` in the file's bytes.
    public var offset: Int

    /// Creates a comment record.
    public init(text: String, range: SourceRange, isTrailing: Bool, offset: Int = 0) {
        self.text = text
        self.range = range
        self.isTrailing = isTrailing
        self.offset = offset
    }

    /// Where a comment's `#` stands in `bytes`, as CPython's tokenizer reads them: a `#` inside a
    /// string literal starts none. Nil when the tokenizer does not read the bytes as they are (another
    /// codec, a NUL) or refuses them.
    public static func offsets(in bytes: [UInt8]) -> Set<Int>? {
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard !bytes.contains(0), case .asIs? = try? PySourceEncoding.decode(bytes, start: bom, fileName: "") else { return nil }
        return try? LargeStack.run {
            var lexer = PythonLexer(bytes: bytes, file: "", allowMetavariables: false, start: bom, dialect: .python3)
            return Set(try lexer.run().1.map(\.offset))
        }
    }
}
