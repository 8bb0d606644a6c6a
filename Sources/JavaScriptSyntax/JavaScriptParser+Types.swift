/// TypeScript types: annotations, type parameters and arguments, and every type form.
extension JSParser {
    /// `: Type` when present, else ``JSNodeKind/empty``.
    mutating func parseOptionalTypeAnnotation() throws -> JSNode {
        guard ts && at(":") else { return empty }
        try advance()
        return try parseType()
    }

    /// `: Type` of a function, where `x is T`, `asserts x [is T]` may stand.
    mutating func parseReturnTypeAnnotation() throws -> JSNode {
        try expect(":")
        return try parseReturnType()
    }

    mutating func parseReturnType() throws -> JSNode {
        let start = tok.start
        if at("asserts"), let next = peek(), next.kind == .name, !next.newlineBefore {
            try advance()
            let subject = try anyName()
            var type = empty
            if at("is") && !tok.newlineBefore {
                try advance()
                type = try parseType()
            }
            return node(.typePredicate, "asserts", [subject, type], from: start)
        }
        if tok.kind == .name, let next = peek(), next.is("is"), !next.newlineBefore {
            let subject = try anyName()
            try advance()
            let type = try parseType()
            return node(.typePredicate, nil, [subject, type], from: start)
        }
        return try parseType()
    }

    /// `<T extends U = V, ...>`.
    mutating func parseTypeParameters() throws -> JSNode {
        let start = tok.start
        try expect("<")
        var items: [JSNode] = []
        while !at(">") {
            let parameterStart = tok.start
            var modifiers: [JSNode] = []
            while tok.kind == .name, ["in", "out", "const"].contains(tok.text), let next = peek(), next.kind == .name {
                modifiers.append(modifier(tok))
                try advance()
            }
            let name = try anyName()
            var constraint = empty
            if try accept("extends") { constraint = try parseType() }
            var defaultType = empty
            if try accept("=") { defaultType = try parseType() }
            let modifierList = JSNode(.modifiers, children: modifiers, range: lines.range(parameterStart, parameterStart))
            items.append(node(.typeParameter, name.text, [modifierList, constraint, defaultType], from: parameterStart))
            if !at(">") { try expect(",") }
        }
        try advance()
        return node(.typeParameters, nil, items, from: start)
    }

    /// `<A, B>` in a type.
    mutating func parseTypeArguments() throws -> JSNode {
        let start = tok.start
        try expect("<")
        var items: [JSNode] = []
        while !at(">") {
            items.append(try parseType())
            if !at(">") { try expect(",") }
        }
        try advance()
        return node(.typeArguments, nil, items, from: start)
    }

    /// `<A, B>` after an expression: like ``parseTypeArguments()`` but never empty.
    mutating func parseTypeArgumentsInExpression() throws -> JSNode {
        let arguments = try parseTypeArguments()
        if arguments.children.isEmpty { throw error(expected: "a type") }
        return arguments
    }

    // MARK: Types

    mutating func parseType() throws -> JSNode {
        try enter()
        defer { leave() }
        let start = tok.start
        if let function = try parseFunctionTypeIfPresent() { return function }
        let check = try parseUnionType()
        guard at("extends") && !tok.newlineBefore && !noConditionalTypes else { return check }
        try advance()
        noConditionalTypes = true
        let extendsType = try parseFunctionTypeIfPresent() ?? parseUnionType()
        noConditionalTypes = false
        try expect("?")
        let whenTrue = try parseType()
        try expect(":")
        let whenFalse = try parseType()
        return node(.conditionalType, nil, [check, extendsType, whenTrue, whenFalse], from: start)
    }

