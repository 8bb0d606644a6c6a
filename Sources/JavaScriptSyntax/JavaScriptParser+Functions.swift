/// Functions, arrow functions, parameters and binding patterns.
extension JSParser {
    /// `[async] function [*] [name] ...` as a declaration or an expression.
    mutating func parseFunction(declaration: Bool, modifiers preceding: [JSNode]) throws -> JSNode {
        let start = preceding.first?.range.start.offset ?? tok.start
        var modifiers = preceding
        if at("async") {
            modifiers.append(modifier(tok))
            try advance()
        }
        try expect("function")
        if at("*") {
            modifiers.append(modifier(tok))
            try advance()
        }
        let isAsync = modifiers.contains { $0.text == "async" }
        let isGenerator = modifiers.contains { $0.text == "*" }
        var name = empty
        if tok.kind == .name && !at("(") {
            // `yield` and `await` name a function outside generators and async functions.
            name = try anyName()
        }
        let modifierList = JSNode(.modifiers, children: modifiers, range: lines.range(start, start))
        let parts = try parseFunctionParts(isAsync: isAsync, isGenerator: isGenerator, bodyOptional: ts && declaration)
        return node(
            declaration ? .functionDeclaration : .functionExpression, name.text,
            [modifierList, name, parts.typeParameters, parts.parameters, parts.returnType, parts.body], from: start)
    }

    /// Type parameters, parameters, return type and body of any function-like construct. Without a body
    /// (an overload, an abstract or `declare`d member) when `bodyOptional`.
    mutating func parseFunctionParts(isAsync: Bool, isGenerator: Bool, bodyOptional: Bool) throws
        -> (typeParameters: JSNode, parameters: JSNode, returnType: JSNode, body: JSNode)
    {
        try enter()
        defer { leave() }
        let saved = (inFunction, inAsync, inGenerator, inAllowed, inConditionalConsequent)
        defer { (inFunction, inAsync, inGenerator, inAllowed, inConditionalConsequent) = saved }
        inFunction = true
        inAsync = isAsync
        inGenerator = isGenerator
        inAllowed = true
        inConditionalConsequent = false
        let typeParameters = ts && at("<") ? try parseTypeParameters() : empty
        let parameters = try parseParameters()
        let returnType = ts && at(":") ? try parseReturnTypeAnnotation() : empty
        var body = empty
        if at("{") {
            body = try parseBlock()
        } else if bodyOptional {
            try consumeSemicolon()
        } else {
            throw error(expected: "'{'")
        }
        return (typeParameters, parameters, returnType, body)
    }

    mutating func parseParameters() throws -> JSNode {
        let start = tok.start
        try expect("(")
        var items: [JSNode] = []
        while !at(")") {
            items.append(try parseParameter())
            if !at(")") { try expect(",") }
        }
        try advance()
        return node(.parameters, nil, items, from: start)
    }

    static let parameterModifiers: Set<String> = ["public", "private", "protected", "readonly", "override"]

    /// One parameter; in a pattern, `...` alone is the ellipsis (no ``JSNodeKind/parameter`` around it).
    mutating func parseParameter() throws -> JSNode {
        if atEllipsis(closedBy: ")") { return try parseEllipsis() }
        let start = tok.start
        let decorators = at("@") ? try parseDecorators() : emptyList(.decorators)
        var modifiers: [JSNode] = []
        while ts, tok.kind == .name, JSParser.parameterModifiers.contains(tok.text), let next = peek(),
            next.kind == .name || next.is("{") || next.is("[") || next.is("...")
        {
            modifiers.append(modifier(tok))
            try advance()
        }
        let pattern: JSNode
        if at("...") {
            let restStart = tok.start
            try advance()
            let target = try parseBindingTarget()
            pattern = node(.restElement, nil, [target], from: restStart)
        } else if ts && at("this") {
            let t = tok
            try advance()
            pattern = JSNode(.this, range: lines.range(t.start, t.end))
        } else {
            pattern = try parseBindingTarget()
        }
        if ts && at("?") {
            modifiers.append(modifier(tok))
            try advance()
        }
        let modifierList = JSNode(.modifiers, children: modifiers, range: lines.range(start, start))
        let type = try parseOptionalTypeAnnotation()
        let value = try accept("=") ? try parseAssignmentAllowingIn() : empty
        return node(.parameter, nil, [decorators, modifierList, pattern, type, value], from: start)
    }

