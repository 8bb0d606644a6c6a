import Support

/// A parsed Python file: the tree and the comments beside it.
public struct PythonModule: Sendable, Hashable {
    /// The ``SyntaxKind/module`` node.
    public var root: SyntaxNode
    /// Every `#` comment in source order (the suppression engine reads these).
    public var comments: [PyComment]
    /// The file name given to the parser (used in error messages and findings).
    public var fileName: String
    /// Number of lines in the source.
    public var lineCount: Int
    /// The grammar the file was read with.
    public var dialect: PythonDialect = .python3
    /// Why the Python 3 grammar could not read it, when ``dialect`` is ``PythonDialect/python2``.
    public var python3Failure: PythonSyntaxError?
}

/// Entry points of the Python 3.12 parser.
///
/// A hand-written tokenizer over UTF-8 bytes and a recursive-descent parser with precedence climbing
/// for binary operators. Errors are thrown as ``PythonSyntaxError``; nesting is capped at
/// ``maximumNestingDepth`` so hostile input cannot exhaust the stack.
public enum PythonParser {
    /// Deepest nesting of brackets, unary operators and blocks accepted (CPython's tokenizer allows 200
    /// levels of parentheses).
    public static let maximumNestingDepth = 200

    /// Parses a whole module.
    /// - Throws: ``PythonSyntaxError`` when the source is not valid Python 3.
    public static func parseModule(source: String, fileName: String) throws -> PythonModule {
        try parse(bytes: Array(source.utf8), fileName: fileName, pattern: false)
    }

    /// Parses a whole module held as raw bytes, decoded as its PEP 263 `coding:` cookie says (UTF-8 by
    /// default; undecodable bytes are rejected as CPython does).
    /// - Throws: ``PythonSyntaxError``.
    public static func parseModule(bytes: [UInt8], fileName: String) throws -> PythonModule {
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        switch try PySourceEncoding.decode(bytes, start: bom, fileName: fileName) {
        case .asIs: return try parse(bytes: bytes, fileName: fileName, pattern: false)
        case .transcoded(let utf8): return try parse(bytes: utf8, fileName: fileName, pattern: false)
        case .invalidUTF8(let lines):
            guard let module = try? parse(bytes: bytes, fileName: fileName, pattern: false),
                PySourceEncoding.invalidOnlyInComments(bytes, lines: lines, comments: module.comments)
            else { throw PySourceEncoding.invalidUTF8Error(bytes, lines: lines, fileName: fileName) }
            return module
        }
    }

    /// Parses a rule pattern: an expression, or one or more statements.
    ///
    /// Metavariables `$X` and `$...X` are identifiers and `...` stands anywhere an expression,
    /// argument, parameter or statement may. A lone expression statement is returned as the expression
    /// itself; a single statement as that statement; several as a ``SyntaxKind/module``.
    /// - Throws: ``PythonSyntaxError`` naming `<pattern>` as the file.
    public static func parsePattern(_ pattern: String) throws -> SyntaxNode {
        let module = try parse(bytes: dedent(pattern), fileName: "<pattern>", pattern: true)
        let statements = module.root.children
        if statements.count == 1 {
            let only = statements[0]
            if only.kind == .exprStmt, let expr = only.children.first { return expr }
            return only
        }
        return module.root
    }

    /// Patterns come from YAML block scalars, often indented as a whole: ``PatternText/dedent(_:)``,
    /// which every language's patterns go through.
    public static func dedent(_ pattern: String) -> [UInt8] { PatternText.dedent(pattern) }

    static func parse(
        bytes: [UInt8], fileName: String, pattern: Bool, dialect: PythonDialect = .python3
    ) throws -> PythonModule {
        try LargeStack.run {
            try parseOnCurrentThread(bytes: bytes, fileName: fileName, pattern: pattern, dialect: dialect)
        }
    }

    /// Parses as Python 3, and when that fails on Python 2 syntax (``PythonSyntaxError/Code/python2Syntax``),
    /// with the Python 2 dialect: the module's ``PythonModule/dialect`` and
    /// ``PythonModule/python3Failure`` say so. On the calling thread, like ``parseOnCurrentThread(bytes:fileName:pattern:dialect:)``.
    /// - Throws: the Python 3 ``PythonSyntaxError`` when neither grammar reads the file.
    public static func parseAnyDialectOnCurrentThread(bytes: [UInt8], fileName: String) throws -> PythonModule {
        do {
            return try parseOnCurrentThread(bytes: bytes, fileName: fileName, pattern: false)
        } catch let python3 as PythonSyntaxError where python3.code == .python2Syntax {
            guard var module = try? parseOnCurrentThread(bytes: bytes, fileName: fileName, pattern: false, dialect: .python2)
            else { throw python3 }
            module.python3Failure = python3
            return module
        }
    }

