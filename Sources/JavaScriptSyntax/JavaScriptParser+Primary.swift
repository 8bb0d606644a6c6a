/// Primary expressions: names, literals, templates, array and object literals, parentheses, `import`.
extension JSParser {
    mutating func parsePrimary() throws -> JSNode {
        let start = tok.start
        let t = tok
        switch t.kind {
        case .name where !t.escaped:
            switch t.text {
            case "this", "super", "null":
                try advance()
                return node(t.text == "this" ? .this : t.text == "super" ? .super : .null, from: start)
            case "true", "false":
                try advance()
                return node(.boolean, t.text, [], from: start)
            case "function": return try parseFunction(declaration: false, modifiers: [])
            case "async" where peekIs("function") && !(peek()?.newlineBefore ?? true):
                return try parseFunction(declaration: false, modifiers: [])
            case "class": return try parseClass(declaration: false, decorators: emptyList(.decorators), modifiers: [])
            case "import": return try parseImportExpression()
            case "new": return try parseNew()
            default:
                return try identifier()
            }
        case .name:
            return try identifier()
        case .number:
            try advance()
            return node(.number, JSParser.numberValue(t.text), [], from: start, raw: t.text)
        case .bigint:
            try advance()
            let digits = t.text.dropLast().filter { $0 != "_" }
            return node(.bigint, String(digits), [], from: start, raw: t.text)
        case .string:
            try advance()
            return node(.string, t.text, [], from: start, raw: lexer.source(t.start, t.end))
        case .template:
            return try parseTemplate(tagged: false)
        case .privateName:
            // Only `#x in object` reads a private name on its own.
            guard let next = peek(), next.is("in") else { throw error(expected: "an expression") }
            return try privateName()
        case .punct:
            switch t.text {
            case "(": return try parseParenthesized()
            case "[": return try parseArrayLiteral()
            case "{": return try parseObjectLiteral()
            case "/", "/=":
                tok = try lexer.rescanRegex(tok)
                let regex = tok
                try advance()
                return node(.regex, regex.text, [], from: start, raw: lexer.source(regex.start, regex.end))
            case "<" where jsx: return try parseJSXElementExpression()
            case "..." where patternMode: return try parseEllipsis()
            case "@":
                let decorators = try parseDecorators()
                guard at("class") else { throw error(expected: "a class after decorators") }
                return try parseClass(declaration: false, decorators: decorators, modifiers: [])
            default: break
            }
        default: break
        }
        throw error(expected: "an expression")
    }

    /// `import(...)` or `import.meta`.
    mutating func parseImportExpression() throws -> JSNode {
        let start = tok.start
        try advance()
        if try accept(".") {
            guard tok.kind == .name else { throw error(expected: "'meta'") }
            let name = tok.text
            try advance()
            return node(.metaProperty, "import." + name, [], from: start)
        }
        try expect("(")
        let source = try parseAssignmentAllowingIn()
        var options = empty
        if try accept(",") {
            if !at(")") {
                options = try parseAssignmentAllowingIn()
                _ = try accept(",")
            }
        }
        try expect(")")
        return node(.importCall, nil, [source, options], from: start)
    }

    /// A template literal from the current template token; `tagged` allows invalid escapes.
    mutating func parseTemplate(tagged: Bool) throws -> JSNode {
        let start = tok.start
        var parts: [JSNode] = []
        var part = tok
        while true {
            if part.cookedInvalid && !tagged { throw error("invalid escape in a template", .invalidEscape, at: part.start) }
            let rawStart = part.start + 1
            let rawEnd = part.end - (part.templateTail ? 1 : 2)
            parts.append(
                JSNode(
                    .templateElement, text: part.cookedInvalid ? nil : part.text, range: lines.range(part.start, part.end),
                    raw: lexer.source(rawStart, rawEnd)))
            if part.templateTail {
                try advance()
                break
            }
            try advance()
            try enter()
            let expression = try parseExpressionAllowingIn()
            leave()
            parts.append(expression)
            guard at("}") else {
                if tok.kind == .end { throw error("unterminated template literal", .unterminatedTemplate, at: start) }
                throw error(expected: "'}' in a template")
            }
            tok = try lexer.rescanTemplateContinuation(tok)
            part = tok
        }
        return node(.templateLiteral, nil, parts, from: start)
    }

    mutating func parseParenthesized() throws -> JSNode {
        let start = tok.start
        let context = (inFunction ? 1 : 0) | (inAsync ? 2 : 0) | (inGenerator ? 4 : 0)
        if let read = parenthesized[start], read.context == context {
            let scanned = lexer.scanned
            lexer = read.lexer
            lexer.scanned = scanned
            tok = read.tok
            prevEnd = read.prevEnd
            return read.node
        }
        try advance()
        try enter()
        defer { leave() }
        let expression = try parseExpressionAllowingIn()
        try expect(")")
        let result = node(.parenthesized, nil, [expression], from: start)
        parenthesized[start] = (result, lexer, tok, prevEnd, context)
        return result
    }

