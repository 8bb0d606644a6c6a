import Support

/// Rule patterns: JavaScript or TypeScript with metavariables and `...`.
extension JavaScriptParser {
    /// The file name a pattern's errors carry, as Python's patterns' do.
    public static let patternFileName = "<pattern>"

    /// Parses a rule pattern: `$X` is an identifier, `$...X` one name, and `...` the
    /// ``JSNodeKind/ellipsis`` where an expression, argument, parameter, array element, object
    /// member, class member or statement may stand (`...x` followed by an expression stays a
    /// spread). A pattern that is one expression is read as one (`{...}` is an object, not a
    /// block): the program holds its ``JSNodeKind/expressionStatement``; otherwise the statements.
    /// - Throws: ``JavaScriptSyntaxError`` naming ``patternFileName`` as the file.
    public static func parsePattern(bytes: [UInt8], dialect: JavaScriptDialect) throws -> JavaScriptProgram {
        try LargeStack.run {
            try checkSource(bytes, fileName: patternFileName)
            var parser = try JSParser(bytes: bytes, file: patternFileName, dialect: dialect, pattern: true)
            let root = try parser.parsePatternProgram()
            return JavaScriptProgram(root: root, fileName: patternFileName, dialect: dialect)
        }
    }
}

extension JSParser {
    /// The whole pattern as one expression when it is one, else as statements.
    mutating func parsePatternProgram() throws -> JSNode {
        let start = tok.start
        let expression = try speculate { parser -> JSNode? in
            let expression = try parser.parseExpressionAllowingIn()
            _ = try parser.accept(";")
            // `{ a = 1 }` is only valid once destructured: as statements it may still read.
            guard parser.tok.kind == .end, parser.coverInitializers.isEmpty else { return nil }
            return expression
        }
        guard let expression else { return try parseProgram() }
        let statement = node(.expressionStatement, nil, [expression], from: start)
        return JSNode(.program, children: [statement], range: lines.range(0, lexer.bytes.count))
    }

    /// Whether the current `...` is a pattern's ellipsis in a list closed by `closer`: only a comma or
    /// the closer may follow it (anything else is spread).
    func atEllipsis(closedBy closer: String) -> Bool {
        guard patternMode, at("..."), let next = peek() else { return false }
        return next.is(",") || next.is(closer)
    }

    /// The ``JSNodeKind/ellipsis`` at the current `...`.
    mutating func parseEllipsis() throws -> JSNode {
        let start = tok.start
        try expect("...")
        return node(.ellipsis, from: start)
    }
}