    /// `(a: A) => R`, `<T>(...) => R`, `new (...) => R`, `abstract new (...) => R`, or nil.
    mutating func parseFunctionTypeIfPresent() throws -> JSNode? {
        let start = tok.start
        var modifiers: [JSNode] = []
        var constructor = false
        if at("abstract") && peekIs("new") {
            modifiers.append(modifier(tok))
            try advance()
        }
        if at("new") {
            constructor = true
            try advance()
        } else if at("(") {
            // A parenthesised type unless a parameter list and `=>` follow.
            guard try looksLikeFunctionType() else { return nil }
        } else if !at("<") {
            return nil
        }
        let saved = noConditionalTypes
        noConditionalTypes = false
        defer { noConditionalTypes = saved }
        let typeParameters = at("<") ? try parseTypeParameters() : empty
        let parameters = try parseParameters()
        try expect("=>")
        let returnType = try parseReturnType()
        let modifierList = JSNode(.modifiers, children: modifiers, range: lines.range(start, start))
        return node(
            .functionType, constructor ? "new" : nil, [modifierList, typeParameters, parameters, returnType], from: start)
    }

    /// At `(`: whether a function type's parameter list starts here (TypeScript's own lookahead).
    mutating func looksLikeFunctionType() throws -> Bool {
        guard let next = peek() else { return false }
        if next.is(")") || next.is("...") { return true }
        if next.kind == .name || next.is("this") {
            guard let third = peek(2) else { return false }
            if third.is(":") || third.is(",") || third.is("?") || third.is("=") { return true }
            if third.is(")"), let fourth = peek(3), fourth.is("=>") { return true }
            // `(public x)`: a modifier before the name.
            if JSParser.parameterModifiers.contains(next.text) && third.kind == .name { return true }
            return false
        }
        if next.is("{") || next.is("[") {
            // A destructured parameter: scan to the matching bracket and look for `:`, `,`, `=` or `)` `=>`.
            var copy = lexer
            var level = 0
            var count = 0
            // The tokens read ahead count against the parser's bound, as any re-reading does.
            defer { lexer.scanned += count }
            while count < 2000, let t = try? copy.next(), t.kind != .end {
                count += 1
                if t.is("{") || t.is("[") || t.is("(") { level += 1 }
                if t.is("}") || t.is("]") || t.is(")") {
                    level -= 1
                    if level == 0 {
                        guard let after = try? copy.next() else { return false }
                        if after.is(":") || after.is(",") || after.is("=") || after.is("?") { return true }
                        if after.is(")"), let arrow = try? copy.next() { return arrow.is("=>") }
                        return false
                    }
                }
            }
        }
        return false
    }

    mutating func parseUnionType() throws -> JSNode {
        let start = tok.start
        let leading = try accept("|")
        var items = [try parseIntersectionType()]
        while at("|") {
            try advance()
            items.append(try parseIntersectionType())
        }
        if items.count == 1 && !leading { return items[0] }
        return items.count == 1 ? items[0] : node(.unionType, nil, items, from: start)
    }

    mutating func parseIntersectionType() throws -> JSNode {
        let start = tok.start
        _ = try accept("&")
        var items = [try parseTypeOperator()]
        while at("&") {
            try advance()
            items.append(try parseTypeOperator())
        }
        return items.count == 1 ? items[0] : node(.intersectionType, nil, items, from: start)
    }

    mutating func parseTypeOperator() throws -> JSNode {
        let start = tok.start
        if tok.kind == .name, ["keyof", "unique", "readonly"].contains(tok.text), let next = peek(),
            !next.is(")") && !next.is(",") && !next.is("]") && !next.is(">") && !next.is("=") && !next.is(";")
                && !next.is("|") && !next.is("&") && !next.is("}") && next.kind != .end
                && !(next.is("?") || next.is(":"))
        {
            let op = tok.text
            try advance()
            try enter()
            defer { leave() }
            let operand = try parseTypeOperator()
            return node(.typeOperator, op, [operand], from: start)
        }
        if at("infer"), let next = peek(), next.kind == .name {
            try advance()
            let name = try anyName()
            var constraint = empty
            if at("extends") && !noConditionalTypes {
                // `infer U extends C ?`: a conditional type, not a constraint, when `?` follows the type.
                if let parsed = try speculate({ parser -> JSNode? in
                    try parser.advance()
                    parser.noConditionalTypes = true
                    defer { parser.noConditionalTypes = false }
                    let type = try parser.parseUnionType()
                    return parser.at("?") ? nil : type
                }) {
                    constraint = parsed
                }
            } else if at("extends") {
                try advance()
                constraint = try parseUnionType()
            }
            return node(.inferType, name.text, [constraint], from: start)
        }
        return try parsePostfixType()
    }

