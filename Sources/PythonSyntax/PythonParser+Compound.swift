/// Compound statements: definitions, control flow, `with`, `try`, and blocks.
extension PyParser {
    /// The indented (or same-line) body after a `:`.
    mutating func block() throws -> SyntaxNode {
        try enter()
        defer { leave() }
        var stmts: [SyntaxNode] = []
        if tok.kind == .newline {
            advance()
            guard tok.kind == .indent else {
                throw error("expected an indented block", .indentation)
            }
            advance()
            while tok.kind != .dedent && tok.kind != .end {
                if tok.kind == .indent { throw error("unexpected indent", .indentation) }
                try statement(into: &stmts)
            }
            advance()
        } else {
            try simpleStatements(into: &stmts)
        }
        let start = stmts.first?.range.start ?? tok.start
        let end = stmts.last?.range.end ?? start
        return SyntaxNode(.block, children: stmts, range: SourceRange(start: start, end: end))
    }

    /// `: block`.
    mutating func colonBlock() throws -> SyntaxNode {
        try expect(":")
        return try block()
    }

    mutating func compoundStatement() throws -> SyntaxNode {
        let start = tok.start
        switch tok.word {
        case "def": return try functionDef(decorators: emptyDecorators, start: start)
        case "class": return try classDef(decorators: emptyDecorators, start: start)
        case "if": return try ifStatement()
        case "while":
            advance()
            let test = try namedExpression()
            let body = try colonBlock()
            return Self.node(.while, nil, [test, body, try elseBlock()], from: start, end: lastEnd)
        case "for": return try forStatement(start: start, isAsync: false)
        case "try": return try tryStatement()
        case "with": return try withStatement(start: start, isAsync: false)
        case "async":
            advance()
            switch tok.word {
            case "def": return try functionDef(decorators: emptyDecorators, start: start, isAsync: true)
            case "for": return try forStatement(start: start, isAsync: true)
            default: return try withStatement(start: start, isAsync: true)
            }
        default:
            throw error(expected: "a statement")
        }
    }

    var emptyDecorators: SyntaxNode { SyntaxNode(.decorators, range: SourceRange(start: tok.start, end: tok.start)) }

    mutating func elseBlock() throws -> SyntaxNode {
        guard accept("else") else { return empty }
        return try colonBlock()
    }

    mutating func decorated() throws -> SyntaxNode {
        let start = tok.start
        var decorators: [SyntaxNode] = []
        while at("@") {
            let s = tok.start
            advance()
            let e = try namedExpression()
            decorators.append(Self.node(.decorator, nil, [e], from: s, end: lastEnd))
            guard tok.kind == .newline else { throw error(expected: "end of line after decorator") }
            advance()
        }
        let list = Self.node(.decorators, nil, decorators, from: start, end: lastEnd)
        if at("def") { return try functionDef(decorators: list, start: start) }
        if at("class") { return try classDef(decorators: list, start: start) }
        if at("async") && peek(1).is("def") {
            advance()
            return try functionDef(decorators: list, start: start, isAsync: true)
        }
        throw error(expected: "'def' or 'class' after decorators")
    }

    mutating func functionDef(decorators: SyntaxNode, start: SourceLocation, isAsync: Bool = false) throws -> SyntaxNode {
        try expect("def")
        let name = try expectName()
        let tparams = try typeParams()
        try expect("(")
        let outerUnpacking = tupleParameterUnpacking
        tupleParameterUnpacking = []
        let params = try parameterList(closing: ")", annotations: true)
        let unpacking = tupleParameterUnpacking
        tupleParameterUnpacking = outerUnpacking
        try expect(")")
        let returns = accept("->") ? try expression() : empty
        var body = try colonBlock()
        if !unpacking.isEmpty { body.children = unpacking + body.children }
        return Self.node(
            isAsync ? .asyncFunctionDef : .functionDef, name, [decorators, tparams, params, returns, body], from: start,
            end: lastEnd)
    }

    mutating func classDef(decorators: SyntaxNode, start: SourceLocation) throws -> SyntaxNode {
        try expect("class")
        let name = try expectName()
        let tparams = try typeParams()
        let argStart = tok.start
        var args = SyntaxNode(.arguments, range: SourceRange(start: argStart, end: argStart))
        if accept("(") {
            args = Self.node(.arguments, nil, try callArguments(inClass: true), from: argStart, end: lastEnd)
        }
        let body = try colonBlock()
        return Self.node(.classDef, name, [decorators, tparams, args, body], from: start, end: lastEnd)
    }