    /// A name, `[array]` or `{object}` pattern.
    mutating func parseBindingTarget() throws -> JSNode {
        let start = tok.start
        if at("[") {
            try advance()
            try enter()
            defer { leave() }
            var elements: [JSNode] = []
            while !at("]") {
                if at(",") {
                    try advance()
                    elements.append(JSNode(.elision, range: lines.range(prevEnd - 1, prevEnd - 1)))
                    continue
                }
                elements.append(try parseBindingElement())
                if !at("]") { try expect(",") }
            }
            try advance()
            return node(.arrayPattern, nil, elements, from: start)
        }
        if at("{") {
            try advance()
            try enter()
            defer { leave() }
            var properties: [JSNode] = []
            while !at("}") {
                let propertyStart = tok.start
                if at("...") {
                    try advance()
                    let target = try parseBindingTarget()
                    properties.append(node(.restElement, nil, [target], from: propertyStart))
                } else {
                    let keyToken = tok
                    let (key, _) = try parsePropertyKey()
                    if try accept(":") {
                        let value = try parseBindingElement()
                        properties.append(node(.objectProperty, nil, [key, value], from: propertyStart))
                    } else {
                        guard keyToken.kind == .name else { throw error(expected: "':'") }
                        var value = key
                        if try accept("=") {
                            let initializer = try parseAssignmentAllowingIn()
                            value = node(.assignmentPattern, nil, [key, initializer], from: propertyStart)
                        }
                        properties.append(node(.objectProperty, "shorthand", [key, value], from: propertyStart))
                    }
                }
                if !at("}") { try expect(",") }
            }
            try advance()
            return node(.objectPattern, nil, properties, from: start)
        }
        guard tok.kind == .name, !JSParser.reserved.contains(tok.text) || tok.escaped else {
            throw error(expected: "a binding name or pattern")
        }
        return try anyName()
    }

    /// A pattern element: a target with an optional `= default`, or `...rest`.
    mutating func parseBindingElement() throws -> JSNode {
        let start = tok.start
        if at("...") {
            try advance()
            let target = try parseBindingTarget()
            return node(.restElement, nil, [target], from: start)
        }
        let target = try parseBindingTarget()
        guard try accept("=") else { return target }
        let value = try parseAssignmentAllowingIn()
        return node(.assignmentPattern, nil, [target, value], from: start)
    }

    // MARK: Arrow functions

