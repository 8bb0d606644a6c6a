/// Statements: blocks, control flow, variable declarations, labels, and the dispatch to declarations.
extension JSParser {
    mutating func parseStatement() throws -> JSNode {
        try enter()
        defer { leave() }
        let start = tok.start
        if tok.kind == .punct {
            switch tok.text {
            case "{": return try parseBlock()
            case ";":
                try advance()
                return node(.emptyStatement, from: start)
            case "@": return try parseDecoratedDeclaration()
            default: return try parseExpressionStatement()
            }
        }
        guard tok.kind == .name, !tok.escaped else { return try parseExpressionStatement() }
        switch tok.text {
        case "var", "const":
            if tok.text == "const" && ts && peekIs("enum") { return try parseEnum(modifiers: []) }
            let declaration = try parseVariableDeclaration()
            try consumeSemicolon()
            return declaration.with(end: prevEnd, lines: lines)
        case "let":
            if let next = peek(), next.kind == .name || next.is("[") || next.is("{") {
                if !(next.kind == .name && (next.text == "in" || next.text == "instanceof")) {
                    let declaration = try parseVariableDeclaration()
                    try consumeSemicolon()
                    return declaration.with(end: prevEnd, lines: lines)
                }
            }
        case "using":
            if let next = peek(), next.kind == .name, !next.newlineBefore, next.text != "in", next.text != "of",
                next.text != "instanceof"
            {
                let declaration = try parseVariableDeclaration()
                try consumeSemicolon()
                return declaration.with(end: prevEnd, lines: lines)
            }
        case "await":
            if let next = peek(), next.is("using"), !next.newlineBefore, let third = peek(2), third.kind == .name,
                !third.newlineBefore
            {
                let declaration = try parseVariableDeclaration()
                try consumeSemicolon()
                return declaration.with(end: prevEnd, lines: lines)
            }
        case "function": return try named(parseFunction(declaration: true, modifiers: []))
        case "async":
            if let next = peek(), next.is("function"), !next.newlineBefore {
                return try named(parseFunction(declaration: true, modifiers: []))
            }
        case "class": return try named(parseClass(declaration: true, decorators: emptyList(.decorators), modifiers: []))
        case "if": return try parseIf()
        case "for": return try parseFor()
        case "while":
            try advance()
            let test = try parseParenthesizedCondition()
            let body = try parseStatement()
            return node(.while, nil, [test, body], from: start)
        case "do":
            try advance()
            let body = try parseStatement()
            try expect("while")
            let test = try parseParenthesizedCondition()
            // `do ... while (x)` needs no semicolon even on the same line.
            _ = try accept(";")
            return node(.doWhile, nil, [body, test], from: start)
        case "return":
            try advance()
            var argument = empty
            if !at(";") && !at("}") && tok.kind != .end && !tok.newlineBefore { argument = try parseExpression() }
            try consumeSemicolon()
            return node(.return, nil, [argument], from: start)
        case "throw":
            try advance()
            if tok.newlineBefore { throw error("line break after 'throw'") }
            let argument = try parseExpression()
            try consumeSemicolon()
            return node(.throw, nil, [argument], from: start)
        case "break", "continue":
            let kind: JSNodeKind = tok.text == "break" ? .break : .continue
            try advance()
            var label: String?
            if tok.kind == .name && !tok.newlineBefore && !at("case") && !at("default") && atIdentifier {
                label = tok.text
                try advance()
            }
            try consumeSemicolon()
            return node(kind, label, [], from: start)
        case "try": return try parseTry()
        case "switch": return try parseSwitch()
        case "with":
            try advance()
            let object = try parseParenthesizedCondition()
            let body = try parseStatement()
            return node(.with, nil, [object, body], from: start)
        case "debugger":
            try advance()
            try consumeSemicolon()
            return node(.debugger, from: start)
        case "import":
            if let next = peek(), !next.is("("), !next.is(".") { return try parseImport() }
        case "export": return try parseExport(decorators: emptyList(.decorators))
        default:
            if ts, let declaration = try parseTypeScriptDeclarationStatement() { return declaration }
        }
        // `label: statement`.
        if atIdentifier || (tok.kind == .name && (tok.text == "yield" || tok.text == "await")), peekIs(":") {
            let label = tok.text
            try advance()
            try advance()
            let body = try parseStatement()
            return node(.labeled, label, [body], from: start)
        }
        return try parseExpressionStatement()
    }

    /// A function or class declaration, which needs a name outside `export default`.
    func named(_ declaration: JSNode) throws -> JSNode {
        guard declaration.text != nil else {
            throw error(
                "a \(declaration.kind == .classDeclaration ? "class" : "function") declaration needs a name",
                at: declaration.range.start.offset)
        }
        return declaration
    }

    mutating func parseExpressionStatement() throws -> JSNode {
        let start = tok.start
        let expression = try parseExpression()
        try consumeSemicolon()
        return node(.expressionStatement, nil, [expression], from: start)
    }

    mutating func parseBlock() throws -> JSNode {
        let start = tok.start
        try expect("{")
        var statements: [JSNode] = []
        while !at("}") {
            if tok.kind == .end { throw error(expected: "'}'") }
            statements.append(try parseStatement())
        }
        try advance()
        return node(.block, nil, statements, from: start)
    }

    mutating func parseParenthesizedCondition() throws -> JSNode {
        try expect("(")
        let savedIn = inAllowed
        inAllowed = true
        defer { inAllowed = savedIn }
        let test = try parseExpression()
        try expect(")")
        return test
    }

