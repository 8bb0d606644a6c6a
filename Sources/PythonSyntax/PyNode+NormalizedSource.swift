extension SyntaxNode {
    /// Canonical source text of this subtree: comments, blank lines, line continuations and spacing
    /// are gone, strings are re-quoted from their decoded values, parentheses appear only where
    /// precedence needs them, blocks are indented by four spaces. Code that differs only in layout
    /// renders identically, so fingerprints built on it survive reformatting.
    public var normalizedSource: String {
        var r = PySourceRenderer()
        if PySourceRenderer.statementKinds.contains(kind) || kind == .module || kind == .block {
            r.statement(self, indent: 0)
            if r.out.hasSuffix("\n") { r.out.removeLast() }
        } else {
            r.expression(self, 0)
        }
        return r.out
    }
}

/// Renders trees back to Python source for ``SyntaxNode/normalizedSource``.
struct PySourceRenderer {
    var out = ""

    /// The statements Python renders (the shared tree's other statement kinds are not Python's).
    static let statementKinds: Set<SyntaxKind> = [
        .functionDef, .asyncFunctionDef, .classDef, .return, .delete, .assign, .augAssign, .annAssign,
        .typeAlias, .exprStmt, .pass, .break, .continue, .raise, .assert, .import, .importFrom, .global,
        .nonlocal, .if, .while, .for, .asyncFor, .with, .asyncWith, .try, .tryStar, .match,
    ]

    // MARK: Statements

    private mutating func line(_ indent: Int, _ text: String) {
        out += String(repeating: "    ", count: indent)
        out += text
    }

    private mutating func body(_ n: SyntaxNode, _ indent: Int) {
        out += ":\n"
        if n.children.isEmpty {
            line(indent + 1, "pass\n")
        }
        for s in n.children { statement(s, indent: indent + 1) }
    }

    private func c(_ n: SyntaxNode, _ i: Int) -> SyntaxNode {
        i < n.children.count ? n.children[i] : SyntaxNode(.empty, range: n.range)
    }

    mutating func statement(_ n: SyntaxNode, indent: Int) {
        switch n.kind {
        case .module, .block:
            for s in n.children { statement(s, indent: indent) }
        case .functionDef, .asyncFunctionDef:
            for d in c(n, 0).children {
                line(indent, "@")
                expression(c(d, 0), 0)
                out += "\n"
            }
            line(indent, (n.kind == .asyncFunctionDef ? "async def " : "def ") + (n.text ?? ""))
            typeParams(c(n, 1))
            out += "("
            parameters(c(n, 2))
            out += ")"
            if !c(n, 3).isEmpty {
                out += " -> "
                expression(c(n, 3), 1)
            }
            body(c(n, 4), indent)
        case .classDef:
            for d in c(n, 0).children {
                line(indent, "@")
                expression(c(d, 0), 0)
                out += "\n"
            }
            line(indent, "class " + (n.text ?? ""))
            typeParams(c(n, 1))
            if !c(n, 2).children.isEmpty {
                out += "("
                list(c(n, 2).children)
                out += ")"
            }
            body(c(n, 3), indent)
        case .if:
            line(indent, "if ")
            ifChain(n, indent)
        case .while:
            line(indent, "while ")
            expression(c(n, 0), 0)
            body(c(n, 1), indent)
            elseBlock(c(n, 2), indent)
        case .for, .asyncFor:
            line(indent, n.kind == .asyncFor ? "async for " : "for ")
            expression(c(n, 0), 0)
            out += " in "
            expression(c(n, 1), 1)
            body(c(n, 2), indent)
            elseBlock(c(n, 3), indent)
        case .with, .asyncWith:
            line(indent, n.kind == .asyncWith ? "async with " : "with ")
            for (k, item) in n.children.dropLast().enumerated() {
                if k > 0 { out += ", " }
                expression(c(item, 0), 1)
                if !c(item, 1).isEmpty {
                    out += " as "
                    expression(c(item, 1), 0)
                }
            }
            body(n.children.last ?? n, indent)
        case .try, .tryStar:
            line(indent, "try")
            body(c(n, 0), indent)
            for h in n.children.dropFirst().dropLast(2) {
                line(indent, n.kind == .tryStar ? "except*" : "except")
                if !c(h, 0).isEmpty {
                    out += " "
                    expression(c(h, 0), 0)
                }
                if let name = h.text { out += " as " + name }
                body(c(h, 1), indent)
            }
            elseBlock(c(n, n.children.count - 2), indent)
            if let final = n.children.last, !final.isEmpty {
                line(indent, "finally")
                body(final, indent)
            }
        case .match:
            line(indent, "match ")
            expression(c(n, 0), 0)
            out += ":\n"
            for k in n.children.dropFirst() {
                line(indent + 1, "case ")
                pattern(c(k, 0))
                if !c(k, 1).isEmpty {
                    out += " if "
                    expression(c(k, 1), 0)
                }
                body(c(k, 2), indent + 1)
            }
        default:
            line(indent, "")
            simple(n)
            out += "\n"
        }
    }

