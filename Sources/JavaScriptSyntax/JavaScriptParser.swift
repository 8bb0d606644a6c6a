import Support

/// A parsed JavaScript or TypeScript file.
public struct JavaScriptProgram: Sendable, Hashable {
    /// The ``JSNodeKind/program`` node.
    public var root: JSNode
    /// The file name given to the parser (used in error messages and findings).
    public var fileName: String
    /// The grammar the file was read with.
    public var dialect: JavaScriptDialect
}

/// Entry points of the JavaScript (ES2024), JSX and TypeScript 5 parser.
///
/// A lexer driven by the parser (see ``JavaScriptLexer``) and a recursive-descent parser with
/// precedence climbing. Errors are thrown as ``JavaScriptSyntaxError``. Every bound is an error of its
/// own: nesting (``maximumNestingDepth``), operator and call chains (``maximumChainLength``), size
/// (``maximumSourceBytes``) and the re-reading the grammar's ambiguities cost (``rescanAllowancePerByte``),
/// which keeps the time linear in the input however the input is built.
public enum JavaScriptParser {
    /// Deepest nesting of brackets, blocks, functions, JSX elements and types accepted.
    public static let maximumNestingDepth = 400
    /// Longest chain of binary operators, members or calls on one path (`a + b + ...`, `a.b.c()...`):
    /// they deepen the tree without recursing here, but walks over the tree recurse.
    public static let maximumChainLength = 5000
    /// Largest source accepted, in bytes.
    public static let maximumSourceBytes = 16 << 20
    /// Tokens the lexer may scan per byte of input, read-ahead and re-reading included, plus a fixed
    /// allowance for small files.
    public static let rescanAllowancePerByte = 3

    /// Parses a file; the dialect is the file name's (``JavaScriptDialect/init(fileName:)``), and for
    /// `.vue` and `.svelte` files the `<script>` blocks are parsed in place (``ScriptBlocks``).
    /// - Throws: ``JavaScriptSyntaxError``.
    public static func parse(bytes: [UInt8], fileName: String, dialect: JavaScriptDialect? = nil) throws
        -> JavaScriptProgram
    {
        try LargeStack.run { try parseOnCurrentThread(bytes: bytes, fileName: fileName, dialect: dialect) }
    }

    /// Parses source text (see ``parse(bytes:fileName:dialect:)``).
    /// - Throws: ``JavaScriptSyntaxError``.
    public static func parse(source: String, fileName: String, dialect: JavaScriptDialect? = nil) throws
        -> JavaScriptProgram
    {
        try parse(bytes: Array(source.utf8), fileName: fileName, dialect: dialect)
    }

    /// Parses on the calling thread, for a caller already on a thread with a large stack (deep nesting
    /// recurses deeply).
    /// - Throws: ``JavaScriptSyntaxError``.
    public static func parseOnCurrentThread(bytes: [UInt8], fileName: String, dialect: JavaScriptDialect? = nil)
        throws -> JavaScriptProgram
    {
        try parseOnCurrentThread(bytes: bytes, fileName: fileName, dialect: dialect, comments: nil)
    }

    /// Parses on the calling thread, noting in `comments` where the comments the parse read start.
    static func parseOnCurrentThread(
        bytes: [UInt8], fileName: String, dialect: JavaScriptDialect?, comments: JSCommentLog?
    ) throws -> JavaScriptProgram {
        try checkSource(bytes, fileName: fileName)
        var source = bytes
        var chosen = dialect ?? JavaScriptDialect(fileName: fileName) ?? .javaScript
        if dialect == nil, let blocks = ScriptBlocks(fileName: fileName, bytes: bytes) {
            source = blocks.maskedSource
            chosen = blocks.dialect
        }
        let goal = chosen.typeScript ? .module : JavaScriptGoal(fileName: fileName)
        var parser = try JSParser(
            bytes: source, file: fileName, dialect: chosen, htmlComments: goal != .module, comments: comments)
        var root = try parser.parseProgram()
        if goal == .scriptUnlessModuleSyntax, parser.lexer.sawHTMLComment, declaresModule(root) {
            // A module after all: what was read as an HTML-like comment is code (`a <!--b` is
            // `a < !--b`), so the file is read again as Node would read it.
            // The comments noted are the module's alone.
            comments?.offsets.withLock { $0.removeAll() }
            var moduleParser = try JSParser(
                bytes: source, file: fileName, dialect: chosen, htmlComments: false, comments: comments)
            root = try moduleParser.parseProgram()
        }
        return JavaScriptProgram(root: root, fileName: fileName, dialect: chosen)
    }