    /// Parses on the calling thread, for a caller already on a `LargeStack` thread (deep
    /// nesting recurses deeply). `pattern` accepts rule-pattern syntax (`...`, `$X`).
    public static func parseOnCurrentThread(
        bytes: [UInt8], fileName: String, pattern: Bool, dialect: PythonDialect = .python3
    ) throws -> PythonModule {
        var start = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        // CPython refuses a NUL anywhere, inside string literals and comments too.
        if let zero = bytes.firstIndex(of: 0) {
            let (line, column) = PythonLexer.lineColumn(of: zero, in: bytes, from: 0, line: 1)
            throw PythonSyntaxError(
                .invalidCharacter, file: fileName, line: line, column: column,
                message: "source code cannot contain null bytes")
        }
        var lexer = PythonLexer(
            bytes: bytes, file: fileName, allowMetavariables: pattern, start: start, dialect: dialect)
        let (tokens, comments) = try lexer.run()
        var parser = PyParser(bytes: bytes, tokens: tokens, file: fileName, patternMode: pattern, dialect: dialect)
        let root = try parser.parseFile()
        var lines = 0
        for c in bytes where c == 10 { lines += 1 }
        if let last = bytes.last, last != 10 { lines += 1 }
        return PythonModule(root: root, comments: comments, fileName: fileName, lineCount: lines, dialect: dialect)
    }
}

/// Recursive-descent parser state over a token array. One instance per file (and per f-string field).
struct PyParser {
    let b: [UInt8]
    let toks: [PythonToken]
    let file: String
    let patternMode: Bool
    /// Python 2's statements and literals are read too (``PythonDialect/python2``).
    let python2: Bool
    /// `from __future__ import print_function` was seen: `print` is a name again.
    var printIsFunction = false
    /// Tuple parameters of the `def` being parsed, as `(a, b) = .0` assignments for its body.
    var tupleParameterUnpacking: [SyntaxNode] = []
    var p = 0
    var depth = 0
    /// Links of left-nested chains (`a+b+c`, `a.b.c()`, `elif`) open on the current path; they deepen
    /// the tree without recursing here, but later walks recurse, so they are capped too.
    var chainLinks = 0

    init(
        bytes: [UInt8], tokens: [PythonToken], file: String, patternMode: Bool, depth: Int = 0,
        dialect: PythonDialect = .python3
    ) {
        self.b = bytes
        self.toks = tokens
        self.file = file
        self.patternMode = patternMode
        self.python2 = dialect == .python2
        self.depth = depth
    }

    /// Reserved words that can never be identifiers (`match`, `case`, `type`, `_` are soft).
    static let keywords: Set<String> = [
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
        "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
        "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
    ]

    /// The shortest and the longest keyword's length.
    static let keywordLengths = keywords.map(\.utf8.count).min()!...keywords.map(\.utf8.count).max()!

    /// Words Python 3 reserves that Python 2 code uses as names (`async = False`, `xmlrpclib.True`).
    static let python2Names: Set<String> = ["async", "await", "nonlocal", "True", "False"]

    /// Whether `word` is reserved in this parser's dialect.
    @inline(__always) func isReserved(_ word: String) -> Bool {
        // Most names are longer or shorter than every keyword: rejected before any hashing.
        PyParser.keywordLengths.contains(word.utf8.count) && PyParser.keywords.contains(word)
            && !(python2 && PyParser.python2Names.contains(word))
    }

    // MARK: Token access

    @inline(__always) var tok: PythonToken { toks[p] }
    @inline(__always) func peek(_ n: Int) -> PythonToken { toks[min(p + n, toks.count - 1)] }
    @inline(__always) func at(_ s: String) -> Bool { toks[p].is(s) }
    @inline(__always) var lastEnd: SourceLocation { p > 0 ? toks[p - 1].end : toks[0].start }

    @inline(__always) mutating func advance() {
        if p < toks.count - 1 { p += 1 }
    }