    private mutating func ifChain(_ n: SyntaxNode, _ indent: Int) {
        expression(c(n, 0), 0)
        body(c(n, 1), indent)
        let orelse = c(n, 2)
        if orelse.children.count == 1 && orelse.children[0].kind == .if {
            line(indent, "elif ")
            ifChain(orelse.children[0], indent)
        } else {
            elseBlock(orelse, indent)
        }
    }

    private mutating func elseBlock(_ n: SyntaxNode, _ indent: Int) {
        guard !n.isEmpty else { return }
        line(indent, "else")
        body(n, indent)
    }

    private mutating func simple(_ n: SyntaxNode) {
        switch n.kind {
        case .exprStmt: expression(c(n, 0), 0)
        case .pass: out += "pass"
        case .break: out += "break"
        case .continue: out += "continue"
        case .return:
            out += "return"
            if let v = n.children.first {
                out += " "
                expression(v, 1)
            }
        case .delete:
            out += "del "
            list(n.children)
        case .assign:
            for t in n.children.dropLast() {
                expression(t, 0)
                out += " = "
            }
            expression(n.children.last ?? n, 0)
        case .augAssign:
            expression(c(n, 0), 0)
            out += " \(n.text ?? "") "
            expression(c(n, 1), 0)
        case .annAssign:
            expression(c(n, 0), 0)
            out += ": "
            expression(c(n, 1), 0)
            if !c(n, 2).isEmpty {
                out += " = "
                expression(c(n, 2), 0)
            }
        case .typeAlias:
            out += "type " + (n.text ?? "")
            typeParams(c(n, 1))
            out += " = "
            expression(c(n, 2), 0)
        case .raise:
            out += "raise"
            if !c(n, 0).isEmpty {
                out += " "
                expression(c(n, 0), 1)
            }
            if !c(n, 1).isEmpty {
                out += " from "
                expression(c(n, 1), 1)
            }
        case .assert:
            out += "assert "
            expression(c(n, 0), 1)
            if !c(n, 1).isEmpty {
                out += ", "
                expression(c(n, 1), 1)
            }
        case .import, .importFrom:
            out += n.kind == .import ? "import " : "from \(n.text ?? "") import "
            for (k, a) in n.children.enumerated() {
                if k > 0 { out += ", " }
                out += a.text ?? ""
                if let asName = a.children.first?.text { out += " as " + asName }
            }
        case .global, .nonlocal:
            out += n.kind == .global ? "global " : "nonlocal "
            out += n.children.compactMap(\.text).joined(separator: ", ")
        default:
            expression(n, 0)
        }
    }

