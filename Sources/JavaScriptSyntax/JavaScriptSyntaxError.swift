/// A JavaScript or TypeScript file could not be tokenised or parsed, or hit one of the parser's bounds.
///
/// Thrown by ``JavaScriptParser``; never a crash. `description` is one line: `file:line:col: message`.
public struct JavaScriptSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem was found.
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// Stable kebab-case identifier, suitable for machine-readable reports.
        public var rawValue: String
        /// Creates a code; the static members below are the ones the parser throws.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The raw value.
        public var description: String { rawValue }

        /// A token that the grammar does not allow here.
        public static let unexpectedToken = Code(rawValue: "unexpected-token")
        /// The file ended inside a construct.
        public static let unexpectedEndOfFile = Code(rawValue: "unexpected-eof")
        /// A string literal is not closed before the end of its line.
        public static let unterminatedString = Code(rawValue: "unterminated-string")
        /// A template literal is not closed.
        public static let unterminatedTemplate = Code(rawValue: "unterminated-template")
        /// A regular expression literal is not closed before the end of its line.
        public static let unterminatedRegex = Code(rawValue: "unterminated-regex")
        /// A `/*` comment is not closed.
        public static let unterminatedComment = Code(rawValue: "unterminated-comment")
        /// A JSX element, attribute or expression container is not closed, or closed by the wrong tag.
        public static let invalidJSX = Code(rawValue: "invalid-jsx")
        /// A byte that cannot start any token, or that is not UTF-8.
        public static let invalidCharacter = Code(rawValue: "invalid-character")
        /// A malformed numeric literal.
        public static let invalidNumber = Code(rawValue: "invalid-number")
        /// A malformed escape in a string or identifier.
        public static let invalidEscape = Code(rawValue: "invalid-escape")
        /// An expression that cannot be assigned to or destructured.
        public static let invalidTarget = Code(rawValue: "invalid-target")
        /// Nesting deeper than ``JavaScriptParser/maximumNestingDepth``, or a chain of operators, calls
        /// or members longer than ``JavaScriptParser/maximumChainLength``.
        public static let nestingTooDeep = Code(rawValue: "nesting-too-deep")
        /// The file is larger than ``JavaScriptParser/maximumSourceBytes``.
        public static let fileTooLarge = Code(rawValue: "file-too-large")
        /// The ambiguities of the file (arrow functions, generic calls) needed more re-reading than the
        /// parser allows per byte: the bound that keeps parsing linear in the input.
        public static let tooAmbiguous = Code(rawValue: "too-ambiguous")
    }

    /// The kind of problem.
    public var code: Code
    /// The file name given to the parser.
    public var file: String
    /// 1-based line of the problem.
    public var line: Int
    /// 1-based column (UTF-8 bytes) of the problem.
    public var column: Int
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, file: String, line: Int, column: Int, message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:col: message`, always one line.
    public var description: String {
        let flat = String(message.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
        return "\(file):\(line):\(column): \(flat)"
    }
}