    /// Whether a program declares imports or exports at its top level (only a module can).
    static func declaresModule(_ root: JSNode) -> Bool {
        root.children.contains { $0.kind == .importDeclaration || $0.kind == .exportDeclaration }
    }

    /// Refuses a source larger than ``maximumSourceBytes`` or not UTF-8.
    static func checkSource(_ bytes: [UInt8], fileName: String) throws {
        guard bytes.count <= maximumSourceBytes else {
            throw JavaScriptSyntaxError(
                .fileTooLarge, file: fileName, line: 1, column: 1,
                message: "file of \(bytes.count) bytes is larger than the parser's limit of \(maximumSourceBytes)")
        }
        if let invalid = firstInvalidUTF8(bytes) {
            let location = JSLineMap(bytes).location(invalid)
            throw JavaScriptSyntaxError(
                .invalidCharacter, file: fileName, line: location.line, column: location.column,
                message: "invalid UTF-8 byte 0x\(String(bytes[invalid], radix: 16))")
        }
    }

    /// The offset of the first byte that is not part of well-formed UTF-8, or nil.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var i = 0
        let count = bytes.count
        while i < count {
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upper = 0x9F
            case 0xF0:
                length = 4
                lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upper = 0x8F
            default: return i
            }
            guard i + length <= count else { return i }
            if bytes[i + 1] < lower || bytes[i + 1] > upper { return i }
            for k in 2..<max(2, length) where bytes[i + k] < 0x80 || bytes[i + k] > 0xBF { return i }
            i += length
        }
        return nil
    }
}

/// Recursive-descent parser state: the lexer, the current token and the grammar context.
struct JSParser {
    var lexer: JavaScriptLexer
    let lines: JSLineMap
    let file: String
    let ts: Bool
    let jsx: Bool
    /// A rule pattern: `$...X` is a name and `...` an ellipsis where nothing to spread follows it.
    let patternMode: Bool
    var tok: JSToken
    /// End offset of the last consumed token (nodes end there).
    var prevEnd = 0
    var depth = 0
    var chainLinks = 0
    /// Inside a function body (not at the top level, where `await` is an operator in modules).
    var inFunction = false
    var inAsync = false
    var inGenerator = false
    /// `in` is an operator (false in a `for (init;` head, where it would start a for-in).
    var inAllowed = true
    /// In the consequent of `?:`, where `(a): b => c` must not take `: b` as a return type.
    var inConditionalConsequent = false
    /// In the `extends` clause of a conditional type, where another `extends` cannot start one.
    var noConditionalTypes = false
    /// Offsets where an arrow function was tried and failed: never tried twice.
    var failedArrows: Set<Int> = []
    /// Start offsets of `{ a = 1 }` shorthand properties in object literals not (yet) turned into patterns: any
    /// left at the end of the file is an error, as JavaScript only allows them in destructuring.
    var coverInitializers: Set<Int> = []
    /// Parenthesised expressions already read, by offset and context: a failed arrow head re-reads the
    /// parentheses nested in its defaults, and without this `(a = (a = (a = ...)))` is quadratic.
    var parenthesized: [Int: (node: JSNode, lexer: JavaScriptLexer, tok: JSToken, prevEnd: Int, context: Int)] = [:]
    let scanBudget: Int