    /// An arrow function at the current token, or nil (nothing consumed) when there is none.
    mutating func parseArrowIfPresent() throws -> JSNode? {
        let start = tok.start
        if tok.kind == .name, atIdentifier || tok.text == "async", let next = peek(), next.is("=>"), !next.newlineBefore {
            let parameterName = try anyName()
            let parameter = JSNode(
                .parameter,
                children: [
                    JSNode(.decorators, range: parameterName.range), JSNode(.modifiers, range: parameterName.range),
                    parameterName, JSNode(.empty, range: parameterName.range), JSNode(.empty, range: parameterName.range),
                ], range: parameterName.range)
            let parameters = JSNode(.parameters, children: [parameter], range: parameterName.range)
            return try parseArrowBody(
                start: start, modifiers: emptyList(.modifiers), typeParameters: empty, parameters: parameters,
                returnType: empty, isAsync: false)
        }
        if at("async") {
            guard let next = peek(), !next.newlineBefore, next.is("(") || (ts && next.is("<")) || next.kind == .name else {
                return nil
            }
        } else if at("<") {
            guard ts else { return nil }
            if jsx {
                // In .tsx, `<T>(x) =>` is an element; `<T,>` and `<T extends U>` start type parameters.
                guard let next = peek(), next.kind == .name, let third = peek(2),
                    third.is(",") || third.is("extends") || (next.text == "const" && third.kind == .name)
                else { return nil }
            }
        } else if !at("(") {
            return nil
        }
        if failedArrows.contains(start) { return nil }
        let inConsequent = inConditionalConsequent
        guard
            let head = try speculate({ parser -> (JSNode, JSNode, JSNode, JSNode, Bool)? in
                try parser.parseArrowHead()
            })
        else {
            failedArrows.insert(start)
            return nil
        }
        let (modifiers, typeParameters, parameters, returnType, isAsync) = head
        if inConsequent && !returnType.isEmpty {
            // `c ? (a): b => d : e`: the return type is only one when the arrow is followed by `:`.
            let saved = snapshot
            let arrow = try parseArrowBody(
                start: start, modifiers: modifiers, typeParameters: typeParameters, parameters: parameters,
                returnType: returnType, isAsync: isAsync)
            if at(":") { return arrow }
            restore(saved)
            failedArrows.insert(start)
            return nil
        }
        return try parseArrowBody(
            start: start, modifiers: modifiers, typeParameters: typeParameters, parameters: parameters,
            returnType: returnType, isAsync: isAsync)
    }

    /// `[async] [<T>] (params)[: R] =>`, or nil; the `=>` is consumed.
    mutating func parseArrowHead() throws -> (JSNode, JSNode, JSNode, JSNode, Bool)? {
        let start = tok.start
        var modifiers: [JSNode] = []
        if at("async") {
            modifiers.append(modifier(tok))
            try advance()
        }
        let isAsync = !modifiers.isEmpty
        let saved = (inAsync, inGenerator)
        defer { (inAsync, inGenerator) = saved }
        inAsync = isAsync
        inGenerator = false
        let typeParameters = ts && at("<") ? try parseTypeParameters() : empty
        let parameters: JSNode
        if at("(") {
            parameters = try parseParameters()
        } else if isAsync && atIdentifier && typeParameters.isEmpty {
            let name = try identifier()
            let parameter = JSNode(
                .parameter,
                children: [
                    JSNode(.decorators, range: name.range), JSNode(.modifiers, range: name.range), name,
                    JSNode(.empty, range: name.range), JSNode(.empty, range: name.range),
                ], range: name.range)
            parameters = JSNode(.parameters, children: [parameter], range: name.range)
        } else {
            return nil
        }
        var returnType = empty
        if ts && at(":") {
            returnType = try parseReturnTypeAnnotation()
        }
        guard at("=>"), !tok.newlineBefore else { return nil }
        let modifierList = JSNode(.modifiers, children: modifiers, range: lines.range(start, start))
        return (modifierList, typeParameters, parameters, returnType, isAsync)
    }

    /// `=> body` after an arrow's head (the current token is `=>`).
    mutating func parseArrowBody(
        start: Int, modifiers: JSNode, typeParameters: JSNode, parameters: JSNode, returnType: JSNode, isAsync: Bool
    ) throws -> JSNode {
        try expect("=>")
        let saved = (inFunction, inAsync, inGenerator, inConditionalConsequent)
        defer { (inFunction, inAsync, inGenerator, inConditionalConsequent) = saved }
        inFunction = true
        inAsync = isAsync
        inGenerator = false
        let body: JSNode
        if at("{") {
            let savedIn = inAllowed
            inAllowed = true
            inConditionalConsequent = false
            defer { inAllowed = savedIn }
            body = try parseBlock()
        } else {
            body = try parseAssignment()
        }
        return node(.arrowFunction, nil, [modifiers, typeParameters, parameters, returnType, body], from: start)
    }
}
