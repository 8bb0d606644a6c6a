/// The expression grammar, lowest precedence first.
extension PyParser {
    /// Binding power of binary operators above comparisons (all left-associative; `**` is separate).
    @inline(__always) static func binaryPrecedence(_ op: String) -> Int? {
        switch op {
        case "|": return 1
        case "^": return 2
        case "&": return 3
        case "<<", ">>": return 4
        case "+", "-": return 5
        case "*", "/", "//", "%", "@": return 6
        default: return nil
        }
    }

    /// Whether the current token can begin an expression.
    var startsExpression: Bool {
        let t = tok
        switch t.kind {
        case .name:
            switch t.word {
            case "not", "lambda", "await", "None", "True", "False": return true
            default: return !isReserved(t.text)
            }
        case .number, .string: return true
        case .op:
            switch t.word {
            case "(", "[", "{", "-", "+", "~", "*", "...": return true
            case "`": return python2
            default: return false
            }
        default: return false
        }
    }

    /// `star_expressions`: an expression or an unparenthesised tuple, elements may be starred.
    mutating func starExpressions() throws -> SyntaxNode {
        let start = tok.start
        let first = try starExpression()
        guard at(",") else { return first }
        var items = [first]
        while accept(",") {
            if !startsExpression { break }
            items.append(try starExpression())
        }
        return Self.node(.tuple, nil, items, from: start, end: lastEnd)
    }

    mutating func starExpression() throws -> SyntaxNode {
        guard at("*") else { return try expression() }
        let s = tok.start
        advance()
        return Self.node(.starred, nil, [try binary(1)], from: s, end: lastEnd)
    }

    /// `star_named_expression`: `*x` or a possibly-walrus expression (list/set/tuple elements).
    mutating func starNamedExpression() throws -> SyntaxNode {
        guard at("*") else { return try namedExpression() }
        let s = tok.start
        advance()
        return Self.node(.starred, nil, [try binary(1)], from: s, end: lastEnd)
    }

    /// `x := value` or an expression.
    mutating func namedExpression() throws -> SyntaxNode {
        guard tok.kind == .name && peek(1).is(":=") else { return try expression() }
        let s = tok.start
        let name = Self.node(.name, try expectName(), from: s, end: lastEnd)
        advance()
        let value = try expression()
        return Self.node(.namedExpr, nil, [name, value], from: s, end: lastEnd)
    }

    /// `expression`: lambda, conditional expression, or a disjunction.
    mutating func expression() throws -> SyntaxNode {
        if at("lambda") { return try lambda() }
        let start = tok.start
        let body = try disjunction()
        guard at("if") else { return body }
        advance()
        let test = try disjunction()
        guard accept("else") else { throw error(expected: "'else' after 'if' expression") }
        // Depth is counted per bracket, unary operator, lambda and nested conditional, as CPython
        // counts brackets, so 200 levels of parentheses parse.
        try enter()
        defer { leave() }
        let orelse = try expression()
        return Self.node(.ifExp, nil, [body, test, orelse], from: start, end: lastEnd)
    }

    mutating func lambda() throws -> SyntaxNode {
        try enter()
        defer { leave() }
        let start = tok.start
        advance()
        // A lambda's body is an expression: its Python 2 tuple parameters stay unnamed `.N`.
        let outerUnpacking = tupleParameterUnpacking
        let params = try parameterList(closing: ":", annotations: false)
        tupleParameterUnpacking = outerUnpacking
        try expect(":")
        let body = try expression()
        return Self.node(.lambda, nil, [params, body], from: start, end: lastEnd)
    }

    mutating func disjunction() throws -> SyntaxNode {
        let start = tok.start
        let first = try conjunction()
        guard at("or") else { return first }
        var items = [first]
        while accept("or") { items.append(try conjunction()) }
        return Self.node(.boolOp, "or", items, from: start, end: lastEnd)
    }

    mutating func conjunction() throws -> SyntaxNode {
        let start = tok.start
        let first = try inversion()
        guard at("and") else { return first }
        var items = [first]
        while accept("and") { items.append(try inversion()) }
        return Self.node(.boolOp, "and", items, from: start, end: lastEnd)
    }

    mutating func inversion() throws -> SyntaxNode {
        guard at("not") else { return try comparison() }
        try enter()
        defer { leave() }
        let start = tok.start
        advance()
        return Self.node(.unaryOp, "not", [try inversion()], from: start, end: lastEnd)
    }

    mutating func comparison() throws -> SyntaxNode {
        let start = tok.start
        let left = try binary(1)
        var ops: [String] = []
        var items = [left]
        while true {
            let t = tok
            var op: String
            if t.kind == .op {
                switch t.word {
                case "<", ">", "==", ">=", "<=", "!=": op = t.text
                default: op = ""
                }
                if op.isEmpty { break }
                advance()
            } else if t.kind == .name && t.word == "in" {
                op = "in"
                advance()
            } else if t.kind == .name && t.word == "not" && peek(1).is("in") {
                op = "not in"
                advance()
                advance()
            } else if t.kind == .name && t.word == "is" {
                advance()
                op = accept("not") ? "is not" : "is"
            } else {
                break
            }
            ops.append(op)
            items.append(try binary(1))
        }
        if ops.isEmpty { return left }
        return Self.node(.compare, ops.joined(separator: ","), items, from: start, end: lastEnd)
    }

