/// Simple statements and the statement dispatcher.
extension PyParser {
    static let augmentedOperators: Set<String> = [
        "+=", "-=", "*=", "/=", "//=", "%=", "@=", "&=", "|=", "^=", ">>=", "<<=", "**=",
    ]

    /// Parses one logical line or compound statement, appending the statement(s) it holds.
    mutating func statement(into out: inout [PyNode]) throws {
        if tok.kind == .name {
            switch tok.text {
            case "def", "class", "if", "while", "for", "try", "with":
                out.append(try compoundStatement())
                return
            case "async" where peek(1).is("def") || peek(1).is("for") || peek(1).is("with"):
                out.append(try compoundStatement())
                return
            case "match":
                if let m = try matchStatementIfPresent() {
                    out.append(m)
                    return
                }
            default:
                break
            }
        } else if at("@") {
            out.append(try decorated())
            return
        }
        try simpleStatements(into: &out)
    }

    /// `simple (';' simple)* [';'] NEWLINE`.
    mutating func simpleStatements(into out: inout [PyNode]) throws {
        out.append(try simpleStatement())
        while accept(";") {
            if tok.kind == .newline || tok.kind == .end { break }
            out.append(try simpleStatement())
        }
        guard tok.kind == .newline || tok.kind == .end else { throw error(expected: "end of statement") }
        advance()
    }

    mutating func simpleStatement() throws -> PyNode {
        let start = tok.start
        if tok.kind == .name {
            switch tok.text {
            case "pass":
                advance()
                return node(.pass, from: start)
            case "break":
                advance()
                return node(.break, from: start)
            case "continue":
                advance()
                return node(.continue, from: start)
            case "return":
                advance()
                let value = startsExpression ? [try starExpressions()] : []
                return node(.return, nil, value, from: start)
            case "raise":
                advance()
                var exc = empty
                var cause = empty
                if startsExpression {
                    exc = try expression()
                    if accept("from") { cause = try expression() }
                }
                return node(.raise, nil, [exc, cause], from: start)
            case "global", "nonlocal":
                let kind: PyNodeKind = tok.text == "global" ? .global : .nonlocal
                advance()
                var names: [PyNode] = []
                repeat {
                    let s = tok.start
                    names.append(node(.name, try expectName(), from: s))
                } while accept(",")
                return node(kind, nil, names, from: start)
            case "del":
                advance()
                var targets: [PyNode] = []
                repeat {
                    if !startsExpression { break }
                    let t = try targetElement()
                    try checkTarget(t, .delete)
                    targets.append(t)
                } while accept(",")
                if targets.isEmpty { throw error(expected: "a target") }
                return node(.delete, nil, targets, from: start)
            case "assert":
                advance()
                let test = try expression()
                let msg = accept(",") ? try expression() : empty
                return node(.assert, nil, [test, msg], from: start)
            case "import":
                return try importStatement()
            case "from":
                return try importFrom()
            case "type" where peek(1).kind == .name && (peek(2).is("=") || peek(2).is("[")):
                return try typeAlias()
            case "print", "exec":
                let message = "Missing parentheses in call to '\(tok.text)'. Did you mean \(tok.text)(...)? (Python 2 syntax)"
                if peek(1).kind == .name || peek(1).kind == .string || peek(1).kind == .number || peek(1).is(">>") {
                    throw error(message, .python2Syntax)
                }
                let here = tok
                do {
                    return try expressionStatement()
                } catch {
                    // `print [x]` or `print (a), b` fail later; name the real cause.
                    throw self.error(message, .python2Syntax, at: here)
                }
            default:
                break
            }
        }
        return try expressionStatement()
    }

    mutating func expressionStatement() throws -> PyNode {
        let start = tok.start
        let first = at("yield") ? try yieldExpression() : try starExpressions()
        if at("=") {
            var items = [first]
            while accept("=") {
                items.append(at("yield") ? try yieldExpression() : try starExpressions())
            }
            for t in items.dropLast() { try checkTarget(t, .assign) }
            return node(.assign, nil, items, from: start)
        }
        if tok.kind == .op && PyParser.augmentedOperators.contains(tok.text) {
            let op = tok.text
            try checkTarget(first, .augmented)
            advance()
            let value = at("yield") ? try yieldExpression() : try starExpressions()
            return node(.augAssign, op, [first, value], from: start)
        }
        if at(":") {
            try checkTarget(first, .annotated)
            advance()
            let annotation = try expression()
            var value = empty
            if accept("=") { value = at("yield") ? try yieldExpression() : try starExpressions() }
            return node(.annAssign, nil, [first, annotation, value], from: start)
        }
        return node(.exprStmt, nil, [first], from: start)
    }

    mutating func importStatement() throws -> PyNode {
        let start = tok.start
        advance()
        var aliases: [PyNode] = []
        repeat {
            let s = tok.start
            var name = try expectName()
            while accept(".") { name += "." + (try expectName()) }
            aliases.append(try aliasTail(name, from: s))
        } while accept(",")
        return node(.import, nil, aliases, from: start)
    }

    private mutating func aliasTail(_ name: String, from s: SourceLocation) throws -> PyNode {
        if accept("as") {
            let a = tok.start
            let asName = node(.name, try expectName(), from: a)
            return node(.alias, name, [asName], from: s)
        }
        return node(.alias, name, from: s)
    }

    mutating func importFrom() throws -> PyNode {
        let start = tok.start
        advance()
        var module = ""
        while at(".") || at("...") {
            module += tok.text
            advance()
        }
        if !at("import") {
            module += try expectName()
            while accept(".") { module += "." + (try expectName()) }
        }
        try expect("import")
        var aliases: [PyNode] = []
        if at("*") {
            let s = tok.start
            advance()
            aliases.append(node(.alias, "*", from: s))
        } else {
            let parenthesised = accept("(")
            repeat {
                if parenthesised && at(")") { break }
                let s = tok.start
                aliases.append(try aliasTail(try expectName(), from: s))
            } while accept(",")
            if parenthesised { try expect(")") }
            if aliases.isEmpty { throw error(expected: "a name to import") }
        }
        return node(.importFrom, module, aliases, from: start)
    }

    mutating func typeAlias() throws -> PyNode {
        let start = tok.start
        advance()
        let nameStart = tok.start
        let name = try expectName()
        let nameNode = node(.name, name, from: nameStart)
        let params = try typeParams()
        try expect("=")
        let value = try expression()
        return node(.typeAlias, name, [nameNode, params, value], from: start)
    }

    /// `[T: bound, *Ts, **P]` or an empty ``PyNodeKind/typeParams`` when there is no bracket.
    mutating func typeParams() throws -> PyNode {
        let start = tok.start
        guard accept("[") else { return PyNode(.typeParams, range: SourceRange(start: start, end: start)) }
        var params: [PyNode] = []
        repeat {
            if at("]") { break }
            let s = tok.start
            var prefix = ""
            if accept("*") { prefix = "*" } else if accept("**") { prefix = "**" }
            let name = try expectName()
            var bound = empty
            if prefix.isEmpty && accept(":") { bound = try expression() }
            if accept("=") { bound = try expression() }  // PEP 696 defaults share the slot
            params.append(node(.typeParam, prefix + name, [bound], from: s))
        } while accept(",")
        try expect("]")
        if params.isEmpty { throw error("type parameter list cannot be empty", at: lastEnd) }
        return node(.typeParams, nil, params, from: start)
    }
}