    init(
        bytes: [UInt8], file: String, dialect: JavaScriptDialect, pattern: Bool = false, htmlComments: Bool = false,
        comments: JSCommentLog? = nil
    ) throws {
        let lines = JSLineMap(bytes)
        var start = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        lexer = JavaScriptLexer(bytes: bytes, file: file, lines: lines, start: start)
        lexer.comments = comments
        lexer.metavariables = pattern
        lexer.htmlComments = htmlComments
        self.lines = lines
        self.file = file
        ts = dialect.typeScript
        jsx = dialect.jsx
        patternMode = pattern
        scanBudget = bytes.count * JavaScriptParser.rescanAllowancePerByte + 20_000
        tok = try lexer.next()
    }

    /// Everything that speculative parsing must put back when it fails.
    struct Snapshot {
        var lexer: JavaScriptLexer
        var tok: JSToken
        var prevEnd: Int
        var depth: Int
        var chainLinks: Int
        var coverInitializers: Set<Int>
    }

    var snapshot: Snapshot {
        Snapshot(
            lexer: lexer, tok: tok, prevEnd: prevEnd, depth: depth, chainLinks: chainLinks,
            coverInitializers: coverInitializers)
    }

    mutating func restore(_ s: Snapshot) {
        let scanned = lexer.scanned
        lexer = s.lexer
        lexer.scanned = scanned
        tok = s.tok
        prevEnd = s.prevEnd
        depth = s.depth
        chainLinks = s.chainLinks
        coverInitializers = s.coverInitializers
    }

    /// Runs `body`; when it throws a syntax error (other than a bound) or returns nil, puts the parser
    /// back where it was and returns nil.
    mutating func speculate<T>(_ body: (inout JSParser) throws -> T?) throws -> T? {
        let saved = snapshot
        let savedContext = (inFunction, inAsync, inGenerator, inAllowed, inConditionalConsequent, noConditionalTypes)
        do {
            if let result = try body(&self) { return result }
        } catch let failure as JavaScriptSyntaxError
            where failure.code != .tooAmbiguous && failure.code != .nestingTooDeep && failure.code != .fileTooLarge
        {}
        restore(saved)
        (inFunction, inAsync, inGenerator, inAllowed, inConditionalConsequent, noConditionalTypes) = savedContext
        return nil
    }

    // MARK: Tokens

    @inline(__always) func at(_ s: String) -> Bool { tok.is(s) }

    mutating func advance() throws {
        prevEnd = tok.end
        tok = try lexer.next()
        if lexer.scanned > scanBudget {
            throw error(
                "the file's ambiguities needed more re-reading than allowed (\(JavaScriptParser.rescanAllowancePerByte) tokens a byte)",
                .tooAmbiguous)
        }
    }

    mutating func accept(_ s: String) throws -> Bool {
        guard at(s) else { return false }
        try advance()
        return true
    }

    mutating func expect(_ s: String) throws {
        guard at(s) else { throw error(expected: "'\(s)'") }
        try advance()
    }

    /// The token after the current one (scanned on a copy of the lexer, in division mode).
    func peek(_ n: Int = 1) -> JSToken? {
        var copy = lexer
        var token: JSToken?
        for _ in 0..<n { token = try? copy.next() }
        return token
    }

    /// Whether the next token is `s`.
    func peekIs(_ s: String) -> Bool { peek()?.is(s) ?? false }

    /// The end of a statement: `;`, or a place automatic semicolon insertion allows (before `}`, at
    /// the end of input, or after a line break).
    mutating func consumeSemicolon() throws {
        if at(";") {
            try advance()
            return
        }
        if at("}") || tok.kind == .end || tok.newlineBefore { return }
        throw error(expected: "';'")
    }

    /// Words that can never be identifiers.
    static let reserved: Set<String> = [
        "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
        "export", "extends", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "return",
        "super", "switch", "this", "throw", "try", "typeof", "var", "void", "while", "with", "null", "true",
        "false", "enum",
    ]