    mutating func parsePostfixType() throws -> JSNode {
        let start = tok.start
        var type = try parsePrimaryType()
        while at("[") && !tok.newlineBefore {
            try advance()
            if try accept("]") {
                type = node(.arrayType, nil, [type], from: start)
            } else {
                let index = try parseType()
                try expect("]")
                type = node(.indexedAccessType, nil, [type, index], from: start)
            }
        }
        return type
    }

    mutating func parsePrimaryType() throws -> JSNode {
        let start = tok.start
        let t = tok
        switch t.kind {
        case .name:
            switch t.text {
            case "typeof":
                try advance()
                let subject: JSNode
                if at("import") {
                    subject = try parseImportType()
                } else {
                    subject = try parseEntityNameExpression()
                }
                let typeArguments = at("<") && !tok.newlineBefore ? try parseTypeArguments() : empty
                return node(.typeQuery, nil, [subject, typeArguments], from: start)
            case "import": return try parseImportType()
            case "this":
                try advance()
                if at("is") && !tok.newlineBefore {
                    try advance()
                    let type = try parseType()
                    return node(.typePredicate, nil, [JSNode(.this, range: lines.range(t.start, t.end)), type], from: start)
                }
                return node(.thisType, from: start)
            case "true", "false":
                try advance()
                let literal = node(.boolean, t.text, [], from: start)
                return node(.literalType, nil, [literal], from: start)
            case "null":
                try advance()
                return node(.literalType, nil, [node(.null, from: start)], from: start)
            default:
                return try parseTypeReference()
            }
        case .string:
            try advance()
            let literal = node(.string, t.text, [], from: start, raw: lexer.source(t.start, t.end))
            return node(.literalType, nil, [literal], from: start)
        case .number, .bigint:
            try advance()
            let literal = node(
                t.kind == .number ? .number : .bigint, t.kind == .number ? JSParser.numberValue(t.text) : t.text, [],
                from: start, raw: t.text)
            return node(.literalType, nil, [literal], from: start)
        case .template:
            return try parseTemplateLiteralType()
        case .punct:
            switch t.text {
            case "-":
                try advance()
                guard tok.kind == .number || tok.kind == .bigint else { throw error(expected: "a number") }
                let number = tok
                try advance()
                let literal = node(.number, "-" + JSParser.numberValue(number.text), [], from: start, raw: "-" + number.text)
                return node(.literalType, nil, [literal], from: start)
            case "{":
                if isStartOfMappedType() { return try parseMappedType() }
                return try parseObjectType()
            case "[": return try parseTupleType()
            case "(":
                try advance()
                let saved = noConditionalTypes
                noConditionalTypes = false
                defer { noConditionalTypes = saved }
                let inner = try parseType()
                try expect(")")
                return node(.parenthesizedType, nil, [inner], from: start)
            case "?", "*":
                // JSDoc-style `?` and `*` are not TypeScript.
                break
            default: break
            }
        default: break
        }
        throw error(expected: "a type")
    }

    /// `A.B.C<T>` (keyword types such as `string` and `void` included).
    mutating func parseTypeReference() throws -> JSNode {
        let start = tok.start
        guard tok.kind == .name else { throw error(expected: "a type") }
        var name = tok.text
        try advance()
        while at(".") {
            try advance()
            guard tok.kind == .name else { throw error(expected: "a name") }
            name += "." + tok.text
            try advance()
        }
        let typeArguments = at("<") && !tok.newlineBefore ? try parseTypeArguments() : empty
        return node(.typeReference, name, [typeArguments], from: start)
    }