    private mutating func typeParams(_ n: SyntaxNode) {
        guard !n.children.isEmpty else { return }
        out += "["
        for (k, t) in n.children.enumerated() {
            if k > 0 { out += ", " }
            out += t.text ?? ""
            if !c(t, 0).isEmpty {
                out += ": "
                expression(c(t, 0), 0)
            }
        }
        out += "]"
    }

    private mutating func parameters(_ n: SyntaxNode) {
        for (k, p) in n.children.enumerated() {
            if k > 0 { out += ", " }
            switch p.kind {
            case .positionalOnlyMarker: out += "/"
            case .keywordOnlyMarker: out += "*"
            case .varArgs: out += "*" + (p.text ?? "")
            case .kwArgs: out += "**" + (p.text ?? "")
            case .parameter: out += p.text ?? ""
            default: expression(p, 1)
            }
            if p.kind == .parameter || p.kind == .varArgs || p.kind == .kwArgs {
                if !c(p, 0).isEmpty {
                    out += ": "
                    expression(c(p, 0), 1)
                }
                if p.kind == .parameter && !c(p, 1).isEmpty {
                    out += c(p, 0).isEmpty ? "=" : " = "
                    expression(c(p, 1), 1)
                }
            }
        }
    }

    // MARK: Patterns

    private mutating func pattern(_ n: SyntaxNode) {
        switch n.kind {
        case .matchValue: expression(c(n, 0), 0)
        case .matchSingleton: out += n.text ?? ""
        case .matchSequence:
            out += "["
            for (k, p) in n.children.enumerated() {
                if k > 0 { out += ", " }
                pattern(p)
            }
            out += "]"
        case .matchMapping:
            out += "{"
            for (k, p) in n.children.enumerated() {
                if k > 0 { out += ", " }
                if p.kind == .matchRest {
                    out += "**" + (p.text ?? "")
                } else {
                    expression(c(p, 0), 0)
                    out += ": "
                    pattern(c(p, 1))
                }
            }
            out += "}"
        case .matchClass:
            expression(c(n, 0), 16)
            out += "("
            for (k, p) in n.children.dropFirst().enumerated() {
                if k > 0 { out += ", " }
                if p.kind == .matchKeyword {
                    out += (p.text ?? "") + "="
                    pattern(c(p, 0))
                } else {
                    pattern(p)
                }
            }
            out += ")"
        case .matchStar: out += "*" + (n.text ?? "_")
        case .matchAs:
            if let inner = n.children.first {
                out += "("
                pattern(inner)
                out += " as \(n.text ?? "_"))"
            } else {
                out += n.text ?? "_"
            }
        case .matchOr:
            out += "("
            for (k, p) in n.children.enumerated() {
                if k > 0 { out += " | " }
                pattern(p)
            }
            out += ")"
        default: expression(n, 0)
        }
    }

    // MARK: Expressions

    /// Binding strength; a child weaker than its context is parenthesised.
    static func precedence(_ n: SyntaxNode) -> Int {
        switch n.kind {
        case .namedExpr, .tuple, .yield, .yieldFrom: return 0
        case .lambda: return 1
        case .ifExp: return 2
        case .boolOp: return n.text == "or" ? 3 : 4
        case .unaryOp: return n.text == "not" ? 5 : 13
        case .compare: return 6
        case .binOp:
            switch n.text ?? "" {
            case "|": return 7
            case "^": return 8
            case "&": return 9
            case "<<", ">>": return 10
            case "+", "-": return 11
            case "**": return 14
            default: return 12
            }
        case .await: return 15
        default: return 17
        }
    }

    private mutating func list(_ items: [SyntaxNode]) {
        for (k, item) in items.enumerated() {
            if k > 0 { out += ", " }
            expression(item, 1)
        }
    }

    mutating func expression(_ n: SyntaxNode, _ minimum: Int) {
        let prec = PySourceRenderer.precedence(n)
        // `:=` is valid bare only in some positions; parenthesised it is valid everywhere.
        let wrap = (prec < minimum && n.kind != .tuple) || n.kind == .namedExpr
        if wrap { out += "(" }
        render(n, prec)
        if wrap { out += ")" }
    }