    mutating func parseIf() throws -> JSNode {
        let start = tok.start
        try advance()
        let test = try parseParenthesizedCondition()
        let consequent = try parseStatement()
        var alternate = empty
        if try accept("else") { alternate = try parseStatement() }
        return node(.if, nil, [test, consequent, alternate], from: start)
    }

    /// `var`/`let`/`const`/`using`/`await using` and its declarators, without the semicolon.
    mutating func parseVariableDeclaration() throws -> JSNode {
        let start = tok.start
        var keyword = tok.text
        try advance()
        if keyword == "await" {
            try advance()
            keyword = "await using"
        }
        var declarators: [JSNode] = []
        repeat {
            let declaratorStart = tok.start
            let target = try parseBindingTarget()
            var definite: String?
            if ts && at("!") && !tok.newlineBefore {
                try advance()
                definite = "!"
            }
            let type = try parseOptionalTypeAnnotation()
            var initializer = empty
            if try accept("=") { initializer = try parseAssignment() }
            declarators.append(node(.variableDeclarator, definite, [target, type, initializer], from: declaratorStart))
        } while try accept(",")
        return node(.variableDeclaration, keyword, declarators, from: start)
    }

    mutating func parseFor() throws -> JSNode {
        let start = tok.start
        try advance()
        var isAwait = false
        if at("await") {
            isAwait = true
            try advance()
        }
        try expect("(")
        let savedIn = inAllowed
        inAllowed = false
        var initializer = empty
        if !at(";") {
            var isDeclaration = false
            if tok.kind == .name && !tok.escaped {
                switch tok.text {
                case "var", "const": isDeclaration = true
                case "let":
                    isDeclaration =
                        peek().map { ($0.kind == .name && $0.text != "in" && $0.text != "of") || $0.is("[") || $0.is("{") } ?? false
                case "using":
                    isDeclaration =
                        peek().map { $0.kind == .name && $0.text != "in" && $0.text != "of" && !$0.newlineBefore } ?? false
                case "await": isDeclaration = peekIs("using") && (peek(2)?.kind == .name)
                default: break
                }
            }
            if isDeclaration {
                initializer = try parseVariableDeclaration()
            } else {
                initializer = try parseExpression()
            }
        }
        inAllowed = savedIn
        if at("of") || at("in") {
            let kind: JSNodeKind = at("of") ? .forOf : .forIn
            try advance()
            let left = initializer.kind == .variableDeclaration ? initializer : try toPattern(initializer)
            let right = kind == .forOf ? try parseAssignment() : try parseExpression()
            try expect(")")
            let body = try parseStatement()
            return node(kind, isAwait ? "await" : nil, [left, right, body], from: start)
        }
        try expect(";")
        let test = at(";") ? empty : try parseExpression()
        try expect(";")
        let update = at(")") ? empty : try parseExpression()
        try expect(")")
        let body = try parseStatement()
        return node(.for, nil, [initializer, test, update, body], from: start)
    }

    mutating func parseTry() throws -> JSNode {
        let start = tok.start
        try advance()
        let block = try parseBlock()
        var handler = empty
        if at("catch") {
            let catchStart = tok.start
            try advance()
            var parameter = empty
            var type = empty
            if try accept("(") {
                parameter = try parseBindingTarget()
                type = try parseOptionalTypeAnnotation()
                try expect(")")
            }
            let body = try parseBlock()
            handler = node(.catchClause, nil, [parameter, type, body], from: catchStart)
        }
        var finalizer = empty
        if try accept("finally") { finalizer = try parseBlock() }
        if handler.isEmpty && finalizer.isEmpty { throw error(expected: "'catch' or 'finally'") }
        return node(.try, nil, [block, handler, finalizer], from: start)
    }

    mutating func parseSwitch() throws -> JSNode {
        let start = tok.start
        try advance()
        let discriminant = try parseParenthesizedCondition()
        try expect("{")
        var children = [discriminant]
        while !at("}") {
            let caseStart = tok.start
            var test = empty
            if try accept("case") {
                test = try parseExpression()
            } else if !(try accept("default")) {
                throw error(expected: "'case' or 'default'")
            }
            try expect(":")
            let bodyStart = tok.start
            var statements: [JSNode] = []
            while !at("case") && !at("default") && !at("}") {
                if tok.kind == .end { throw error(expected: "'}'") }
                statements.append(try parseStatement())
            }
            let body =
                statements.isEmpty
                ? JSNode(.block, range: lines.range(bodyStart, bodyStart)) : node(.block, nil, statements, from: bodyStart)
            children.append(node(.switchCase, nil, [test, body], from: caseStart))
        }
        try advance()
        return node(.switch, nil, children, from: start)
    }

    /// `@decorator ... class` or `@decorator export class`.
    mutating func parseDecoratedDeclaration() throws -> JSNode {
        let decorators = try parseDecorators()
        if at("export") { return try parseExport(decorators: decorators) }
        var modifiers: [JSNode] = []
        if ts && at("abstract") {
            modifiers.append(modifier(tok))
            try advance()
        }
        guard at("class") else { throw error(expected: "a class after decorators") }
        return try parseClass(declaration: true, decorators: decorators, modifiers: modifiers)
    }
}

extension JSNode {
    /// This node with its range extended to `end` (a declaration's semicolon).
    func with(end: Int, lines: JSLineMap) -> JSNode {
        var copy = self
        copy.range = SourceRange(start: range.start, end: lines.location(max(end, range.start.offset)))
        return copy
    }
}
