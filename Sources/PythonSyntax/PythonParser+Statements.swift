/// Simple statements and the statement dispatcher.
extension PyParser {
    static let augmentedOperators: Set<String> = [
        "+=", "-=", "*=", "/=", "//=", "%=", "@=", "&=", "|=", "^=", ">>=", "<<=", "**=",
    ]

    /// Parses one logical line or compound statement, appending the statement(s) it holds.
    mutating func statement(into out: inout [SyntaxNode]) throws {
        if tok.kind == .name {
            switch tok.word {
            case "def", "class", "if", "while", "for", "try", "with":
                out.append(try compoundStatement())
                return
            case "async" where !python2 && (peek(1).is("def") || peek(1).is("for") || peek(1).is("with")):
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
    mutating func simpleStatements(into out: inout [SyntaxNode]) throws {
        out.append(try simpleStatement())
        while accept(";") {
            if tok.kind == .newline || tok.kind == .end { break }
            out.append(try simpleStatement())
        }
        guard tok.kind == .newline || tok.kind == .end else { throw error(expected: "end of statement") }
        advance()
    }

    mutating func simpleStatement() throws -> SyntaxNode {
        let start = tok.start
        if tok.kind == .name {
            switch tok.word {
            case "pass":
                advance()
                return Self.node(.pass, from: start, end: lastEnd)
            case "break":
                advance()
                return Self.node(.break, from: start, end: lastEnd)
            case "continue":
                advance()
                return Self.node(.continue, from: start, end: lastEnd)
            case "return":
                advance()
                let value = startsExpression ? [try starExpressions()] : []
                return Self.node(.return, nil, value, from: start, end: lastEnd)
            case "raise":
                advance()
                var exc = empty
                var cause = empty
                if startsExpression {
                    exc = try expression()
                    if at(",") {
                        guard python2 else {
                            throw error("invalid syntax: 'raise E, V' is Python 2; use raise E(V)", .python2Syntax)
                        }
                        exc = try python2RaiseArguments(exc)
                    } else if accept("from") {
                        cause = try expression()
                    }
                }
                return Self.node(.raise, nil, [exc, cause], from: start, end: lastEnd)
            case "global", "nonlocal":
                let kind: SyntaxKind = tok.text == "global" ? .global : .nonlocal
                advance()
                var names: [SyntaxNode] = []
                repeat {
                    let s = tok.start
                    names.append(Self.node(.name, try expectName(), from: s, end: lastEnd))
                } while accept(",")
                return Self.node(kind, nil, names, from: start, end: lastEnd)
            case "del":
                advance()
                var targets: [SyntaxNode] = []
                repeat {
                    if !startsExpression { break }
                    let t = try targetElement()
                    try checkTarget(t, .delete)
                    targets.append(t)
                } while accept(",")
                if targets.isEmpty { throw error(expected: "a target") }
                return Self.node(.delete, nil, targets, from: start, end: lastEnd)
            case "assert":
                advance()
                let test = try expression()
                let msg = accept(",") ? try expression() : empty
                return Self.node(.assert, nil, [test, msg], from: start, end: lastEnd)
            case "import":
                return try importStatement()
            case "from":
                return try importFrom()
            case "type" where peek(1).kind == .name && (peek(2).is("=") || peek(2).is("[")):
                return try typeAlias()
            case "print" where python2 && !printIsFunction, "exec" where python2:
                return try python2PrintOrExec()
            case "print", "exec":
                let message =
                    "Missing parentheses in call to '\(tok.text)'. Did you mean \(tok.text)(...)? (Python 2 syntax)"
                let next = peek(1)
                let startsOperand =
                    next.kind == .string || next.kind == .number
                    || (next.kind == .name
                        && (!PyParser.keywords.contains(next.text) || next.text == "None"
                            || next.text == "True" || next.text == "False" || next.text == "lambda"))
                // `print >>f, x` is valid Python 3 (a shift, then a tuple): only a failure names Python 2.
                if startsOperand { throw error(message, .python2Syntax) }
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

    mutating func expressionStatement() throws -> SyntaxNode {
        let start = tok.start
        let first = at("yield") ? try yieldExpression() : try starExpressions()
        if at("=") {
            var items = [first]
            while accept("=") {
                items.append(at("yield") ? try yieldExpression() : try starExpressions())
            }
            for t in items.dropLast() { try checkTarget(t, .assign) }
            return Self.node(.assign, nil, items, from: start, end: lastEnd)
        }
        if tok.kind == .op && PyParser.augmentedOperators.contains(tok.text) {
            let op = tok.text
            try checkTarget(first, .augmented)
            advance()
            let value = at("yield") ? try yieldExpression() : try starExpressions()
            return Self.node(.augAssign, op, [first, value], from: start, end: lastEnd)
        }
        if at(":") {
            try checkTarget(first, .annotated)
            advance()
            let annotation = try expression()
            var value = empty
            if accept("=") { value = at("yield") ? try yieldExpression() : try starExpressions() }
            return Self.node(.annAssign, nil, [first, annotation, value], from: start, end: lastEnd)
        }
        return Self.node(.exprStmt, nil, [first], from: start, end: lastEnd)
    }

    mutating func importStatement() throws -> SyntaxNode {
        let start = tok.start
        advance()
        var aliases: [SyntaxNode] = []
        repeat {
            let s = tok.start
            var name = try expectName()
            while accept(".") { name += "." + (try expectName()) }
            aliases.append(try aliasTail(name, from: s))
        } while accept(",")
        return Self.node(.import, nil, aliases, from: start, end: lastEnd)
    }

    private mutating func aliasTail(_ name: String, from s: SourceLocation) throws -> SyntaxNode {
        if accept("as") {
            let a = tok.start
            let asName = Self.node(.name, try expectName(), from: a, end: lastEnd)
            return Self.node(.alias, name, [asName], from: s, end: lastEnd)
        }
        return Self.node(.alias, name, from: s, end: lastEnd)
    }

    mutating func importFrom() throws -> SyntaxNode {
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
        let future = module == "__future__"
        var aliases: [SyntaxNode] = []
        if at("*") {
            let s = tok.start
            advance()
            aliases.append(Self.node(.alias, "*", from: s, end: lastEnd))
        } else {
            let parenthesised = accept("(")
            repeat {
                if parenthesised && at(")") { break }
                let s = tok.start
                aliases.append(try aliasTail(try expectName(), from: s))
            } while accept(",")
            if parenthesised { try expect(")") }
            if aliases.isEmpty { throw error(expected: "a name to import") }
            if future && aliases.contains(where: { $0.text == "print_function" }) { printIsFunction = true }
        }
        return Self.node(.importFrom, module, aliases, from: start, end: lastEnd)
    }

    mutating func typeAlias() throws -> SyntaxNode {
        let start = tok.start
        advance()
        let nameStart = tok.start
        let name = try expectName()
        let nameNode = Self.node(.name, name, from: nameStart, end: lastEnd)
        let params = try typeParams()
        try expect("=")
        let value = try expression()
        return Self.node(.typeAlias, name, [nameNode, params, value], from: start, end: lastEnd)
    }

    /// `[T: bound, *Ts, **P]` or an empty ``SyntaxKind/typeParams`` when there is no bracket.
    mutating func typeParams() throws -> SyntaxNode {
        let start = tok.start
        guard accept("[") else { return SyntaxNode(.typeParams, range: SourceRange(start: start, end: start)) }
        var params: [SyntaxNode] = []
        repeat {
            if at("]") { break }
            let s = tok.start
            var prefix = ""
            if accept("*") { prefix = "*" } else if accept("**") { prefix = "**" }
            let name = try expectName()
            var bound = empty
            if prefix.isEmpty && accept(":") { bound = try expression() }
            if accept("=") { bound = try expression() }  // PEP 696 defaults share the slot
            params.append(Self.node(.typeParam, prefix + name, [bound], from: s, end: lastEnd))
        } while accept(",")
        try expect("]")
        if params.isEmpty { throw error("type parameter list cannot be empty", at: lastEnd) }
        return Self.node(.typeParams, nil, params, from: start, end: lastEnd)
    }
}