    /// `if`/`elif` chains are built iteratively so long chains do not recurse.
    mutating func ifStatement() throws -> SyntaxNode {
        var clauses: [(start: SourceLocation, test: SyntaxNode, body: SyntaxNode)] = []
        let savedLinks = chainLinks
        defer { chainLinks = savedLinks }
        repeat {
            try link()
            let s = tok.start
            advance()
            let test = try namedExpression()
            let body = try colonBlock()
            clauses.append((s, test, body))
        } while at("elif")
        var orelse = try elseBlock()
        for clause in clauses.reversed() {
            let end = orelse.isEmpty ? clause.body.range.end : orelse.range.end
            let n = SyntaxNode(
                .if, children: [clause.test, clause.body, orelse], range: SourceRange(start: clause.start, end: end))
            orelse = SyntaxNode(.block, children: [n], range: n.range)
        }
        return orelse.children[0]
    }

    mutating func forStatement(start: SourceLocation, isAsync: Bool) throws -> SyntaxNode {
        try expect("for")
        let target = try targetList()
        try checkTarget(target, .loop)
        try expect("in")
        let iter = try starExpressions()
        let body = try colonBlock()
        return Self.node(
            isAsync ? .asyncFor : .for, nil, [target, iter, body, try elseBlock()], from: start, end: lastEnd)
    }

    mutating func tryStatement() throws -> SyntaxNode {
        let start = tok.start
        advance()
        let body = try colonBlock()
        var children = [body]
        var star: Bool?
        while at("except") {
            let s = tok.start
            advance()
            let isStar = accept("*")
            if let star, star != isStar {
                throw error("cannot have both 'except' and 'except*' on the same 'try'", at: s)
            }
            star = isStar
            var type = empty
            var name: String?
            var targetUnpacking: SyntaxNode?
            if !at(":") {
                type = try expression()
                if at(",") {
                    // Python 2's `except E, e:` binds the exception to `e`, as `except E as e:` does.
                    if python2 {
                        advance()
                        if atIdentifier && peek(1).is(":") {
                            name = try expectName()
                        } else {
                            // `except E, (errno, msg):` or `except E, self.error:` binds a target.
                            let target = try targetElement()
                            try checkTarget(target, .assign)
                            name = ".exception"
                            targetUnpacking = SyntaxNode(
                                .assign, children: [target, SyntaxNode(.name, text: ".exception", range: target.range)],
                                range: target.range)
                        }
                    } else {
                        // PEP 758 (Python 3.14): `except A, B:` is the tuple `(A, B)`; with `as`
                        // the types must still be parenthesized (Python 2's `except E, e:` reads
                        // the same as 3.14's two types, as CPython 3.14 reads it).
                        var types = [type]
                        while accept(",") {
                            if at(":") { break }
                            types.append(try expression())
                        }
                        if at("as") {
                            throw error(
                                "multiple exception types must be parenthesized when using 'as'", .python2Syntax,
                                at: type.range.start)
                        }
                        type = Self.node(.tuple, nil, types, from: type.range.start, end: lastEnd)
                    }
                } else if accept("as") {
                    name = try expectName()
                }
            } else if isStar {
                throw error("expected one or more exception types")
            }
            var handlerBody = try colonBlock()
            if let targetUnpacking { handlerBody.children.insert(targetUnpacking, at: 0) }
            children.append(Self.node(.exceptHandler, name, [type, handlerBody], from: s, end: lastEnd))
        }
        let orelse = children.count > 1 ? try elseBlock() : empty
        var final = empty
        if accept("finally") { final = try colonBlock() }
        if children.count == 1 && final.isEmpty { throw error(expected: "'except' or 'finally' block") }
        children.append(orelse)
        children.append(final)
        return Self.node(star == true ? .tryStar : .try, nil, children, from: start, end: lastEnd)
    }

    mutating func withStatement(start: SourceLocation, isAsync: Bool) throws -> SyntaxNode {
        try expect("with")
        var items: [SyntaxNode] = []
        if at("(") {
            // Parenthesised context managers; a parenthesised expression is re-read below if not.
            let save = p
            let saveDepth = depth
            do {
                advance()
                repeat {
                    if at(")") && !items.isEmpty { break }
                    items.append(try withItem())
                } while accept(",")
                try expect(")")
                guard at(":") else { throw error(expected: "':'") }
            } catch {
                p = save
                depth = saveDepth
                items = []
            }
        }
        if items.isEmpty {
            repeat { items.append(try withItem()) } while accept(",")
        }
        let body = try colonBlock()
        return Self.node(isAsync ? .asyncWith : .with, nil, items + [body], from: start, end: lastEnd)
    }

    private mutating func withItem() throws -> SyntaxNode {
        let s = tok.start
        let ctx = try expression()
        var target = empty
        if accept("as") {
            target = try targetElement()
            try checkTarget(target, .with)
        }
        return Self.node(.withItem, nil, [ctx, target], from: s, end: lastEnd)
    }
}
