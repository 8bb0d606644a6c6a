/// `import` and `export` in every form, TypeScript's `import x = require()` and `export =` included.
extension JSParser {
    mutating func parseModuleSource() throws -> JSNode {
        guard tok.kind == .string else { throw error(expected: "a module specifier string") }
        let t = tok
        try advance()
        return JSNode(.string, text: t.text, range: lines.range(t.start, t.end), raw: lexer.source(t.start, t.end))
    }

    /// `with { type: 'json' }` or the older `assert { ... }`, or empty.
    mutating func parseImportAttributes() throws -> JSNode {
        guard (at("with") || at("assert")) && !tok.newlineBefore else { return empty }
        let start = tok.start
        try advance()
        let object = try parseObjectLiteral()
        return node(.importAttributes, nil, object.children, from: start)
    }

    /// An imported or exported name: an identifier, a keyword, or a string (`import { "a-b" as c }`).
    mutating func parseModuleExportName() throws -> JSNode {
        if tok.kind == .string { return try parseModuleSource() }
        return try anyName()
    }

    mutating func parseImport() throws -> JSNode {
        let start = tok.start
        try advance()
        if tok.kind == .string {
            let source = try parseModuleSource()
            let attributes = try parseImportAttributes()
            try consumeSemicolon()
            return node(.importDeclaration, nil, [empty, source, attributes], from: start)
        }
        var typeOnly: String?
        if ts && at("type"), let next = peek(),
            next.is("{") || next.is("*")
                || (next.kind == .name && !next.is("=") && !(next.is("from") && peek(2)?.kind == .string))
        {
            typeOnly = "type"
            try advance()
        }
        // `import x = require('m')` / `import x = A.B`.
        if ts && tok.kind == .name, peekIs("=") {
            let name = try anyName()
            try advance()
            let reference: JSNode
            if at("require") && peekIs("(") {
                let referenceStart = tok.start
                try advance()
                try advance()
                let source = try parseModuleSource()
                try expect(")")
                reference = node(.externalModuleReference, nil, [source], from: referenceStart)
            } else {
                reference = try parseEntityNameExpression()
            }
            try consumeSemicolon()
            return node(.importEquals, name.text, [name, reference], from: start)
        }
        let clauseStart = tok.start
        var bindings: [JSNode] = []
        if tok.kind == .name && !at("from") || (at("from") && peekIs("from")) {
            let name = try anyName()
            bindings.append(JSNode(.importDefault, text: name.text, children: [name], range: name.range))
            if !(try accept(",")) {
                return try finishImport(start: start, typeOnly: typeOnly, clause: node(.importClause, nil, bindings, from: clauseStart))
            }
        }
        if at("*") {
            let namespaceStart = tok.start
            try advance()
            try expect("as")
            let name = try anyName()
            bindings.append(node(.importNamespace, name.text, [name], from: namespaceStart))
        } else if at("{") {
            try advance()
            while !at("}") {
                let specifierStart = tok.start
                var specifierType: String?
                if ts && at("type"), let next = peek(), next.kind == .name || next.kind == .string,
                    !next.is("as") || (peek(2)?.is("as") ?? false)
                {
                    specifierType = "type"
                    try advance()
                }
                let imported = try parseModuleExportName()
                var local = imported
                if try accept("as") { local = try anyName() }
                bindings.append(node(.importSpecifier, specifierType, [imported, local], from: specifierStart))
                if !at("}") { try expect(",") }
            }
            try advance()
        } else if bindings.isEmpty {
            throw error(expected: "an import clause")
        }
        return try finishImport(start: start, typeOnly: typeOnly, clause: node(.importClause, nil, bindings, from: clauseStart))
    }

    mutating func finishImport(start: Int, typeOnly: String?, clause: JSNode) throws -> JSNode {
        try expect("from")
        let source = try parseModuleSource()
        let attributes = try parseImportAttributes()
        try consumeSemicolon()
        return node(.importDeclaration, typeOnly, [clause, source, attributes], from: start)
    }

    /// `A.B.C` as an expression (TypeScript's `import x = A.B`).
    mutating func parseEntityNameExpression() throws -> JSNode {
        let start = tok.start
        var expression = try anyName()
        while try accept(".") {
            let property = try anyName()
            expression = node(.member, ".", [expression, property], from: start)
        }
        return expression
    }