    /// An `implements` or interface `extends` entry: a reference with type arguments.
    mutating func parseTypeReferenceOrExpressionType() throws -> JSNode {
        try parseTypeReference()
    }

    /// `import('m')[.A.B][<T>]`.
    mutating func parseImportType() throws -> JSNode {
        let start = tok.start
        try expect("import")
        try expect("(")
        let source = try parseModuleSource()
        if try accept(",") {
            if !at(")") {
                _ = try parseObjectLiteral()
                _ = try accept(",")
            }
        }
        try expect(")")
        var qualifier: String?
        while try accept(".") {
            let name = try anyName()
            qualifier = (qualifier.map { $0 + "." } ?? "") + (name.text ?? "")
        }
        let typeArguments = at("<") && !tok.newlineBefore ? try parseTypeArguments() : empty
        return node(.importType, qualifier, [source, typeArguments], from: start)
    }

    mutating func parseTemplateLiteralType() throws -> JSNode {
        let start = tok.start
        var parts: [JSNode] = []
        var part = tok
        while true {
            parts.append(
                JSNode(
                    .templateElement, text: part.text, range: lines.range(part.start, part.end),
                    raw: lexer.source(part.start + 1, part.end - (part.templateTail ? 1 : 2))))
            try advance()
            if part.templateTail { break }
            parts.append(try parseType())
            guard at("}") else { throw error(expected: "'}' in a template type") }
            tok = try lexer.rescanTemplateContinuation(tok)
            part = tok
        }
        return node(.templateLiteralType, nil, parts, from: start)
    }

    mutating func parseTupleType() throws -> JSNode {
        let start = tok.start
        try expect("[")
        var items: [JSNode] = []
        while !at("]") {
            let itemStart = tok.start
            if at("...") {
                try advance()
                if tok.kind == .name, let next = peek(), next.is(":") {
                    let name = try anyName()
                    try advance()
                    let type = try parseType()
                    let member = node(.namedTupleMember, name.text, [type], from: itemStart)
                    items.append(node(.restType, nil, [member], from: itemStart))
                } else {
                    let type = try parseType()
                    items.append(node(.restType, nil, [type], from: itemStart))
                }
            } else if tok.kind == .name, let next = peek(), next.is(":") || (next.is("?") && (peek(2)?.is(":") ?? false)) {
                var name = tok.text
                try advance()
                if try accept("?") { name += "?" }
                try expect(":")
                let type = try parseType()
                items.append(node(.namedTupleMember, name, [type], from: itemStart))
            } else {
                let type = try parseType()
                if at("?") {
                    try advance()
                    items.append(node(.optionalType, nil, [type], from: itemStart))
                } else {
                    items.append(type)
                }
            }
            if !at("]") { try expect(",") }
        }
        try advance()
        return node(.tupleType, nil, items, from: start)
    }

    /// At `{`: whether `{ [readonly] [K in ...` follows.
    func isStartOfMappedType() -> Bool {
        var copy = lexer
        guard var t = try? copy.next() else { return false }
        if t.is("+") || t.is("-") {
            guard let next = try? copy.next(), next.is("readonly") else { return false }
            t = next
        }
        if t.is("readonly") {
            guard let next = try? copy.next() else { return false }
            t = next
        }
        guard t.is("["), let name = try? copy.next(), name.kind == .name, let word = try? copy.next() else { return false }
        return word.is("in")
    }

