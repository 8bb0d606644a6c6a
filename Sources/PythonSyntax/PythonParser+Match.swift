/// The `match` statement (PEP 634). `match` is a soft keyword: the header is tried first and the
/// line is re-read as an ordinary statement when it is not a match header.
extension PyParser {
    mutating func matchStatementIfPresent() throws -> SyntaxNode? {
        let save = p
        let saveDepth = depth
        let start = tok.start
        var subject: SyntaxNode
        do {
            advance()
            let s = tok.start
            let first = try starNamedExpression()
            subject = first
            if at(",") {
                var items = [first]
                while accept(",") {
                    if at(":") { break }
                    items.append(try starNamedExpression())
                }
                subject = Self.node(.tuple, nil, items, from: s, end: lastEnd)
            }
            try expect(":")
            guard tok.kind == .newline, peek(1).kind == .indent, peek(2).is("case") else {
                throw error(expected: "case block")
            }
        } catch {
            p = save
            depth = saveDepth
            return nil
        }
        advance()
        advance()
        try enter()
        defer { leave() }
        var children = [subject]
        while at("case") { children.append(try caseBlock()) }
        guard tok.kind == .dedent || tok.kind == .end else { throw error(expected: "'case'") }
        advance()
        return Self.node(.match, nil, children, from: start, end: lastEnd)
    }

    private mutating func caseBlock() throws -> SyntaxNode {
        let start = tok.start
        advance()
        let s = tok.start
        let first = try starPattern()
        var pattern = first
        if at(",") {
            var items = [first]
            while accept(",") {
                if at(":") || at("if") { break }
                items.append(try starPattern())
            }
            pattern = Self.node(.matchSequence, nil, items, from: s, end: lastEnd)
        } else if first.kind == .matchStar {
            throw error("can't use starred name here", at: first.range.start)
        }
        let guardExpr = accept("if") ? try namedExpression() : empty
        let body = try colonBlock()
        return Self.node(.matchCase, nil, [pattern, guardExpr, body], from: start, end: lastEnd)
    }

    private mutating func starPattern() throws -> SyntaxNode {
        let s = tok.start
        guard accept("*") else { return try asPattern() }
        let name = try expectName()
        return Self.node(.matchStar, name, from: s, end: lastEnd)
    }

    private mutating func asPattern() throws -> SyntaxNode {
        let s = tok.start
        let alternatives = try orPattern()
        guard accept("as") else { return alternatives }
        let name = try expectName()
        if name == "_" { throw error("cannot use '_' as a target", .invalidTarget, at: lastEnd) }
        return Self.node(.matchAs, name, [alternatives], from: s, end: lastEnd)
    }

    private mutating func orPattern() throws -> SyntaxNode {
        let s = tok.start
        let first = try closedPattern()
        guard at("|") else { return first }
        var items = [first]
        while accept("|") { items.append(try closedPattern()) }
        return Self.node(.matchOr, nil, items, from: s, end: lastEnd)
    }

    private mutating func closedPattern() throws -> SyntaxNode {
        try enter()
        defer { leave() }
        let s = tok.start
        let t = tok
        switch t.kind {
        case .number:
            return Self.node(.matchValue, nil, [try signedNumber()], from: s, end: lastEnd)
        case .string:
            return Self.node(.matchValue, nil, [try strings()], from: s, end: lastEnd)
        case .name:
            switch t.word {
            case "None", "True", "False":
                advance()
                return Self.node(.matchSingleton, t.text, from: s, end: lastEnd)
            default:
                break
            }
            let name = try expectName()
            var value = Self.node(.name, name, from: s, end: lastEnd)
            var dotted = false
            while accept(".") {
                dotted = true
                value = Self.node(.attribute, try expectName(), [value], from: s, end: lastEnd)
            }
            if at("(") { return try classPattern(value, from: s) }
            if dotted { return Self.node(.matchValue, nil, [value], from: s, end: lastEnd) }
            if name == "_" { return Self.node(.matchAs, from: s, end: lastEnd) }
            return Self.node(.matchAs, name, from: s, end: lastEnd)
        case .op:
            switch t.word {
            case "-":
                return Self.node(.matchValue, nil, [try signedNumber()], from: s, end: lastEnd)
            case "(":
                advance()
                if accept(")") { return Self.node(.matchSequence, from: s, end: lastEnd) }
                let first = try starPattern()
                if accept(")") {
                    return first.kind == .matchStar
                        ? Self.node(.matchSequence, nil, [first], from: s, end: lastEnd) : first
                }
                var items = [first]
                guard at(",") else { throw error(expected: "')'") }
                while accept(",") {
                    if at(")") { break }
                    items.append(try starPattern())
                }
                try expect(")")
                return Self.node(.matchSequence, nil, items, from: s, end: lastEnd)
            case "[":
                advance()
                var items: [SyntaxNode] = []
                while !at("]") {
                    items.append(try starPattern())
                    if !accept(",") { break }
                }
                try expect("]")
                return Self.node(.matchSequence, nil, items, from: s, end: lastEnd)
            case "{":
                return try mappingPattern()
            default:
                break
            }
        default:
            break
        }
        throw error(expected: "a pattern")
    }

