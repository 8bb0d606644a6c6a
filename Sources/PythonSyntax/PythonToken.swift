/// One token of Python source with its exact span, for tools that edit source in place: a repair
/// that swaps `<` for `<=` rewrites that token's bytes and leaves every other byte as it was.
public struct PythonToken: Sendable, Hashable {
    /// Token categories, as CPython's tokenizer has them (keywords are names).
    public enum Kind: Sendable, Hashable {
        /// An identifier or keyword.
        case name
        /// A numeric literal.
        case number
        /// A whole string literal, prefix and quotes included (f-strings are one token).
        case string
        /// An operator or delimiter.
        case op
        /// The end of a logical line.
        case newline
        /// An increase of indentation.
        case indent
        /// A decrease of indentation.
        case dedent
        /// The end of the input.
        case end
    }

    /// What the token is.
    public var kind: Kind
    /// Its spelling in the source (empty for newline, indent, dedent and end).
    public var text: String
    /// Where it is; offsets are UTF-8 byte offsets into the source.
    public var range: SourceRange

    /// A token of `kind` spelled `text` at `range`.
    public init(kind: Kind, text: String, range: SourceRange) {
        self.kind = kind
        self.text = text
        self.range = range
    }
}

extension PythonParser {
    /// The tokens of `source` in order, ending with an ``PythonToken/Kind/end`` token; comments
    /// are not tokens.
    /// - Throws: ``PythonSyntaxError`` when the source cannot be tokenised.
    public static func tokenize(source: String, fileName: String) throws -> [PythonToken] {
        let bytes = Array(source.utf8)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var lexer = PythonLexer(bytes: bytes, file: fileName, allowMetavariables: false, start: start)
        return try lexer.run().0
    }
}

extension PythonToken {
    /// Where the token starts.
    var start: SourceLocation { range.start }
    /// Where the token ends.
    var end: SourceLocation { range.end }

    /// The text when it can be a keyword or an operator (at most 15 bytes: a string stored inline),
    /// otherwise empty: the parser's `switch`es compare names with keywords, and a long name
    /// compared with each takes the slow comparison.
    @inline(__always) var word: String { text.utf8.count <= 15 ? text : "" }

    /// Whether this is the operator or keyword spelled `s`.
    @inline(__always) func `is`(_ s: String) -> Bool {
        // Lengths first: an inline string's is in its bits, and most tokens asked are another
        // word of another length, rejected without the comparison call.
        (kind == .op || kind == .name) && text.utf8.count == s.utf8.count && text == s
    }
}
