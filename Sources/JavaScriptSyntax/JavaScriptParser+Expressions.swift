/// Expressions: sequences, assignment, conditional, binary operators, unary and update operators.
extension JSParser {
    mutating func parseExpression() throws -> JSNode {
        let start = tok.start
        let first = try parseAssignment()
        guard at(",") else { return first }
        var items = [first]
        while try accept(",") { items.append(try parseAssignment()) }
        return node(.sequence, nil, items, from: start)
    }

    static let assignmentOperators: Set<String> = [
        "=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??=",
    ]

    mutating func parseAssignment() throws -> JSNode {
        try enter()
        let savedLinks = chainLinks
        defer {
            leave()
            chainLinks = savedLinks
        }
        let start = tok.start
        if let arrow = try parseArrowIfPresent() { return arrow }
        if tok.kind == .name && !tok.escaped && tok.text == "yield" && inGenerator { return try parseYield() }
        let left = try parseConditional()
        if tok.kind == .punct && tok.text == ">" { tok = lexer.rescanGreater(tok) }
        guard tok.kind == .punct, JSParser.assignmentOperators.contains(tok.text) else { return left }
        let op = tok.text
        let target = op == "=" ? try toPattern(left) : try checkSimpleTarget(left)
        try advance()
        let value = try parseAssignment()
        return node(.assignment, op, [target, value], from: start)
    }

    mutating func parseYield() throws -> JSNode {
        let start = tok.start
        try advance()
        var delegate: String?
        if at("*") && !tok.newlineBefore {
            delegate = "*"
            try advance()
        }
        var argument = empty
        let ends = [")", "]", "}", ",", ";", ":"].contains { at($0) } || tok.kind == .end || (at("in") && !inAllowed)
        if delegate != nil || (!tok.newlineBefore && !ends) { argument = try parseAssignment() }
        return node(.yield, delegate, [argument], from: start)
    }

    mutating func parseConditional() throws -> JSNode {
        let start = tok.start
        let test = try parseBinary(minimum: 0)
        guard at("?") else { return test }
        try advance()
        let savedIn = inAllowed
        let savedConsequent = inConditionalConsequent
        inAllowed = true
        inConditionalConsequent = true
        let consequent = try parseAssignment()
        inAllowed = savedIn
        inConditionalConsequent = savedConsequent
        try expect(":")
        let alternate = try parseAssignment()
        return node(.conditional, nil, [test, consequent, alternate], from: start)
    }

    /// Binding power of a binary operator token, or nil.
    func binaryPrecedence(_ t: JSToken) -> Int? {
        if t.kind == .name && !t.escaped {
            switch t.text {
            case "instanceof": return 7
            case "in": return inAllowed ? 7 : nil
            case "as", "satisfies": return ts && !t.newlineBefore ? 7 : nil
            default: return nil
            }
        }
        guard t.kind == .punct else { return nil }
        switch t.text {
        case "??", "||": return 1
        case "&&": return 2
        case "|": return 3
        case "^": return 4
        case "&": return 5
        case "==", "!=", "===", "!==": return 6
        case "<", ">", "<=", ">=": return 7
        case "<<", ">>", ">>>": return 8
        case "+", "-": return 9
        case "*", "/", "%": return 10
        case "**": return 11
        default: return nil
        }
    }

    mutating func parseBinary(minimum: Int) throws -> JSNode {
        let start = tok.start
        var left = try parseUnary()
        while true {
            if tok.kind == .punct && tok.text == ">" { tok = lexer.rescanGreater(tok) }
            guard let precedence = binaryPrecedence(tok), precedence > minimum else { return left }
            let op = tok
            try link()
            try advance()
            if op.kind == .name && (op.text == "as" || op.text == "satisfies") {
                let type: JSNode
                if op.text == "as" && at("const") {
                    let t = tok
                    try advance()
                    type = JSNode(
                        .typeReference, text: "const", children: [empty], range: lines.range(t.start, t.end))
                } else {
                    type = try parseType()
                }
                left = node(op.text == "as" ? .asExpression : .satisfiesExpression, nil, [left, type], from: start)
                continue
            }
            // `**` is right-associative: its right side binds operators of its own level.
            let right = try parseBinary(minimum: op.text == "**" ? precedence - 1 : precedence)
            let kind: JSNodeKind = op.text == "&&" || op.text == "||" || op.text == "??" ? .logical : .binary
            left = node(kind, op.text, [left, right], from: start)
        }
    }

