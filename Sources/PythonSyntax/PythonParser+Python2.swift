/// The Python 2 dialect's statements and forms, each built as the Python 3 tree that means the
/// same, so rules and dataflow read them unchanged. The node ranges are the Python 2 source's.
extension PyParser {
    /// `print [>>f,] [x, y[,]]` as `print(x, y, file=f)`; `exec code [in g[, l]]` as `exec(code, g, l)`.
    mutating func python2PrintOrExec() throws -> SyntaxNode {
        // `print(x, file=f)` in a Python 2 file (or one of Python 3.6 names): read as Python 3 when
        // that reads the whole statement as one call of print.
        if at("print") && peek(1).is("(") {
            let (save, saveDepth, saveLinks) = (p, depth, chainLinks)
            if let statement = try? expressionStatement(), tok.kind == .newline || tok.kind == .end || at(";"),
                statement.kind == .exprStmt, statement.children[0].kind == .call
            {
                return statement
            }
            (p, depth, chainLinks) = (save, saveDepth, saveLinks)
        }
        let start = tok.start
        let head = tok
        advance()
        let callee = Self.node(.name, head.text, from: head.start, end: head.end)
        var arguments: [SyntaxNode] = []
        if head.text == "exec" {
            // `expr`, not `test`: `in` belongs to the statement, not to a comparison.
            let code = try binary(1)
            arguments = code.kind == .tuple && !code.children.isEmpty ? code.children : [code]
            if accept("in") {
                arguments.append(try expression())
                if accept(",") { arguments.append(try expression()) }
            }
        } else {
            if at(">>") {
                let s = tok.start
                advance()
                let destination = try expression()
                arguments.append(Self.node(.keyword, "file", [destination], from: s, end: lastEnd))
                if !accept(",") { return try python2Call(callee, arguments, from: start) }
            }
            var values: [SyntaxNode] = []
            var trailingComma = false
            while startsExpression {
                values.append(try expression())
                trailingComma = accept(",")
                if !trailingComma { break }
            }
            // `print (a, b)` is Python 3's print(a, b) in a file that mixes both spellings.
            if values.count == 1, !trailingComma, values[0].kind == .tuple, !values[0].children.isEmpty {
                values = values[0].children
            }
            arguments = values + arguments
        }
        guard tok.kind == .newline || tok.kind == .end || at(";") else { throw error(expected: "end of statement") }
        return try python2Call(callee, arguments, from: start)
    }

    private mutating func python2Call(_ callee: SyntaxNode, _ arguments: [SyntaxNode], from start: SourceLocation) throws -> SyntaxNode {
        let call = Self.node(.call, nil, [callee] + arguments, from: start, end: lastEnd)
        return Self.node(.exprStmt, nil, [call], from: start, end: lastEnd)
    }

    /// `raise E, V[, tb]` after `E`: `raise E(V)` (a tuple `V` is the arguments); the traceback is
    /// dropped, it adds no meaning a rule reads.
    mutating func python2RaiseArguments(_ exception: SyntaxNode) throws -> SyntaxNode {
        try expect(",")
        let value = try expression()
        if accept(",") { _ = try expression() }
        let arguments = value.kind == .tuple ? value.children : [value]
        return Self.node(.call, nil, [exception] + arguments, from: exception.range.start, end: value.range.end)
    }

    /// `` `x, y` `` as `repr((x, y))`.
    mutating func python2Backticks() throws -> SyntaxNode {
        try enter()
        defer { leave() }
        let open = tok
        advance()
        let value = try starExpressions()
        guard at("`") else { throw error(expected: "'`' closing the backtick at line \(open.start.line)") }
        advance()
        let callee = Self.node(.name, "repr", from: open.start, end: open.end)
        return Self.node(.call, nil, [callee, value], from: open.start, end: lastEnd)
    }

    /// A tuple parameter `(a, (b, c))`: a parameter named `.N` (N its position, as CPython 2
    /// named it) and, for the function's body, the assignment `(a, (b, c)) = .N`.
    mutating func python2TupleParameter(position: Int) throws -> SyntaxNode {
        let start = tok.start
        let target = try python2ParameterTuple()
        let name = ".\(position)"
        let value = SyntaxNode(.name, text: name, range: target.range)
        tupleParameterUnpacking.append(SyntaxNode(.assign, children: [target, value], range: target.range))
        let defaultValue = accept("=") ? try expression() : empty
        return Self.node(.parameter, name, [empty, defaultValue], from: start, end: lastEnd)
    }

    private mutating func python2ParameterTuple() throws -> SyntaxNode {
        try enter()
        defer { leave() }
        let start = tok.start
        try expect("(")
        var items: [SyntaxNode] = []
        repeat {
            if at(")") { break }
            if at("(") {
                items.append(try python2ParameterTuple())
            } else {
                let s = tok.start
                items.append(Self.node(.name, try expectName(), from: s, end: lastEnd))
            }
        } while accept(",")
        try expect(")")
        if items.isEmpty { throw error("empty tuple parameter", .invalidArguments, at: start) }
        return Self.node(.tuple, nil, items, from: start, end: lastEnd)
    }
}