    /// Precedence climbing over `| ^ & << >> + - * / // % @`.
    mutating func binary(_ minPrecedence: Int) throws -> SyntaxNode {
        let start = tok.start
        let savedLinks = chainLinks
        defer { chainLinks = savedLinks }
        var left = try factor()
        while tok.kind == .op, let prec = PyParser.binaryPrecedence(tok.text), prec >= minPrecedence {
            try link()
            let op = tok.text
            advance()
            let right = try binary(prec + 1)
            left = Self.node(.binOp, op, [left, right], from: start, end: lastEnd)
        }
        return left
    }

    /// Unary `+ - ~`, which bind looser than `**` on their right (`-x**2` is `-(x**2)`).
    mutating func factor() throws -> SyntaxNode {
        let t = tok
        guard t.kind == .op, t.text == "-" || t.text == "+" || t.text == "~" else { return try power() }
        try enter()
        defer { leave() }
        advance()
        return Self.node(.unaryOp, t.text, [try factor()], from: t.start, end: lastEnd)
    }

    /// `await_primary ['**' factor]`, right-associative through `factor`.
    mutating func power() throws -> SyntaxNode {
        let start = tok.start
        let base = try awaitPrimary()
        guard at("**") else { return base }
        advance()
        try enter()  // right recursion: `a ** b ** c ...` nests
        defer { leave() }
        let exponent = try factor()
        return Self.node(.binOp, "**", [base, exponent], from: start, end: lastEnd)
    }

    mutating func awaitPrimary() throws -> SyntaxNode {
        guard at("await") && !python2 else { return try primary() }
        let start = tok.start
        advance()
        return Self.node(.await, nil, [try primary()], from: start, end: lastEnd)
    }

    /// An atom followed by `.name`, `(args)` and `[index]` trailers.
    mutating func primary() throws -> SyntaxNode {
        let start = tok.start
        let savedLinks = chainLinks
        defer { chainLinks = savedLinks }
        var e = try atom()
        while tok.kind == .op {
            if tok.text == "." || tok.text == "(" || tok.text == "[" { try link() }
            switch tok.word {
            case ".":
                advance()
                let name = try expectName()
                e = Self.node(.attribute, name, [e], from: start, end: lastEnd)
            case "(":
                advance()
                e = Self.node(.call, nil, [e] + (try callArguments()), from: start, end: lastEnd)
            case "[":
                advance()
                let index = try subscriptIndex()
                e = Self.node(.subscript, nil, [e, index], from: start, end: lastEnd)
            default:
                return e
            }
        }
        return e
    }

    /// `yield [star_expressions]` or `yield from expression`.
    mutating func yieldExpression() throws -> SyntaxNode {
        let start = tok.start
        try expect("yield")
        if accept("from") { return Self.node(.yieldFrom, nil, [try expression()], from: start, end: lastEnd) }
        if startsExpression { return Self.node(.yield, nil, [try starExpressions()], from: start, end: lastEnd) }
        return Self.node(.yield, from: start, end: lastEnd)
    }

    /// The inside of `[...]` after a primary: an index, a slice, or a tuple of them.
    mutating func subscriptIndex() throws -> SyntaxNode {
        try enter()
        defer { leave() }
        let start = tok.start
        let first = try sliceItem()
        var index = first
        // `a[*b]` indexes with a tuple, as `a[*b,]` does (CPython's tree has the tuple too).
        if first.kind == .starred && !at(",") {
            index = Self.node(.tuple, nil, [first], from: start, end: lastEnd)
        } else if at(",") {
            var items = [first]
            while accept(",") {
                if at("]") { break }
                items.append(try sliceItem())
            }
            index = Self.node(.tuple, nil, items, from: start, end: lastEnd)
        }
        try expect("]")
        return index
    }

    private mutating func sliceItem() throws -> SyntaxNode {
        let start = tok.start
        var lower = empty
        if !at(":") {
            if at("*") { return try starNamedExpression() }
            let walrus = tok.kind == .name && peek(1).is(":=")
            lower = try namedExpression()
            if !at(":") { return lower }
            // `a[x := 1]` is an index; as a slice bound the walrus needs parentheses.
            if walrus { throw error("invalid syntax: a slice bound cannot be an unparenthesized ':='") }
        }
        advance()
        let upper = at(":") || at(",") || at("]") ? empty : try expression()
        var step = empty
        if accept(":") { step = at(",") || at("]") ? empty : try expression() }
        return Self.node(.slice, nil, [lower, upper, step], from: start, end: lastEnd)
    }
}
