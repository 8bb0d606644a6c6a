/// Classes: heritage, members (methods, accessors, fields, static blocks, index signatures) and decorators.
extension JSParser {
    mutating func parseClass(declaration: Bool, decorators: JSNode, modifiers preceding: [JSNode]) throws -> JSNode {
        let start =
            !decorators.children.isEmpty
            ? decorators.range.start.offset : preceding.first?.range.start.offset ?? tok.start
        try expect("class")
        var name = empty
        if atIdentifier && !at("implements") {
            name = try identifier()
        }
        let typeParameters = ts && at("<") ? try parseTypeParameters() : empty
        var superClass = empty
        var superTypeArguments = empty
        if try accept("extends") {
            let superStart = tok.start
            let callee = at("new") ? try parseNew() : try parsePrimary()
            superClass = try parseCallTail(callee, from: superStart, allowCalls: true)
            if superClass.kind == .instantiation {
                superTypeArguments = superClass.children[1]
                superClass = superClass.children[0]
            }
            if ts && at("<") { superTypeArguments = try parseTypeArguments() }
        }
        let implementsStart = tok.start
        var implemented: [JSNode] = []
        if ts && at("implements") {
            try advance()
            repeat { implemented.append(try parseTypeReferenceOrExpressionType()) } while try accept(",")
        }
        let implements = node(.heritage, nil, implemented, from: implementsStart)
        let body = try parseClassBody()
        let modifierList = JSNode(.modifiers, children: preceding, range: lines.range(start, start))
        return node(
            declaration ? .classDeclaration : .classExpression, name.text,
            [decorators, modifierList, name, typeParameters, superClass, superTypeArguments, implements, body], from: start)
    }

    mutating func parseClassBody() throws -> JSNode {
        let start = tok.start
        try expect("{")
        try enter()
        defer { leave() }
        var members: [JSNode] = []
        while !at("}") {
            if tok.kind == .end { throw error(expected: "'}'") }
            if try accept(";") { continue }
            if patternMode && at("...") {
                // A pattern's class body: any members.
                members.append(try parseEllipsis())
                continue
            }
            members.append(try parseClassMember())
        }
        try advance()
        return node(.classBody, nil, members, from: start)
    }

    static let classModifiers: Set<String> = [
        "static", "public", "private", "protected", "readonly", "abstract", "override", "declare", "accessor", "async",
        "get", "set",
    ]

    /// Whether the current word is a class member modifier: a property name must follow it.
    func atClassModifier() -> Bool {
        guard tok.kind == .name, !tok.escaped, JSParser.classModifiers.contains(tok.text), let next = peek() else {
            return false
        }
        if tok.text == "async" && next.newlineBefore { return false }
        if !ts && !["static", "async", "get", "set", "accessor"].contains(tok.text) { return false }
        switch next.kind {
        case .name, .string, .number, .bigint, .privateName: return true
        case .punct: return next.text == "[" || next.text == "*"
        default: return false
        }
    }

    mutating func parseClassMember() throws -> JSNode {
        let start = tok.start
        let decorators = at("@") ? try parseDecorators() : emptyList(.decorators)
        if at("static") && peekIs("{") {
            try advance()
            let saved = (inFunction, inAsync, inGenerator)
            defer { (inFunction, inAsync, inGenerator) = saved }
            (inFunction, inAsync, inGenerator) = (true, false, false)
            let block = try parseBlock()
            return node(.staticBlock, nil, [block], from: start)
        }
        var modifiers: [JSNode] = []
        while atClassModifier() {
            modifiers.append(modifier(tok))
            try advance()
        }
        if at("*") {
            modifiers.append(modifier(tok))
            try advance()
        }
        if ts && at("["), let next = peek(), next.kind == .name, peek(2)?.is(":") ?? false {
            let modifierList = JSNode(.modifiers, children: modifiers, range: lines.range(start, start))
            let signature = try parseIndexSignature(start: start, modifiers: modifierList)
            try consumeMemberSeparator()
            return signature
        }
        let (key, name) = try parsePropertyKey()
        if ts && (at("?") || at("!")) {
            modifiers.append(modifier(tok))
            try advance()
        }
        let modifierList = JSNode(.modifiers, children: modifiers, range: lines.range(start, start))
        if at("(") || at("<") {
            return try parseMethodRest(start: start, name: name, decorators: decorators, modifiers: modifierList, key: key)
        }
        let type = try parseOptionalTypeAnnotation()
        var value = empty
        if try accept("=") {
            let saved = (inFunction, inAsync, inGenerator)
            defer { (inFunction, inAsync, inGenerator) = saved }
            (inFunction, inAsync, inGenerator) = (true, false, false)
            value = try parseAssignmentAllowingIn()
        }
        try consumeSemicolon()
        return node(.property, name, [decorators, modifierList, key, type, value], from: start)
    }

    /// The rest of a method after its key: parameters, return type, body (optional in TypeScript).
    mutating func parseMethodRest(start: Int, name: String?, decorators: JSNode, modifiers: JSNode, key: JSNode) throws
        -> JSNode
    {
        let words = modifiers.children.compactMap(\.text)
        let parts = try parseFunctionParts(
            isAsync: words.contains("async"), isGenerator: words.contains("*"), bodyOptional: ts)
        return node(
            .method, name,
            [decorators, modifiers, key, parts.typeParameters, parts.parameters, parts.returnType, parts.body], from: start)
    }

    /// `@a`, `@a.b`, `@a(args)`, `@(expr)` repeated.
    mutating func parseDecorators() throws -> JSNode {
        let start = tok.start
        var items: [JSNode] = []
        while at("@") {
            let decoratorStart = tok.start
            try advance()
            let expressionStart = tok.start
            var expression: JSNode
            if at("(") {
                expression = try parseParenthesized()
            } else {
                expression = try anyName()
                while at(".") {
                    try advance()
                    let property = tok.kind == .privateName ? try privateName() : try anyName()
                    expression = node(.member, ".", [expression, property], from: expressionStart)
                }
            }
            var typeArguments = empty
            if ts && at("<") { typeArguments = try parseTypeArguments() }
            if at("(") {
                let arguments = try parseArguments()
                expression = node(.call, nil, [expression, typeArguments, arguments], from: expressionStart)
            }
            items.append(node(.decorator, nil, [expression], from: decoratorStart))
        }
        return node(.decorators, nil, items, from: start)
    }
}
