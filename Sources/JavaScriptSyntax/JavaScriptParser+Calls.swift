/// Member access, calls, optional chains, `new`, tagged templates and TypeScript's postfix forms.
extension JSParser {
    mutating func parseLeftHandSide() throws -> JSNode {
        let start = tok.start
        var expression: JSNode
        if at("new") {
            expression = try parseNew()
        } else {
            expression = try parsePrimary()
        }
        return try parseCallTail(expression, from: start, allowCalls: true)
    }

    /// `new callee[<T>][(args)]`, or `new.target`.
    mutating func parseNew() throws -> JSNode {
        let start = tok.start
        try advance()
        if at(".") {
            try advance()
            guard at("target") else { throw error(expected: "'target'") }
            try advance()
            return node(.metaProperty, "new.target", [], from: start)
        }
        try enter()
        defer { leave() }
        let calleeStart = tok.start
        var callee = at("new") ? try parseNew() : try parsePrimary()
        callee = try parseCallTail(callee, from: calleeStart, allowCalls: false)
        var typeArguments = empty
        if callee.kind == .instantiation {
            typeArguments = callee.children[1]
            callee = callee.children[0]
        }
        var arguments = empty
        if at("(") { arguments = try parseArguments() }
        return node(.new, nil, [callee, typeArguments, arguments], from: start)
    }

    /// Members, calls and the rest after `expression`; without calls for the callee of `new`.
    mutating func parseCallTail(_ first: JSNode, from start: Int, allowCalls: Bool) throws -> JSNode {
        var expression = first
        while true {
            guard tok.kind == .punct || tok.kind == .template else { return expression }
            if tok.kind == .template {
                try link()
                let template = try parseTemplate(tagged: true)
                expression = node(.taggedTemplate, nil, [expression, empty, template], from: start)
                continue
            }
            switch tok.text {
            case ".":
                try link()
                try advance()
                let property = tok.kind == .privateName ? try privateName() : try anyName()
                expression = node(.member, ".", [expression, property], from: start)
            case "?.":
                guard allowCalls else { return expression }
                try link()
                try advance()
                if at("(") {
                    let arguments = try parseArguments()
                    expression = node(.call, "?.", [expression, empty, arguments], from: start)
                } else if at("[") {
                    try advance()
                    let index = try parseExpressionAllowingIn()
                    try expect("]")
                    expression = node(.index, "?.", [expression, index], from: start)
                } else if ts && at("<") {
                    let typeArguments = try parseTypeArgumentsInExpression()
                    let arguments = try parseArguments()
                    expression = node(.call, "?.", [expression, typeArguments, arguments], from: start)
                } else {
                    let property = tok.kind == .privateName ? try privateName() : try anyName()
                    expression = node(.member, "?.", [expression, property], from: start)
                }
            case "[":
                try link()
                try advance()
                let index = try parseExpressionAllowingIn()
                try expect("]")
                expression = node(.index, nil, [expression, index], from: start)
            case "(":
                guard allowCalls else { return expression }
                try link()
                let arguments = try parseArguments()
                expression = node(.call, nil, [expression, empty, arguments], from: start)
            case "!" where ts && !tok.newlineBefore:
                try link()
                try advance()
                expression = node(.nonNull, nil, [expression], from: start)
            case "<" where ts:
                guard
                    let typeArguments = try speculate({ parser -> JSNode? in
                        let arguments = try parser.parseTypeArgumentsInExpression()
                        return parser.canFollowTypeArguments() ? arguments : nil
                    })
                else { return expression }
                try link()
                if allowCalls && at("(") {
                    let arguments = try parseArguments()
                    expression = node(.call, nil, [expression, typeArguments, arguments], from: start)
                } else if tok.kind == .template {
                    let template = try parseTemplate(tagged: true)
                    expression = node(.taggedTemplate, nil, [expression, typeArguments, template], from: start)
                } else if !allowCalls && at("(") {
                    // `new C<T>(...)`: the caller reads the arguments; keep the type arguments on it.
                    expression = node(.instantiation, nil, [expression, typeArguments], from: start)
                    return expression
                } else {
                    expression = node(.instantiation, nil, [expression, typeArguments], from: start)
                }
            default:
                return expression
            }
        }
    }

    /// TypeScript's rule for `f<T>` in an expression: type arguments only when what follows cannot
    /// continue an expression the other way (`a < b > c` stays two comparisons).
    func canFollowTypeArguments() -> Bool {
        if tok.kind == .template { return true }
        if tok.kind == .punct {
            switch tok.text {
            case "(": return true
            case "<", ">", "+", "-": return false
            default: break
            }
        }
        if tok.newlineBefore || tok.kind == .end { return true }
        if binaryPrecedence(tok) != nil { return true }
        return !startsExpression(tok)
    }

    /// Whether `t` can begin an expression.
    func startsExpression(_ t: JSToken) -> Bool {
        switch t.kind {
        case .name:
            return !["in", "of", "instanceof", "as", "satisfies"].contains(t.text) || t.escaped
        case .number, .bigint, .string, .template, .regex, .privateName: return true
        case .punct:
            return ["(", "[", "{", "!", "~", "+", "-", "++", "--", "/", "/=", "<", "@", "...", "#"].contains(t.text)
        default: return false
        }
    }

    mutating func privateName() throws -> JSNode {
        let t = tok
        try advance()
        return JSNode(.privateName, text: t.text, range: lines.range(t.start, t.end))
    }

    mutating func parseExpressionAllowingIn() throws -> JSNode {
        let savedIn = inAllowed
        let savedConsequent = inConditionalConsequent
        inAllowed = true
        inConditionalConsequent = false
        defer {
            inAllowed = savedIn
            inConditionalConsequent = savedConsequent
        }
        return try parseExpression()
    }

    mutating func parseAssignmentAllowingIn() throws -> JSNode {
        let savedIn = inAllowed
        let savedConsequent = inConditionalConsequent
        inAllowed = true
        inConditionalConsequent = false
        defer {
            inAllowed = savedIn
            inConditionalConsequent = savedConsequent
        }
        return try parseAssignment()
    }

    /// `(a, ...b)`.
    mutating func parseArguments() throws -> JSNode {
        let start = tok.start
        try expect("(")
        var items: [JSNode] = []
        while !at(")") {
            if atEllipsis(closedBy: ")") {
                items.append(try parseEllipsis())
            } else if at("...") {
                let spreadStart = tok.start
                try advance()
                let argument = try parseAssignmentAllowingIn()
                items.append(node(.spread, nil, [argument], from: spreadStart))
            } else {
                items.append(try parseAssignmentAllowingIn())
            }
            if !at(")") { try expect(",") }
        }
        try advance()
        return node(.arguments, nil, items, from: start)
    }
}
