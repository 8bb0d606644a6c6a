/// TypeScript's declarations: interfaces, type aliases, enums, namespaces and modules, `declare`, `abstract`.
extension JSParser {
    /// A TypeScript declaration at the current word, or nil when the word is an ordinary identifier
    /// here (`type = 1`, `declare()`, `namespace.x`).
    mutating func parseTypeScriptDeclarationStatement() throws -> JSNode? {
        guard tok.kind == .name, !tok.escaped, let next = peek() else { return nil }
        let sameLine = !next.newlineBefore
        switch tok.text {
        case "interface" where next.kind == .name && sameLine:
            return try parseInterface(modifiers: [])
        case "type" where next.kind == .name && sameLine:
            return try parseTypeAlias(modifiers: [])
        case "enum" where next.kind == .name:
            return try parseEnum(modifiers: [])
        case "namespace" where next.kind == .name && sameLine,
            "module" where (next.kind == .name || next.kind == .string) && sameLine:
            return try parseModuleDeclaration(modifiers: [])
        case "global" where next.is("{") && sameLine:
            return try parseModuleDeclaration(modifiers: [])
        case "abstract" where next.is("class") && sameLine:
            let word = modifier(tok)
            try advance()
            return try parseClass(declaration: true, decorators: emptyList(.decorators), modifiers: [word])
        case "declare" where sameLine && (next.kind == .name):
            let word = modifier(tok)
            let start = tok.start
            try advance()
            return try parseDeclared(word, start: start)
        default:
            return nil
        }
    }

    /// The declaration after `declare`.
    mutating func parseDeclared(_ declare: JSNode, start: Int) throws -> JSNode {
        switch tok.text {
        case "var", "let", "const":
            if at("const") && peekIs("enum") { return try parseEnum(modifiers: [declare]) }
            let declaration = try parseVariableDeclaration()
            try consumeSemicolon()
            var result = declaration.with(end: prevEnd, lines: lines)
            result.range = lines.range(start, prevEnd)
            return result
        case "function", "async":
            return try parseFunction(declaration: true, modifiers: [declare])
        case "class":
            return try parseClass(declaration: true, decorators: emptyList(.decorators), modifiers: [declare])
        case "abstract":
            let word = modifier(tok)
            try advance()
            return try parseClass(declaration: true, decorators: emptyList(.decorators), modifiers: [declare, word])
        case "interface": return try parseInterface(modifiers: [declare])
        case "type": return try parseTypeAlias(modifiers: [declare])
        case "enum": return try parseEnum(modifiers: [declare])
        case "namespace", "module", "global": return try parseModuleDeclaration(modifiers: [declare])
        default: throw error(expected: "a declaration after 'declare'")
        }
    }

    func modifierList(_ modifiers: [JSNode], at start: Int) -> JSNode {
        JSNode(.modifiers, children: modifiers, range: lines.range(start, start))
    }

    mutating func parseInterface(modifiers: [JSNode]) throws -> JSNode {
        let start = modifiers.first?.range.start.offset ?? tok.start
        try expect("interface")
        let name = try anyName()
        let typeParameters = at("<") ? try parseTypeParameters() : empty
        let heritageStart = tok.start
        var extended: [JSNode] = []
        if try accept("extends") {
            repeat { extended.append(try parseTypeReference()) } while try accept(",")
        }
        let heritage = node(.heritage, nil, extended, from: heritageStart)
        let body = try parseObjectType()
        return node(
            .interfaceDeclaration, name.text, [modifierList(modifiers, at: start), name, typeParameters, heritage, body],
            from: start)
    }

    mutating func parseTypeAlias(modifiers: [JSNode]) throws -> JSNode {
        let start = modifiers.first?.range.start.offset ?? tok.start
        try expect("type")
        let name = try anyName()
        let typeParameters = at("<") ? try parseTypeParameters() : empty
        try expect("=")
        let type = try parseType()
        try consumeSemicolon()
        return node(.typeAlias, name.text, [modifierList(modifiers, at: start), name, typeParameters, type], from: start)
    }

    mutating func parseEnum(modifiers preceding: [JSNode]) throws -> JSNode {
        let start = preceding.first?.range.start.offset ?? tok.start
        var modifiers = preceding
        if at("const") {
            modifiers.append(modifier(tok))
            try advance()
        }
        try expect("enum")
        let name = try anyName()
        try expect("{")
        var children = [modifierList(modifiers, at: start), name]
        while !at("}") {
            let memberStart = tok.start
            let (key, _) = try parsePropertyKey()
            let value = try accept("=") ? try parseAssignmentAllowingIn() : empty
            children.append(node(.enumMember, nil, [key, value], from: memberStart))
            if !at("}") { try expect(",") }
        }
        try advance()
        return node(.enumDeclaration, name.text, children, from: start)
    }

    /// `namespace A.B { }`, `module M { }`, `declare module 'm' [{ }]`, `global { }`.
    mutating func parseModuleDeclaration(modifiers: [JSNode]) throws -> JSNode {
        let start = modifiers.first?.range.start.offset ?? tok.start
        let keyword = tok.text
        var name: JSNode
        if keyword == "global" {
            name = try anyName()
        } else {
            try advance()
            if tok.kind == .string {
                name = try parseModuleSource()
            } else {
                name = try parseEntityNameExpression()
            }
        }
        var body = empty
        if at("{") {
            let saved = (inFunction, inAsync, inGenerator)
            defer { (inFunction, inAsync, inGenerator) = saved }
            body = try parseBlock()
        } else {
            try consumeSemicolon()
        }
        return node(.moduleDeclaration, keyword, [modifierList(modifiers, at: start), name, body], from: start)
    }
}
