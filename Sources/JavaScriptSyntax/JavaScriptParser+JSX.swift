/// JSX: elements, fragments, attributes, spreads, expression containers and text.
extension JSParser {
    /// An element or fragment at `<` in an expression; the token after it is read normally.
    mutating func parseJSXElementExpression() throws -> JSNode {
        let element = try parseJSXElement()
        try advance()
        return element
    }

    /// An element starting at the current `<`; on return the current token is its final `>`, not
    /// consumed (what follows is JSX content or ordinary code, depending on the caller).
    mutating func parseJSXElement() throws -> JSNode {
        try enter()
        defer { leave() }
        let start = tok.start
        try advance()
        if at(">") {
            let attributes = JSNode(.jsxAttributes, range: lines.range(tok.start, tok.start))
            let children = try parseJSXChildren(openingName: nil, elementStart: start)
            return node(.jsxElement, nil, [empty, empty, attributes, children], from: start)
        }
        let name = try parseJSXName()
        var typeArguments = empty
        if ts && at("<") { typeArguments = try parseTypeArguments() }
        let attributesStart = tok.start
        var attributes: [JSNode] = []
        while !at(">") && !at("/") {
            if tok.kind == .end { throw error("unterminated JSX element", .invalidJSX, at: start) }
            attributes.append(try parseJSXAttribute())
        }
        let attributeList = node(.jsxAttributes, nil, attributes, from: attributesStart)
        if at("/") {
            try advance()
            guard at(">") else { throw error("expected '>' after '/' in a JSX tag", .invalidJSX) }
            let children = JSNode(.jsxChildren, range: lines.range(tok.start, tok.start))
            prevEnd = tok.end
            return node(.jsxElement, name.text, [name, typeArguments, attributeList, children], from: start)
        }
        let children = try parseJSXChildren(openingName: name.text, elementStart: start)
        return node(.jsxElement, name.text, [name, typeArguments, attributeList, children], from: start)
    }

    /// `div`, `my-element`, `svg:rect`, `Foo.Bar.Baz`.
    mutating func parseJSXName() throws -> JSNode {
        let start = tok.start
        guard tok.kind == .name else { throw error("expected a JSX tag name, found \(describe(tok))", .invalidJSX) }
        tok = lexer.extendJSXName(tok)
        var text = tok.text
        try advance()
        if at(":") {
            try advance()
            guard tok.kind == .name else { throw error("expected a name after ':' in a JSX tag", .invalidJSX) }
            tok = lexer.extendJSXName(tok)
            text += ":" + tok.text
            try advance()
        } else {
            while at(".") {
                try advance()
                guard tok.kind == .name else { throw error("expected a name after '.' in a JSX tag", .invalidJSX) }
                text += "." + tok.text
                try advance()
            }
        }
        return node(.jsxName, text, [], from: start)
    }

    mutating func parseJSXAttribute() throws -> JSNode {
        let start = tok.start
        if at("{") {
            try advance()
            try expect("...")
            let expression = try parseAssignmentAllowingIn()
            guard at("}") else { throw error("expected '}' after a JSX spread attribute", .invalidJSX) }
            try advance()
            return node(.jsxSpreadAttribute, nil, [expression], from: start)
        }
        guard tok.kind == .name else { throw error("expected a JSX attribute name, found \(describe(tok))", .invalidJSX) }
        tok = lexer.extendJSXName(tok)
        var name = tok.text
        try advance()
        if at(":") {
            try advance()
            guard tok.kind == .name else { throw error("expected a name after ':' in a JSX attribute", .invalidJSX) }
            tok = lexer.extendJSXName(tok)
            name += ":" + tok.text
            try advance()
        }
        var value = empty
        if at("=") {
            // The value is read by hand: a JSX string has no escapes and may span lines.
            prevEnd = tok.end
            lexer.pos = tok.end
            _ = try lexer.skipTrivia()
            let valueStart = lexer.pos
            let quote = lexer.byte(valueStart)
            if quote == 0x22 || quote == 0x27 {
                let placeholder = JSToken(kind: .punct, text: "", start: valueStart, end: valueStart, newlineBefore: false)
                let string = try lexer.rescanJSXString(placeholder)
                tok = string
                try advance()
                value = JSNode(
                    .string, text: string.text, range: lines.range(string.start, string.end),
                    raw: lexer.source(string.start, string.end))
            } else {
                tok = try lexer.next()
                if at("{") {
                    let containerStart = tok.start
                    try advance()
                    let expression = at("}") ? empty : try parseAssignmentAllowingIn()
                    guard at("}") else { throw error("expected '}' to close a JSX attribute value", .invalidJSX) }
                    try advance()
                    value = node(.jsxExpressionContainer, nil, [expression], from: containerStart)
                } else if at("<") {
                    value = try parseJSXElement()
                    try advance()
                } else {
                    throw error("expected a JSX attribute value, found \(describe(tok))", .invalidJSX)
                }
            }
        }
        return node(.jsxAttribute, name, [value], from: start)
    }

    /// Content after an opening tag's `>` (the current token) up to the matching closing tag, whose `>`
    /// is left as the current token.
    mutating func parseJSXChildren(openingName: String?, elementStart: Int) throws -> JSNode {
        let start = tok.end
        var children: [JSNode] = []
        tok = try lexer.scanJSXChild(from: tok.end)
        while true {
            switch tok.kind {
            case .end:
                throw error("unterminated JSX element", .invalidJSX, at: elementStart)
            case .jsxText:
                let t = tok
                children.append(
                    JSNode(.jsxText, text: t.text, range: lines.range(t.start, t.end), raw: lexer.source(t.start, t.end)))
                tok = try lexer.scanJSXChild(from: t.end)
            case .punct where tok.text == "{":
                let containerStart = tok.start
                try advance()
                if at("...") {
                    try advance()
                    let expression = try parseExpressionAllowingIn()
                    guard at("}") else { throw error("expected '}' after a JSX spread child", .invalidJSX) }
                    prevEnd = tok.end
                    children.append(node(.jsxSpreadChild, nil, [expression], from: containerStart))
                } else {
                    let expression = at("}") ? empty : try parseExpressionAllowingIn()
                    guard at("}") else { throw error("expected '}' to close a JSX expression", .invalidJSX) }
                    prevEnd = tok.end
                    children.append(node(.jsxExpressionContainer, nil, [expression], from: containerStart))
                }
                tok = try lexer.scanJSXChild(from: tok.end)
            default:
                // `<`: a closing tag or a child element.
                let lessThan = tok
                try advance()
                if at("/") {
                    try advance()
                    var closingName: String?
                    if !at(">") { closingName = try parseJSXName().text }
                    guard at(">") else { throw error("expected '>' to end a closing tag", .invalidJSX) }
                    guard closingName == openingName else {
                        throw error(
                            "closing tag </\(closingName ?? "")> does not match <\(openingName ?? "")>", .invalidJSX,
                            at: lessThan.start)
                    }
                    let list = JSNode(.jsxChildren, children: children, range: lines.range(start, lessThan.start))
                    prevEnd = tok.end
                    return list
                }
                // Put the `<` back and read the child element from it.
                lexer.pos = lessThan.end
                tok = lessThan
                let child = try parseJSXElement()
                children.append(child)
                tok = try lexer.scanJSXChild(from: tok.end)
            }
        }
    }
}