    mutating func parseUnary() throws -> JSNode {
        let start = tok.start
        if tok.kind == .punct {
            switch tok.text {
            case "!", "~", "+", "-":
                let op = tok.text
                try advance()
                try enter()
                defer { leave() }
                let argument = try parseUnary()
                return node(.unary, op, [argument], from: start)
            case "++", "--":
                let op = tok.text
                try advance()
                try enter()
                defer { leave() }
                let argument = try checkSimpleTarget(try parseUnary())
                return node(.prefixUpdate, op, [argument], from: start)
            case "<" where ts && !jsx:
                // `<T>expr`, a type assertion (.ts only; arrow functions were tried before).
                try advance()
                let type = try parseType()
                try expect(">")
                try enter()
                defer { leave() }
                let expression = try parseUnary()
                return node(.typeAssertion, nil, [type, expression], from: start)
            default: break
            }
        } else if tok.kind == .name && !tok.escaped {
            switch tok.text {
            case "typeof", "void", "delete":
                let op = tok.text
                try advance()
                try enter()
                defer { leave() }
                let argument = try parseUnary()
                return node(.unary, op, [argument], from: start)
            case "await" where inAsync || (!inFunction && startsAwaitOperand()):
                try advance()
                try enter()
                defer { leave() }
                let argument = try parseUnary()
                return node(.await, nil, [argument], from: start)
            default: break
            }
        }
        let expression = try parseLeftHandSide()
        if tok.kind == .punct && (tok.text == "++" || tok.text == "--") && !tok.newlineBefore {
            let op = tok.text
            let target = try checkSimpleTarget(expression)
            try advance()
            return node(.postfixUpdate, op, [target], from: start)
        }
        return expression
    }

    /// At the top level, `await` is an operator when an operand follows (a module's top-level await);
    /// `await` alone, or followed by an operator, is a script's identifier.
    func startsAwaitOperand() -> Bool {
        guard let next = peek(), !next.newlineBefore || next.kind == .name else { return false }
        if next.kind == .punct {
            return ["(", "[", "{", "!", "~", "+", "-", "/", "<", "++", "--", "/="].contains(next.text)
        }
        return next.kind != .end && !(next.kind == .name && ["in", "of", "instanceof", "as"].contains(next.text))
    }

    /// The target of `++`, `--` and compound assignment: a name or member, parenthesised or not.
    mutating func checkSimpleTarget(_ expression: JSNode) throws -> JSNode {
        switch expression.kind {
        case .member, .index:
            // `a?.b = 1` and `a?.b.c = 1` assign through an optional chain: not allowed.
            var object: JSNode? = expression
            while let current = object, current.kind == .member || current.kind == .index || current.kind == .call {
                if current.text == "?." {
                    throw error("invalid assignment target: an optional chain", .invalidTarget, at: expression.range.start.offset)
                }
                object = current.children.first
            }
            return expression
        case .identifier, .nonNull, .asExpression, .satisfiesExpression, .typeAssertion:
            return expression
        case .parenthesized:
            if let inner = expression.children.first { _ = try checkSimpleTarget(inner) }
            return expression
        default:
            throw error("invalid assignment target", .invalidTarget, at: expression.range.start.offset)
        }
    }

    /// An expression read as an assignment target: object and array literals become patterns.
    mutating func toPattern(_ expression: JSNode) throws -> JSNode {
        var result = expression
        switch expression.kind {
        case .object:
            result.kind = .objectPattern
            result.children = try expression.children.map { property in
                switch property.kind {
                case .objectProperty:
                    if property.text == "shorthand" { coverInitializers.remove(property.range.start.offset) }
                    var converted = property
                    converted.children = [property.children[0], try toPattern(property.children[1])]
                    return converted
                case .spread:
                    var rest = property
                    rest.kind = .restElement
                    rest.children = [try toPattern(property.children[0])]
                    return rest
                default:
                    throw error("invalid destructuring target", .invalidTarget, at: property.range.start.offset)
                }
            }
        case .array:
            result.kind = .arrayPattern
            result.children = try expression.children.map { element in
                switch element.kind {
                case .elision: return element
                case .spread:
                    var rest = element
                    rest.kind = .restElement
                    rest.children = [try toPattern(element.children[0])]
                    return rest
                default: return try toPattern(element)
                }
            }
        case .assignment where expression.text == "=":
            result.kind = .assignmentPattern
            result.text = nil
            result.children = [try toPattern(expression.children[0]), expression.children[1]]
        case .assignmentPattern, .objectPattern, .arrayPattern, .restElement:
            return expression
        default:
            return try checkSimpleTarget(expression)
        }
        return result
    }
}