    /// Whether the current token is a name usable as an identifier (`yield` and `await` depend on context).
    var atIdentifier: Bool {
        guard tok.kind == .name else { return false }
        if tok.escaped { return true }
        if JSParser.reserved.contains(tok.text) { return false }
        if tok.text == "yield" && inGenerator { return false }
        if tok.text == "await" && (inAsync || !inFunction) { return false }
        return true
    }

    /// Any name, keywords included (property names, member names, JSX names).
    var atAnyName: Bool { tok.kind == .name }

    mutating func identifier() throws -> JSNode {
        guard atIdentifier else { throw error(expected: "an identifier") }
        let t = tok
        try advance()
        return JSNode(.identifier, text: t.text, range: lines.range(t.start, t.end))
    }

    /// A name token taken as an identifier whatever it is (after `.`, in types, as a property key).
    mutating func anyName() throws -> JSNode {
        guard tok.kind == .name else { throw error(expected: "a name") }
        let t = tok
        try advance()
        return JSNode(.identifier, text: t.text, range: lines.range(t.start, t.end))
    }

    // MARK: Nodes

    /// A node from `start` to the end of the last consumed token. Children must be parsed into locals
    /// first: the end is read when this is called.
    func node(_ kind: JSNodeKind, _ text: String? = nil, _ children: [JSNode] = [], from start: Int, raw: String? = nil)
        -> JSNode
    {
        JSNode(kind, text: text, children: children, range: lines.range(start, prevEnd), raw: raw)
    }

    /// A zero-width ``JSNodeKind/empty`` at the current token.
    var empty: JSNode { JSNode(.empty, range: lines.range(tok.start, tok.start)) }

    /// An empty ``JSNodeKind/modifiers`` (or ``JSNodeKind/decorators``) list at the current token.
    func emptyList(_ kind: JSNodeKind) -> JSNode { JSNode(kind, range: lines.range(tok.start, tok.start)) }

    func modifier(_ token: JSToken) -> JSNode {
        JSNode(.modifier, text: token.text, range: lines.range(token.start, token.end))
    }

    // MARK: Errors and bounds

    func error(_ message: String, _ code: JavaScriptSyntaxError.Code = .unexpectedToken, at offset: Int? = nil)
        -> JavaScriptSyntaxError
    {
        let location = lines.location(offset ?? tok.start)
        return JavaScriptSyntaxError(code, file: file, line: location.line, column: location.column, message: message)
    }

    func error(expected: String) -> JavaScriptSyntaxError {
        if tok.kind == .end { return error("unexpected end of file (expected \(expected))", .unexpectedEndOfFile) }
        return error("expected \(expected), found \(describe(tok))")
    }

    func describe(_ t: JSToken) -> String {
        switch t.kind {
        case .string: return "a string"
        case .number, .bigint: return "number \(t.text.prefix(20))"
        case .template: return "a template"
        case .regex: return "a regular expression"
        case .jsxText: return "JSX text"
        case .end: return "end of file"
        case .name, .privateName: return "'\(t.text.prefix(40))'"
        case .punct: return "'\(t.text)'"
        }
    }

    mutating func enter() throws {
        depth += 1
        if depth > JavaScriptParser.maximumNestingDepth {
            throw error("nesting deeper than \(JavaScriptParser.maximumNestingDepth) levels", .nestingTooDeep)
        }
    }

    @inline(__always) mutating func leave() { depth -= 1 }

    mutating func link() throws {
        chainLinks += 1
        if chainLinks > JavaScriptParser.maximumChainLength {
            throw error("chain of operators, members or calls longer than \(JavaScriptParser.maximumChainLength)", .nestingTooDeep)
        }
    }

    // MARK: Program

    mutating func parseProgram() throws -> JSNode {
        var statements: [JSNode] = []
        while tok.kind != .end {
            statements.append(try parseStatement())
        }
        if let offset = coverInitializers.min() {
            throw error("'=' in an object literal is only allowed when it is destructured", at: offset)
        }
        return JSNode(.program, children: statements, range: lines.range(0, lexer.bytes.count))
    }
}