    /// `-1`, `1.5`, `1+2j`, `-1-2j`.
    private mutating func signedNumber() throws -> SyntaxNode {
        let s = tok.start
        let negative = accept("-")
        guard tok.kind == .number else { throw error(expected: "a number") }
        let t = tok
        advance()
        var value = numberNode(t)
        if negative { value = Self.node(.unaryOp, "-", [value], from: s, end: lastEnd) }
        if (at("+") || at("-")) && peek(1).kind == .number {
            let op = tok.text
            advance()
            let imag = numberNode(tok)
            guard imag.kind == .imaginary else { throw error("imaginary number required in complex literal") }
            advance()
            value = Self.node(.binOp, op, [value, imag], from: s, end: lastEnd)
        }
        return value
    }

    private mutating func mappingPattern() throws -> SyntaxNode {
        let s = tok.start
        advance()
        var items: [SyntaxNode] = []
        var sawRest = false
        while !at("}") {
            let k = tok.start
            if sawRest { throw error("double star pattern must be last in a mapping pattern") }
            if accept("**") {
                items.append(Self.node(.matchRest, try expectName(), from: k, end: lastEnd))
                sawRest = true
            } else {
                let key: SyntaxNode
                switch tok.kind {
                case .string: key = try strings()
                case .number: key = try signedNumber()
                case .op where at("-"): key = try signedNumber()
                case .name where at("None"):
                    advance()
                    key = Self.node(.none, from: k, end: lastEnd)
                case .name where at("True") || at("False"):
                    let text = tok.text
                    advance()
                    key = Self.node(text == "True" ? .true : .false, from: k, end: lastEnd)
                default:
                    var value = Self.node(.name, try expectName(), from: k, end: lastEnd)
                    guard at(".") else {
                        throw error("mapping pattern keys may only match literals and attribute lookups", at: k)
                    }
                    while accept(".") {
                        value = Self.node(.attribute, try expectName(), [value], from: k, end: lastEnd)
                    }
                    key = value
                }
                try expect(":")
                items.append(Self.node(.matchKeyValue, nil, [key, try asPattern()], from: k, end: lastEnd))
            }
            if !accept(",") { break }
        }
        try expect("}")
        return Self.node(.matchMapping, nil, items, from: s, end: lastEnd)
    }

    private mutating func classPattern(_ cls: SyntaxNode, from s: SourceLocation) throws -> SyntaxNode {
        advance()
        var children = [cls]
        var sawKeyword = false
        while !at(")") {
            let k = tok.start
            if tok.kind == .name && peek(1).is("=") {
                let name = try expectName()
                advance()
                children.append(Self.node(.matchKeyword, name, [try asPattern()], from: k, end: lastEnd))
                sawKeyword = true
            } else {
                if sawKeyword { throw error("positional patterns follow keyword patterns", at: k) }
                children.append(try asPattern())
            }
            if !accept(",") { break }
        }
        try expect(")")
        return Self.node(.matchClass, nil, children, from: s, end: lastEnd)
    }
}