    mutating func parseMappedType() throws -> JSNode {
        let start = tok.start
        try expect("{")
        var modifiers: [JSNode] = []
        if at("+") || at("-") {
            let sign = tok
            try advance()
            var word = modifier(tok)
            word.text = sign.text + tok.text
            modifiers.append(word)
            try advance()
        } else if at("readonly") {
            modifiers.append(modifier(tok))
            try advance()
        }
        try expect("[")
        let name = try anyName()
        try expect("in")
        let constraint = try parseType()
        var nameType = empty
        if try accept("as") { nameType = try parseType() }
        try expect("]")
        if at("+") || at("-") {
            let sign = tok
            try advance()
            var mark = modifier(tok)
            mark.text = sign.text + "?"
            try expect("?")
            modifiers.append(mark)
        } else if at("?") {
            modifiers.append(modifier(tok))
            try advance()
        }
        var type = empty
        if try accept(":") { type = try parseType() }
        _ = try accept(";") || (try accept(","))
        try expect("}")
        let modifierList = JSNode(.modifiers, children: modifiers, range: lines.range(start, start))
        return node(.mappedType, name.text, [modifierList, constraint, nameType, type], from: start)
    }

    /// `{ members }` of an object type or interface.
    mutating func parseObjectType() throws -> JSNode {
        let start = tok.start
        try expect("{")
        try enter()
        defer { leave() }
        let saved = noConditionalTypes
        noConditionalTypes = false
        defer { noConditionalTypes = saved }
        var members: [JSNode] = []
        while !at("}") {
            if tok.kind == .end { throw error(expected: "'}'") }
            members.append(try parseTypeMember())
            try consumeMemberSeparator()
        }
        try advance()
        return node(.objectType, nil, members, from: start)
    }

    /// `;`, `,`, or a line break between members.
    mutating func consumeMemberSeparator() throws {
        if try accept(";") || (try accept(",")) { return }
        if at("}") || tok.newlineBefore { return }
        throw error(expected: "';'")
    }

    mutating func parseTypeMember() throws -> JSNode {
        let start = tok.start
        if at("(") || at("<") {
            let parts = try parseSignatureParts()
            return node(.callSignature, nil, [parts.0, parts.1, parts.2], from: start)
        }
        if at("new"), let next = peek(), next.is("(") || next.is("<") {
            try advance()
            let parts = try parseSignatureParts()
            return node(.constructSignature, nil, [parts.0, parts.1, parts.2], from: start)
        }
        var modifiers: [JSNode] = []
        while tok.kind == .name, ["readonly", "get", "set"].contains(tok.text), let next = peek(),
            next.kind == .name || next.kind == .string || next.kind == .number || next.is("[")
        {
            modifiers.append(modifier(tok))
            try advance()
        }
        if at("["), let next = peek(), next.kind == .name, peek(2)?.is(":") ?? false {
            return try parseIndexSignature(
                start: start, modifiers: JSNode(.modifiers, children: modifiers, range: lines.range(start, start)))
        }
        let (key, name) = try parsePropertyKey()
        if at("?") {
            modifiers.append(modifier(tok))
            try advance()
        }
        let modifierList = JSNode(.modifiers, children: modifiers, range: lines.range(start, start))
        if at("(") || at("<") {
            let parts = try parseSignatureParts()
            return node(.methodSignature, name, [modifierList, key, parts.0, parts.1, parts.2], from: start)
        }
        let type = try parseOptionalTypeAnnotation()
        return node(.propertySignature, name, [modifierList, key, type], from: start)
    }

    /// `<T>(params): R` of a signature without a body.
    mutating func parseSignatureParts() throws -> (JSNode, JSNode, JSNode) {
        let typeParameters = at("<") ? try parseTypeParameters() : empty
        let parameters = try parseParameters()
        let returnType = at(":") ? try parseReturnTypeAnnotation() : empty
        return (typeParameters, parameters, returnType)
    }

    /// `[key: K]: T` (the current token is `[`).
    mutating func parseIndexSignature(start: Int, modifiers: JSNode) throws -> JSNode {
        try expect("[")
        let name = try anyName()
        try expect(":")
        let keyType = try parseType()
        try expect("]")
        let type = at(":") ? try parseOptionalTypeAnnotation() : empty
        return node(.indexSignature, name.text, [modifiers, keyType, type], from: start)
    }
}