    mutating func parseExport(decorators: JSNode) throws -> JSNode {
        let start = decorators.children.isEmpty ? tok.start : decorators.range.start.offset
        try expect("export")
        if ts && at("=") {
            try advance()
            let expression = try parseExpression()
            try consumeSemicolon()
            return node(.exportAssignment, nil, [expression], from: start)
        }
        if ts && at("as") && peekIs("namespace") {
            try advance()
            try advance()
            let name = try anyName()
            try consumeSemicolon()
            return node(.exportNamespace, name.text, [], from: start)
        }
        if ts && at("import") {
            let declaration = try parseImport()
            return node(.exportDeclaration, nil, [declaration], from: start)
        }
        if at("*") {
            try advance()
            var exported = empty
            if try accept("as") { exported = try parseModuleExportName() }
            try expect("from")
            let source = try parseModuleSource()
            let attributes = try parseImportAttributes()
            try consumeSemicolon()
            return node(.exportAll, nil, [exported, source, attributes], from: start)
        }
        var typeOnly: String?
        if ts && at("type") && (peekIs("{") || peekIs("*")) {
            typeOnly = "type"
            try advance()
            if at("*") {
                try advance()
                var exported = empty
                if try accept("as") { exported = try parseModuleExportName() }
                try expect("from")
                let source = try parseModuleSource()
                let attributes = try parseImportAttributes()
                try consumeSemicolon()
                return node(.exportAll, "type", [exported, source, attributes], from: start)
            }
        }
        if at("{") {
            try advance()
            var children: [JSNode] = []
            while !at("}") {
                let specifierStart = tok.start
                var specifierType: String?
                if ts && at("type"), let next = peek(), next.kind == .name || next.kind == .string,
                    !next.is("as") || (peek(2)?.is("as") ?? false)
                {
                    specifierType = "type"
                    try advance()
                }
                let local = try parseModuleExportName()
                var exported = local
                if try accept("as") { exported = try parseModuleExportName() }
                children.append(node(.exportSpecifier, specifierType, [local, exported], from: specifierStart))
                if !at("}") { try expect(",") }
            }
            try advance()
            var source = empty
            var attributes = empty
            if try accept("from") {
                source = try parseModuleSource()
                attributes = try parseImportAttributes()
            }
            try consumeSemicolon()
            return node(.exportNamed, typeOnly, children + [source, attributes], from: start)
        }
        if at("default") {
            try advance()
            let value: JSNode
            if at("function") || (at("async") && peekIs("function") && !(peek()?.newlineBefore ?? true)) {
                value = try parseFunction(declaration: true, modifiers: [])
            } else if at("class") {
                value = try parseClass(declaration: true, decorators: decorators, modifiers: [])
            } else if at("@") {
                let inner = try parseDecorators()
                value = try parseClass(declaration: true, decorators: inner, modifiers: [])
            } else if ts && at("abstract") && peekIs("class") {
                let word = modifier(tok)
                try advance()
                value = try parseClass(declaration: true, decorators: decorators, modifiers: [word])
            } else if ts && at("interface") && (peek()?.kind == .name) {
                guard let declaration = try parseTypeScriptDeclarationStatement() else { throw error(expected: "an interface") }
                value = declaration
            } else {
                value = try parseAssignmentAllowingIn()
                try consumeSemicolon()
            }
            return node(.exportDefault, nil, [value], from: start)
        }
        let declaration: JSNode
        if at("@") {
            let inner = try parseDecorators()
            declaration = try parseClass(declaration: true, decorators: inner, modifiers: [])
        } else if at("class") {
            declaration = try parseClass(declaration: true, decorators: decorators, modifiers: [])
        } else if ts && at("abstract") && peekIs("class") {
            let word = modifier(tok)
            try advance()
            declaration = try parseClass(declaration: true, decorators: decorators, modifiers: [word])
        } else {
            declaration = try parseStatement()
            switch declaration.kind {
            case .variableDeclaration, .functionDeclaration, .classDeclaration, .interfaceDeclaration, .typeAlias,
                .enumDeclaration, .moduleDeclaration, .importEquals:
                break
            default:
                throw error("'export' must be followed by a declaration", at: declaration.range.start.offset)
            }
        }
        return node(.exportDeclaration, nil, [declaration], from: start)
    }
}
