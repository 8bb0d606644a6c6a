/// Call arguments and parameter lists, with the ordering rules CPython enforces.
extension PyParser {
    /// Whether `n` is a pattern wildcard (`...`, `$...X`) that may stand anywhere in a list.
    func isWildcard(_ n: SyntaxNode) -> Bool {
        guard patternMode else { return false }
        if n.kind == .ellipsis { return true }
        return n.kind == .name && (n.text?.hasPrefix("$...") ?? false)
    }

    /// Arguments after `(` up to and including `)`; class bases (`inClass`) take no generator.
    mutating func callArguments(inClass: Bool = false) throws -> [SyntaxNode] {
        try enter()
        defer { leave() }
        var args: [SyntaxNode] = []
        var sawKeyword = false
        var sawDoubleStar = false
        while !at(")") {
            let s = tok.start
            if accept("*") {
                let v = try expression()
                if sawDoubleStar {
                    throw error(
                        "iterable argument unpacking follows keyword argument unpacking", .invalidArguments, at: s)
                }
                args.append(Self.node(.starred, nil, [v], from: s, end: lastEnd))
            } else if accept("**") {
                args.append(Self.node(.doubleStarred, nil, [try expression()], from: s, end: lastEnd))
                sawDoubleStar = true
            } else if tok.kind == .name && peek(1).is("=") {
                let name = try expectName()
                advance()
                args.append(Self.node(.keyword, name, [try expression()], from: s, end: lastEnd))
                sawKeyword = true
            } else {
                var v = try namedExpression()
                if atComprehension {
                    if inClass {
                        throw error(
                            "invalid syntax: a generator expression cannot be a base class", .invalidArguments, at: s)
                    }
                    let comps = try comprehensions()
                    v = Self.node(.generatorExp, nil, [v] + comps, from: s, end: lastEnd)
                    if !args.isEmpty || !at(")") {
                        throw error("Generator expression must be parenthesized", .invalidArguments, at: s)
                    }
                } else if !isWildcard(v) {
                    if sawDoubleStar {
                        throw error("positional argument follows keyword argument unpacking", .invalidArguments, at: s)
                    }
                    if sawKeyword {
                        throw error("positional argument follows keyword argument", .invalidArguments, at: s)
                    }
                }
                args.append(v)
            }
            if !accept(",") { break }
        }
        try expect(")")
        return args
    }

    /// Parameters of a `def` (up to `)`) or `lambda` (up to `:`); the closing token is not consumed.
    mutating func parameterList(closing: String, annotations: Bool) throws -> SyntaxNode {
        let start = tok.start
        var items: [SyntaxNode] = []
        var sawDefault = false
        var sawStar = false
        var sawSlash = false
        var sawKwargs = false
        var bareStarPending = false
        func annotation(_ p: inout PyParser, star: Bool = false) throws -> SyntaxNode {
            guard annotations, p.accept(":") else { return p.empty }
            return star && p.at("*") ? try p.starExpression() : try p.expression()
        }
        while !at(closing) {
            let s = tok.start
            if sawKwargs { throw error("arguments cannot follow var-keyword argument", .invalidArguments) }
            if accept("/") {
                if sawSlash { throw error("/ may appear only once", .invalidArguments, at: s) }
                if sawStar { throw error("/ must be ahead of *", .invalidArguments, at: s) }
                if items.isEmpty { throw error("at least one argument must precede /", .invalidArguments, at: s) }
                sawSlash = true
                items.append(Self.node(.positionalOnlyMarker, from: s, end: lastEnd))
            } else if accept("*") {
                if sawStar { throw error("* argument may appear only once", .invalidArguments, at: s) }
                sawStar = true
                if atIdentifier {
                    let name = try expectName()
                    items.append(Self.node(.varArgs, name, [try annotation(&self, star: true)], from: s, end: lastEnd))
                } else {
                    if at(",") == false && !at(closing) { throw error(expected: "a parameter name") }
                    bareStarPending = true
                    items.append(Self.node(.keywordOnlyMarker, from: s, end: lastEnd))
                }
            } else if accept("**") {
                if bareStarPending { throw error("named arguments must follow bare *", .invalidArguments, at: s) }
                let name = try expectName()
                items.append(Self.node(.kwArgs, name, [try annotation(&self)], from: s, end: lastEnd))
                sawKwargs = true
            } else if patternMode && at("...") {
                advance()
                items.append(Self.node(.ellipsis, from: s, end: lastEnd))
                bareStarPending = false
                sawDefault = false
            } else if at("(") {
                guard python2 else {
                    throw error("invalid syntax: tuple parameters are Python 2; unpack in the body", .python2Syntax)
                }
                let parameter = try python2TupleParameter(position: items.count)
                if parameter.children[1].isEmpty {
                    if sawDefault && !sawStar {
                        throw error("non-default argument follows default argument", .invalidArguments, at: s)
                    }
                } else {
                    sawDefault = true
                }
                items.append(parameter)
            } else {
                let name = try expectName()
                let ann = try annotation(&self)
                let def = accept("=") ? try expression() : empty
                if def.isEmpty {
                    if sawDefault && !sawStar {
                        throw error("non-default argument follows default argument", .invalidArguments, at: s)
                    }
                } else {
                    sawDefault = true
                }
                bareStarPending = false
                items.append(Self.node(.parameter, name, [ann, def], from: s, end: lastEnd))
            }
            if !accept(",") { break }
        }
        if bareStarPending { throw error("named arguments must follow bare *", .invalidArguments) }
        return SyntaxNode(
            .parameters, children: items, range: SourceRange(start: start, end: items.isEmpty ? start : lastEnd))
    }
}
