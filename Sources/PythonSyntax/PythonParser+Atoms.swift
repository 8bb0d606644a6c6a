/// Atoms: names, numbers, displays, comprehensions and parenthesised forms.
extension PyParser {
    mutating func atom() throws -> SyntaxNode {
        let t = tok
        switch t.kind {
        case .name:
            switch t.word {
            case "None":
                advance()
                return Self.node(.none, from: t.start, end: lastEnd)
            case "True":
                advance()
                return Self.node(.true, from: t.start, end: lastEnd)
            case "False":
                advance()
                return Self.node(.false, from: t.start, end: lastEnd)
            default:
                if isReserved(t.text) { throw error(expected: "an expression") }
                advance()
                return Self.node(.name, t.text, from: t.start, end: lastEnd)
            }
        case .number:
            advance()
            return numberNode(t)
        case .string:
            return try strings()
        case .op:
            switch t.word {
            case "(": return try parenthesised()
            case "[": return try listDisplay()
            case "{": return try braceDisplay()
            case "...":
                advance()
                return Self.node(.ellipsis, from: t.start, end: lastEnd)
            case "`" where python2:
                return try python2Backticks()
            default:
                throw error(expected: "an expression")
            }
        default:
            throw error(expected: "an expression")
        }
    }

    func numberNode(_ t: PythonToken) -> SyntaxNode {
        let text = t.text.contains("_") ? t.text.replacingOccurrences("_", "") : t.text
        var kind = SyntaxKind.integer
        let u = text.utf8
        if u.count > 1, u.first == UInt8(ascii: "0"), let second = u.dropFirst().first, "xXoObB".utf8.contains(second) {
            kind = .integer
        } else if let last = u.last, last | 0x20 == UInt8(ascii: "j") {
            kind = .imaginary
        } else if u.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
            kind = .float
        }
        return SyntaxNode(kind, text: text, range: SourceRange(start: t.start, end: t.end))
    }

    private mutating func parenthesised() throws -> SyntaxNode {
        try enter()
        defer { leave() }
        let start = tok.start
        advance()
        if accept(")") { return Self.node(.tuple, from: start, end: lastEnd) }
        if at("yield") {
            let y = try yieldExpression()
            try expect(")")
            return y
        }
        let first = try starNamedExpression()
        if atComprehension {
            try checkComprehensionElement(first)
            let comps = try comprehensions()
            try expect(")")
            return Self.node(.generatorExp, nil, [first] + comps, from: start, end: lastEnd)
        }
        if accept(")") {
            if first.kind == .starred { throw error("cannot use starred expression here", at: first.range.start) }
            return first
        }
        guard at(",") else { throw error(expected: "')'") }
        var items = [first]
        while accept(",") {
            if at(")") { break }
            items.append(try starNamedExpression())
        }
        try expect(")")
        return Self.node(.tuple, nil, items, from: start, end: lastEnd)
    }

    private mutating func listDisplay() throws -> SyntaxNode {
        try enter()
        defer { leave() }
        let start = tok.start
        advance()
        if accept("]") { return Self.node(.list, from: start, end: lastEnd) }
        let first = try starNamedExpression()
        if atComprehension {
            try checkComprehensionElement(first)
            let comps = try comprehensions(python2List: python2)
            try expect("]")
            return Self.node(.listComp, nil, [first] + comps, from: start, end: lastEnd)
        }
        var items = [first]
        while accept(",") {
            if at("]") { break }
            items.append(try starNamedExpression())
        }
        try expect("]")
        return Self.node(.list, nil, items, from: start, end: lastEnd)
    }

    private mutating func braceDisplay() throws -> SyntaxNode {
        try enter()
        defer { leave() }
        let start = tok.start
        advance()
        if accept("}") { return Self.node(.dict, from: start, end: lastEnd) }
        if at("**") || (patternMode && at("...") && (peek(1).is(",") || peek(1).is("}")) && isDictPattern) {
            return try dictItems(start: start, first: nil)
        }
        // A dict key is a plain expression: `{*a: 1}` and an unparenthesized `{x := 1: 2}` are not keys.
        let bareKey = !at("*") && !(tok.kind == .name && peek(1).is(":="))
        let first = try starNamedExpression()
        if at(":") {
            guard bareKey else { throw error("invalid syntax: a dict key cannot be starred or an unparenthesized ':='") }
            advance()
            let value = try expression()
            if atComprehension {
                let comps = try comprehensions()
                try expect("}")
                return Self.node(.dictComp, nil, [first, value] + comps, from: start, end: lastEnd)
            }
            let pair = SyntaxNode(
                .keyValue, children: [first, value], range: SourceRange(start: first.range.start, end: lastEnd))
            return try dictItems(start: start, first: pair)
        }
        if atComprehension {
            try checkComprehensionElement(first)
            let comps = try comprehensions()
            try expect("}")
            return Self.node(.setComp, nil, [first] + comps, from: start, end: lastEnd)
        }
        var items = [first]
        while accept(",") {
            if at("}") { break }
            items.append(try starNamedExpression())
        }
        try expect("}")
        return Self.node(.set, nil, items, from: start, end: lastEnd)
    }

    /// In patterns, `{...}` alone is a dict wildcard only if a `:` follows somewhere at this level.
    private var isDictPattern: Bool {
        var k = p
        var level = 0
        while k < toks.count {
            let t = toks[k]
            if t.kind == .op {
                switch t.word {
                case "(", "[", "{": level += 1
                case ")", "]": level -= 1
                case "}":
                    if level == 0 { return false }
                    level -= 1
                case ":" where level == 0: return true
                default: break
                }
            }
            if t.kind == .end { return false }
            k += 1
        }
        return false
    }

    private mutating func dictItems(start: SourceLocation, first: SyntaxNode?) throws -> SyntaxNode {
        var items: [SyntaxNode] = []
        if let first { items.append(first) } else { items.append(try dictItem()) }
        while accept(",") {
            if at("}") { break }
            items.append(try dictItem())
        }
        try expect("}")
        return Self.node(.dict, nil, items, from: start, end: lastEnd)
    }

    private mutating func dictItem() throws -> SyntaxNode {
        let s = tok.start
        if accept("**") { return Self.node(.doubleStarred, nil, [try binary(1)], from: s, end: lastEnd) }
        if patternMode && at("...") && (peek(1).is(",") || peek(1).is("}")) {
            advance()
            return Self.node(.ellipsis, from: s, end: lastEnd)
        }
        let key = try expression()
        try expect(":")
        let value = try expression()
        return Self.node(.keyValue, nil, [key, value], from: s, end: lastEnd)
    }

    var atComprehension: Bool { at("for") || (at("async") && peek(1).is("for")) }

    func checkComprehensionElement(_ element: SyntaxNode) throws {
        if element.kind == .starred {
            throw error("iterable unpacking cannot be used in comprehension", at: element.range.start)
        }
    }

    /// `([async] for targets in disjunction (if disjunction)*)+`. `python2List`: a Python 2 list
    /// comprehension, whose `in` may take an unparenthesised tuple (`[x for x in a, b]`).
    mutating func comprehensions(python2List: Bool = false) throws -> [SyntaxNode] {
        var out: [SyntaxNode] = []
        while atComprehension {
            let s = tok.start
            let isAsync = accept("async")
            try expect("for")
            let target = try targetList()
            try checkTarget(target, .loop)
            try expect("in")
            var iter = try disjunction()
            if python2List && at(",") {
                var items = [iter]
                while accept(",") && !at("]") { items.append(try disjunction()) }
                iter = Self.node(.tuple, nil, items, from: iter.range.start, end: lastEnd)
            }
            var children = [target, iter]
            while accept("if") { children.append(try disjunction()) }
            out.append(Self.node(.comprehension, isAsync ? "async" : nil, children, from: s, end: lastEnd))
        }
        return out
    }

    /// `star_targets`: targets of `for`, comprehensions and `del`, parsed below comparisons so `in`
    /// is left alone.
    mutating func targetList() throws -> SyntaxNode {
        let start = tok.start
        let first = try targetElement()
        guard at(",") else { return first }
        var items = [first]
        while accept(",") {
            if !startsExpression { break }
            items.append(try targetElement())
        }
        return Self.node(.tuple, nil, items, from: start, end: lastEnd)
    }

    mutating func targetElement() throws -> SyntaxNode {
        guard at("*") else { return try binary(1) }
        let s = tok.start
        advance()
        return Self.node(.starred, nil, [try binary(1)], from: s, end: lastEnd)
    }
}

extension String {
    /// Replaces every occurrence of `target` with `replacement` (avoids a Foundation dependency).
    func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for c in self {
            if c == target { out += replacement } else { out.append(c) }
        }
        return out
    }
}