    private mutating func render(_ n: SyntaxNode, _ prec: Int) {
        switch n.kind {
        case .name: out += n.text ?? ""
        case .integer, .float, .imaginary: out += n.text ?? ""
        case .true: out += "True"
        case .false: out += "False"
        case .none: out += "None"
        case .ellipsis: out += "..."
        case .string: out += PySourceRenderer.quote(n.text ?? "", prefix: "")
        case .bytes: out += PySourceRenderer.quote(n.text ?? "", prefix: "b")
        case .joinedStr:
            out += "f\""
            fStringBody(n)
            out += "\""
        case .boolOp:
            for (k, v) in n.children.enumerated() {
                if k > 0 { out += " \(n.text ?? "") " }
                expression(v, prec + 1)
            }
        case .binOp:
            let right = n.text == "**"
            expression(c(n, 0), right ? prec + 1 : prec)
            out += " \(n.text ?? "") "
            expression(c(n, 1), right ? prec : prec + 1)
        case .unaryOp:
            out += n.text == "not" ? "not " : (n.text ?? "")
            expression(c(n, 0), prec)
        case .compare:
            let ops = (n.text ?? "").split(separator: ",")
            expression(c(n, 0), 7)
            for (k, v) in n.children.dropFirst().enumerated() {
                out += " \(k < ops.count ? String(ops[k]) : "?") "
                expression(v, 7)
            }
        case .namedExpr:
            expression(c(n, 0), 17)
            out += " := "
            expression(c(n, 1), 1)
        case .lambda:
            out += "lambda"
            if !c(n, 0).children.isEmpty {
                out += " "
                parameters(c(n, 0))
            }
            out += ": "
            expression(c(n, 1), 1)
        case .ifExp:
            expression(c(n, 0), 3)
            out += " if "
            expression(c(n, 1), 3)
            out += " else "
            expression(c(n, 2), 2)
        case .tuple:
            out += "("
            list(n.children)
            if n.children.count == 1 { out += "," }
            out += ")"
        case .list:
            out += "["
            list(n.children)
            out += "]"
        case .set:
            out += "{"
            list(n.children)
            out += "}"
        case .dict:
            out += "{"
            for (k, item) in n.children.enumerated() {
                if k > 0 { out += ", " }
                if item.kind == .keyValue {
                    expression(c(item, 0), 1)
                    out += ": "
                    expression(c(item, 1), 1)
                } else {
                    expression(item, 1)
                }
            }
            out += "}"
        case .keyValue:
            expression(c(n, 0), 1)
            out += ": "
            expression(c(n, 1), 1)
        case .listComp, .setComp, .generatorExp, .dictComp:
            out += n.kind == .listComp ? "[" : n.kind == .generatorExp ? "(" : "{"
            var rest = n.children.dropFirst()
            expression(c(n, 0), 1)
            if n.kind == .dictComp {
                out += ": "
                expression(c(n, 1), 1)
                rest = rest.dropFirst()
            }
            for comp in rest { comprehension(comp) }
            out += n.kind == .listComp ? "]" : n.kind == .generatorExp ? ")" : "}"
        case .comprehension:
            comprehension(n)
        case .await:
            out += "await "
            expression(c(n, 0), 16)
        case .yield:
            out += "yield"
            if let v = n.children.first {
                out += " "
                expression(v, 0)
            }
        case .yieldFrom:
            out += "yield from "
            expression(c(n, 0), 1)
        case .call:
            expression(c(n, 0), 16)
            let args = Array(n.children.dropFirst())
            if args.count == 1 && args[0].kind == .generatorExp {
                render(args[0], 17)  // the sole generator argument shares the call's parentheses
                return
            }
            out += "("
            list(args)
            out += ")"
        case .keyword:
            out += (n.text ?? "") + "="
            expression(c(n, 0), 1)
        case .starred:
            out += "*"
            expression(c(n, 0), 7)
        case .doubleStarred:
            out += "**"
            expression(c(n, 0), 7)
        case .attribute:
            if c(n, 0).kind == .integer {
                // `1.real` would lex as a float followed by a name.
                out += "("
                expression(c(n, 0), 0)
                out += ")"
            } else {
                expression(c(n, 0), 16)
            }
            out += "." + (n.text ?? "")
        case .subscript:
            expression(c(n, 0), 16)
            out += "["
            let index = c(n, 1)
            if index.kind == .tuple && !index.children.isEmpty {
                list(index.children)
                if index.children.count == 1 && index.children[0].kind != .starred { out += "," }
            } else {
                expression(index, 0)
            }
            out += "]"
        case .slice:
            if !c(n, 0).isEmpty { expression(c(n, 0), 1) }
            out += ":"
            if !c(n, 1).isEmpty { expression(c(n, 1), 1) }
            if !c(n, 2).isEmpty {
                out += ":"
                expression(c(n, 2), 1)
            }
        case .formattedValue:
            out += "f\""
            fStringBody(SyntaxNode(.joinedStr, children: [n], range: n.range))
            out += "\""
        case .empty:
            break
        case .functionDef, .asyncFunctionDef, .classDef, .if, .while, .for, .asyncFor, .with, .asyncWith, .try, .tryStar,
            .match:
            // A compound statement where an expression stands (a lowered JavaScript callback or class
            // expression): rendered as its statement; `simple` would hand it back here forever.
            statement(n, indent: 0)
            if out.hasSuffix("\n") { out.removeLast() }
        default:
            if PySourceRenderer.statementKinds.contains(n.kind) {
                simple(n)
            } else if PySourceRenderer.patternKinds.contains(n.kind) {
                pattern(n)
            } else {
                // A part that is neither (a decorator, a parameter): its own text, never a loop
                // between `pattern` and `expression`.
                out += n.text ?? "_"
            }
        }
    }

