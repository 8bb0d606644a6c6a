/// A Python source file could not be tokenised or parsed.
///
/// Thrown by ``PythonParser``; never a crash. `description` is one line: `file:line:col: message`.
public struct PythonSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
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
        /// Indentation is inconsistent (dedent to an unknown level, missing or unexpected indent).
        public static let indentation = Code(rawValue: "indentation")
        /// A string literal is not closed.
        public static let unterminatedString = Code(rawValue: "unterminated-string")
        /// A bracket is not closed or not matched.
        public static let unbalancedBracket = Code(rawValue: "unbalanced-bracket")
        /// A byte that cannot start any token (including NUL and invalid UTF-8).
        public static let invalidCharacter = Code(rawValue: "invalid-character")
        /// A malformed numeric literal.
        public static let invalidNumber = Code(rawValue: "invalid-number")
        /// A malformed escape in a string or bytes literal (`\x4`, `\N` without a name...).
        public static let invalidEscape = Code(rawValue: "invalid-escape")
        /// A malformed f-string.
        public static let invalidFString = Code(rawValue: "invalid-fstring")
        /// An expression that cannot be assigned to, deleted, or used as a loop/with target.
        public static let invalidTarget = Code(rawValue: "invalid-target")
        /// Call arguments or parameters in an order Python forbids.
        public static let invalidArguments = Code(rawValue: "invalid-arguments")
        /// Python 2 syntax (print statement, backticks, `<>`, old octal, ...).
        public static let python2Syntax = Code(rawValue: "python2-syntax")
        /// Nesting deeper than ``PythonParser/maximumNestingDepth``.
        public static let nestingTooDeep = Code(rawValue: "nesting-too-deep")
        /// A declared source encoding this parser cannot decode as CPython would (an unknown codec,
        /// `\N{...}` under `unicode_escape`...): Python may run code that is not what the bytes show.
        public static let unsupportedEncoding = Code(rawValue: "unsupported-encoding")
    }

    /// The kind of problem.
    public var code: Code
    /// The file name given to the parser.
    public var file: String
    /// 1-based line of the problem.
    public var line: Int
    /// 1-based column (UTF-8 bytes) of the problem.
    public var column: Int
    /// What is wrong, in CPython's words where practical.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, file: String, line: Int, column: Int, message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:col: message`, always one line (reports list one failure per line).
    public var description: String {
        let flat =
            message.contains("\n") || message.contains("\r")
            ? String(message.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 }) : message
        return "\(file):\(line):\(column): \(flat)"
    }
}