    @inline(__always) mutating func accept(_ s: String) -> Bool {
        if toks[p].is(s) {
            advance()
            return true
        }
        return false
    }

    mutating func expect(_ s: String) throws {
        guard accept(s) else { throw error(expected: "'\(s)'") }
    }

    /// Consumes an identifier that is not a reserved word.
    mutating func expectName() throws -> String {
        let t = tok
        guard t.kind == .name, !isReserved(t.text) else { throw error(expected: "a name") }
        advance()
        return t.text
    }

    /// Whether the current token is a name usable as an identifier.
    var atIdentifier: Bool { tok.kind == .name && !isReserved(tok.text) }

    // MARK: Node construction

    /// Builds a node ending at `end` (pass `lastEnd` last: arguments are evaluated left to right,
    /// so it is read after the children were parsed; a method on `self` would see a stale copy).
    @inline(__always) static func node(
        _ kind: SyntaxKind, _ text: String? = nil, _ children: [SyntaxNode] = [], from start: SourceLocation,
        raw: String? = nil, end: SourceLocation
    ) -> SyntaxNode {
        SyntaxNode(kind, text: text, children: children, range: SourceRange(start: start, end: end), raw: raw)
    }

    /// A zero-width ``SyntaxKind/empty`` at the current token.
    var empty: SyntaxNode { SyntaxNode(.empty, range: SourceRange(start: tok.start, end: tok.start)) }

    // MARK: Errors and depth

    func error(_ message: String, _ code: PythonSyntaxError.Code = .unexpectedToken, at t: PythonToken? = nil)
        -> PythonSyntaxError
    {
        let t = t ?? tok
        return PythonSyntaxError(code, file: file, line: t.start.line, column: t.start.column, message: message)
    }

    func error(_ message: String, _ code: PythonSyntaxError.Code = .unexpectedToken, at loc: SourceLocation)
        -> PythonSyntaxError
    {
        PythonSyntaxError(code, file: file, line: loc.line, column: loc.column, message: message)
    }

    /// "invalid syntax" at the current token, specialised for end of file and indentation tokens.
    func error(expected: String) -> PythonSyntaxError {
        switch tok.kind {
        case .end: return error("unexpected EOF while parsing (expected \(expected))", .unexpectedEndOfFile)
        case .indent: return error("unexpected indent", .indentation)
        case .dedent: return error("unindent where \(expected) was expected", .indentation)
        case .newline: return error("invalid syntax: expected \(expected) before end of line")
        case .name where !python2 && PyParser.python2Names.contains(tok.text):
            // `async = False`, `xmlrpclib.True`: names in Python 2.
            return error(
                "invalid syntax: expected \(expected), found \(PyParser.describe(tok)) (a name in Python 2)", .python2Syntax)
        default: return error("invalid syntax: expected \(expected), found \(PyParser.describe(tok))")
        }
    }

    /// A short, single-line description of a token for messages.
    static func describe(_ t: PythonToken) -> String {
        switch t.kind {
        case .string: return "a string literal"
        case .number: return "number \(t.text.prefix(20))"
        case .name: return keywords.contains(t.text) ? "keyword '\(t.text)'" : "name '\(t.text.prefix(40))'"
        default: return "'\(t.text)'"
        }
    }

    mutating func enter() throws {
        depth += 1
        if depth > PythonParser.maximumNestingDepth {
            throw error(
                "too many nested parentheses, blocks or operators (limit \(PythonParser.maximumNestingDepth))",
                .nestingTooDeep)
        }
    }

    @inline(__always) mutating func leave() { depth -= 1 }

    /// Highest total of chain links on one path (keeps every tree shallower than a few thousand levels).
    static let maximumChainLinks = 3000

    mutating func link() throws {
        chainLinks += 1
        if chainLinks > PyParser.maximumChainLinks {
            throw error("expression chain too long (limit \(PyParser.maximumChainLinks))", .nestingTooDeep)
        }
    }

    // MARK: File

    mutating func parseFile() throws -> SyntaxNode {
        let start = tok.start
        var stmts: [SyntaxNode] = []
        while tok.kind != .end {
            if tok.kind == .newline {
                advance()
                continue
            }
            if tok.kind == .indent { throw error("unexpected indent", .indentation) }
            try statement(into: &stmts)
        }
        return SyntaxNode(.module, children: stmts, range: SourceRange(start: start, end: tok.end))
    }
}