    /// The `match` patterns ``pattern(_:)`` renders.
    static let patternKinds: Set<SyntaxKind> = [
        .matchValue, .matchSingleton, .matchSequence, .matchMapping, .matchClass, .matchStar, .matchAs, .matchOr,
    ]

    private mutating func comprehension(_ comp: SyntaxNode) {
        out += comp.text == "async" ? " async for " : " for "
        expression(c(comp, 0), 0)
        out += " in "
        expression(c(comp, 1), 3)
        for cond in comp.children.dropFirst(2) {
            out += " if "
            expression(cond, 3)
        }
    }

    private mutating func fStringBody(_ n: SyntaxNode) {
        for piece in n.children {
            if piece.kind == .formattedValue {
                out += "{"
                var inner = PySourceRenderer()
                // Above lambda: its `:` would start a format spec; a leading `{` would read as `{{`.
                inner.expression(c(piece, 0), 2)
                if inner.out.hasPrefix("{") { out += " " }
                out += inner.out
                if let conversion = piece.text { out += "!" + conversion }
                if !c(piece, 1).isEmpty {
                    out += ":"
                    fStringBody(c(piece, 1))
                }
                out += "}"
            } else {
                let quoted = PySourceRenderer.quote(piece.text ?? "", prefix: "")
                let body = quoted.dropFirst().dropLast()
                for ch in body {
                    if ch == "{" || ch == "}" { out.append(ch) }
                    out.append(ch)
                }
            }
        }
    }

    /// A double-quoted literal with Python escapes for quotes, backslashes and control characters
    /// (and, for bytes, every non-ASCII byte).
    static func quote(_ s: String, prefix: String) -> String {
        var out = prefix + "\""
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F || (!prefix.isEmpty && u.value > 0x7F) {
                    let hex = String(u.value, radix: 16)
                    out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