    mutating func parseArrayLiteral() throws -> JSNode {
        let start = tok.start
        try advance()
        try enter()
        defer { leave() }
        var elements: [JSNode] = []
        while !at("]") {
            if at(",") {
                let hole = tok.start
                try advance()
                elements.append(JSNode(.elision, range: lines.range(hole, hole)))
                continue
            }
            if atEllipsis(closedBy: "]") {
                elements.append(try parseEllipsis())
            } else if at("...") {
                let spreadStart = tok.start
                try advance()
                let argument = try parseAssignmentAllowingIn()
                elements.append(node(.spread, nil, [argument], from: spreadStart))
            } else {
                elements.append(try parseAssignmentAllowingIn())
            }
            if !at("]") { try expect(",") }
        }
        try advance()
        return node(.array, nil, elements, from: start)
    }

    mutating func parseObjectLiteral() throws -> JSNode {
        let start = tok.start
        try advance()
        try enter()
        defer { leave() }
        var members: [JSNode] = []
        while !at("}") {
            members.append(try parseObjectMember())
            if !at("}") { try expect(",") }
        }
        try advance()
        return node(.object, nil, members, from: start)
    }

    /// Whether the token after a contextual word (`get`, `set`, `async`, `static`...) makes that word a
    /// modifier rather than a property name.
    func nextStartsPropertyName() -> Bool {
        guard let next = peek() else { return false }
        switch next.kind {
        case .name, .string, .number, .bigint, .privateName: return true
        case .punct: return next.text == "[" || next.text == "*"
        default: return false
        }
    }

    mutating func parseObjectMember() throws -> JSNode {
        let start = tok.start
        if atEllipsis(closedBy: "}") { return try parseEllipsis() }
        if at("...") {
            try advance()
            let argument = try parseAssignmentAllowingIn()
            return node(.spread, nil, [argument], from: start)
        }
        var modifiers: [JSNode] = []
        if at("async") && nextStartsPropertyName() && !(peek()?.newlineBefore ?? true) {
            modifiers.append(modifier(tok))
            try advance()
        }
        if at("*") {
            modifiers.append(modifier(tok))
            try advance()
        }
        if modifiers.isEmpty && (at("get") || at("set")) && nextStartsPropertyName() {
            modifiers.append(modifier(tok))
            try advance()
        }
        let keyToken = tok
        let (key, name) = try parsePropertyKey()
        if !modifiers.isEmpty || at("(") || at("<") {
            let modifierList = JSNode(.modifiers, children: modifiers, range: lines.range(start, start))
            return try parseMethodRest(
                start: start, name: name, decorators: emptyList(.decorators), modifiers: modifierList, key: key)
        }
        if try accept(":") {
            let value = try parseAssignmentAllowingIn()
            return node(.objectProperty, nil, [key, value], from: start)
        }
        guard keyToken.kind == .name, key.kind == .identifier else { throw error(expected: "':'") }
        if at("=") {
            // `{ a = 1 }`: only valid once the object becomes a pattern (`({ a = 1 } = b)`).
            coverInitializers.insert(start)
            try advance()
            let value = try parseAssignmentAllowingIn()
            let pattern = node(.assignmentPattern, nil, [key, value], from: start)
            return node(.objectProperty, "shorthand", [key, pattern], from: start)
        }
        return node(.objectProperty, "shorthand", [key, key], from: start)
    }

    /// A property key: a name (keywords too), string, number, `[computed]` or `#private`; and its name.
    mutating func parsePropertyKey() throws -> (JSNode, String?) {
        let t = tok
        let start = tok.start
        switch t.kind {
        case .name:
            try advance()
            return (node(.identifier, t.text, [], from: start), t.text)
        case .string:
            try advance()
            return (node(.string, t.text, [], from: start, raw: lexer.source(t.start, t.end)), t.text)
        case .number:
            try advance()
            let value = JSParser.numberValue(t.text)
            return (node(.number, value, [], from: start, raw: t.text), value)
        case .bigint:
            try advance()
            return (node(.bigint, String(t.text.dropLast()), [], from: start, raw: t.text), t.text)
        case .privateName:
            try advance()
            return (node(.privateName, t.text, [], from: start), t.text)
        case .punct where t.text == "[":
            try advance()
            let expression = try parseAssignmentAllowingIn()
            try expect("]")
            return (node(.computedKey, nil, [expression], from: start), nil)
        default:
            throw error(expected: "a property name")
        }
    }

    /// The decimal value of a numeric literal as JavaScript prints it (`0x10` → `16`, `1_0.50` → `10.5`);
    /// the literal itself when it does not fit.
    static func numberValue(_ raw: String) -> String {
        let digits = raw.filter { $0 != "_" }
        let lower = digits.lowercased()
        var radix = 10
        var body = Substring(lower)
        if lower.hasPrefix("0x") {
            radix = 16
        } else if lower.hasPrefix("0o") {
            radix = 8
        } else if lower.hasPrefix("0b") {
            radix = 2
        } else if lower.count > 1, lower.hasPrefix("0"), lower.allSatisfy({ $0 >= "0" && $0 <= "7" }) {
            // Legacy octal `017`.
            return UInt64(lower.dropFirst(), radix: 8).map(String.init) ?? raw
        }
        if radix != 10 {
            body = body.dropFirst(2)
            return UInt64(body, radix: radix).map(String.init) ?? raw
        }
        guard let value = Double(lower) else { return raw }
        if value == value.rounded(), abs(value) < 1e21, let integer = Int64(exactly: value) { return String(integer) }
        return String(value)
    }
}
