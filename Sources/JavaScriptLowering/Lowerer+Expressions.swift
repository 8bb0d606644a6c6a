import JavaScriptSyntax
import SyntaxTree

/// Expressions: names, literals, templates, operators, calls, members, object and array literals.
extension Lowerer {
    /// The generic expression of a JavaScript expression (JSX elements included; a function or class
    /// is hoisted, its name in its place); a node that is not an expression becomes `(ellipsis)` or
    /// its nearest expression.
    func expression(_ js: JSNode) -> SyntaxNode {
        let r = js.range
        let c = js.children
        switch js.kind {
        case .identifier:
            let text = js.text ?? ""
            return text == "undefined" ? make(.none, nil, [], r) : name(text, r)
        case .privateName: return name(js.text ?? "", r)
        case .this: return name("this", r)
        case .super: return name("super", r)
        case .null: return make(.none, nil, [], r)
        case .boolean: return make(js.text == "true" ? .true : .false, nil, [], r)
        case .number: return number(js)
        case .bigint: return make(.integer, js.text, [], r, raw: js.raw)
        case .string: return make(.string, js.text ?? "", [], r, raw: js.raw)
        case .regex: return make(.string, js.text ?? "", [], r, raw: js.raw)
        case .templateLiteral: return template(js)
        case .templateElement: return make(.string, js.text ?? "", [], r, raw: js.raw)
        case .taggedTemplate: return make(.call, nil, [expression(child(js, 0)), template(child(js, 2))], r)
        case .array:
            return make(.list, nil, c.map(element), r)
        case .elision: return make(.none, nil, [], r)
        case .object: return object(js)
        case .spread: return make(.starred, nil, [expression(child(js, 0))], r)
        case .parenthesized, .asExpression, .satisfiesExpression, .nonNull, .instantiation:
            return expression(child(js, 0))
        case .typeAssertion: return expression(child(js, 1))
        case .sequence: return make(.tuple, nil, c.map(expression), r)
        case .unary: return unary(js)
        case .prefixUpdate, .postfixUpdate:
            let op = js.text == "--" ? "-" : "+"
            return make(.binOp, op, [expression(child(js, 0)), make(.integer, "1", [], r)], r)
        case .binary: return binary(js)
        case .logical: return logical(js)
        case .assignment: return assignmentExpression(js)
        case .conditional:
            return make(.ifExp, nil, [expression(child(js, 1)), expression(child(js, 0)), expression(child(js, 2))], r)
        case .call:
            if let module = inlineModule(js) { return module }
            if let direct = directCall(js) { return direct }
            return moduleCallback(js, make(.call, nil, [callee(child(js, 0))] + arguments(child(js, 2)), r))
        case .new:
            return make(.call, "new", [expression(child(js, 0))] + arguments(child(js, 2)), r)
        case .arguments: return make(.tuple, nil, arguments(js), r)
        case .member:
            let property = child(js, 1)
            return make(.attribute, property.text ?? "", [expression(child(js, 0))], r)
        case .index:
            // `o['m']` is `o.m`: one property, however its name is written.
            if let key = literalKey(child(js, 1)) { return make(.attribute, key, [expression(child(js, 0))], r) }
            return make(.subscript, nil, [expression(child(js, 0)), expression(child(js, 1))], r)
        case .yield:
            let argument = child(js, 0)
            if js.text == "*" { return make(.yieldFrom, nil, [expression(argument)], r) }
            return make(.yield, nil, argument.isEmpty ? [] : [expression(argument)], r)
        case .await:
            if let module = inlineModule(js) { return module }
            return make(.await, nil, [expression(child(js, 0))], r)
        case .metaProperty:
            let parts = (js.text ?? "").split(separator: ".").map(String.init)
            var out = name(parts.first ?? "", r)
            for part in parts.dropFirst() { out = make(.attribute, part, [out], r) }
            return out
        case .importCall:
            let options = child(js, 1)
            return make(.call, nil, [name("import", r), expression(child(js, 0))] + (options.isEmpty ? [] : [expression(options)]), r)
        case .functionExpression, .arrowFunction, .functionDeclaration, .method, .classExpression, .classDeclaration:
            return hoist(js)
        case .jsxElement: return jsxElement(js)
        case .jsxText: return make(.string, js.text ?? "", [], r, raw: js.raw)
        case .jsxExpressionContainer:
            return child(js, 0).isEmpty ? make(.none, nil, [], r) : expression(child(js, 0))
        case .jsxSpreadChild: return make(.starred, nil, [expression(child(js, 0))], r)
        case .objectPattern, .arrayPattern, .assignmentPattern, .restElement:
            return target(js)
        case .computedKey: return expression(child(js, 0))
        case .ellipsis: return make(.ellipsis, nil, [], r)
        case .empty: return empty(r)
        default:
            // Statements, declarations, types and JSX parts never stand where an expression does.
            return make(.ellipsis, nil, [], r)
        }
    }

    /// `text` the decimal value: an integer when it has only digits, else a float.
    private func number(_ js: JSNode) -> SyntaxNode {
        let text = js.text ?? "0"
        let isInteger = !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return make(isInteger ? .integer : .float, text, [], js.range, raw: js.raw)
    }

    /// A template without substitutions is a string; with them, a `joinedStr` of its non-empty
    /// literal parts and a `formattedValue` per substitution.
    func template(_ js: JSNode) -> SyntaxNode {
        guard js.kind == .templateLiteral else { return expression(js) }
        let c = js.children
        if c.count == 1, c[0].kind == .templateElement {
            return make(.string, c[0].text ?? "", [], js.range, raw: c[0].raw.map { "`" + $0 + "`" })
        }
        var parts: [SyntaxNode] = []
        for part in c {
            if part.kind == .templateElement {
                if let text = part.text, !text.isEmpty { parts.append(make(.string, text, [], part.range, raw: part.raw)) }
            } else {
                parts.append(make(.formattedValue, nil, [expression(part), empty(part.range)], part.range))
            }
        }
        return make(.joinedStr, nil, parts, js.range)
    }

    /// An array element: holes are `None`, spreads `starred`.
    private func element(_ js: JSNode) -> SyntaxNode { expression(js) }

    /// Call arguments: expressions, spreads as `starred`.
    func arguments(_ js: JSNode) -> [SyntaxNode] {
        guard js.kind == .arguments else { return [] }
        return js.children.map(expression)
    }

    /// `{...}`: a `dict` of `keyValue` entries; spreads are `doubleStarred`, a method's value the
    /// name of its hoisted definition.
    private func object(_ js: JSNode) -> SyntaxNode {
        var entries: [SyntaxNode] = []
        for member in js.children {
            switch member.kind {
            case .objectProperty:
                let key = child(member, 0)
                // In a pattern, `{$...BEFORE, secure: false, $...AFTER}` names runs of members, as
                // `$...ARGS` does in a call, so a fix template can put them back around its change.
                if isPattern, member.text == "shorthand", key.kind == .identifier, let text = key.text, text.hasPrefix("$..."),
                    JavaScriptLowering.isMetavariable(text)
                {
                    entries.append(name(text, key.range))
                    continue
                }
                entries.append(make(.keyValue, nil, [propertyKey(key), expression(child(member, 1))], member.range))
            case .spread:
                entries.append(make(.doubleStarred, nil, [expression(child(member, 0))], member.range))
            case .method:
                let key = child(member, 2)
                entries.append(make(.keyValue, nil, [propertyKey(key), hoist(member)], member.range))
            default:
                entries.append(expression(member))
            }
        }
        return make(.dict, nil, entries, js.range)
    }

    /// An object or class key: a name is its string, a computed key its expression; in a pattern a
    /// metavariable (`$K`) is itself, to match any key.
    func propertyKey(_ key: JSNode) -> SyntaxNode {
        switch key.kind {
        case .identifier where isPattern && JavaScriptLowering.isMetavariable(key.text ?? ""): return name(key.text ?? "", key.range)
        case .identifier, .privateName: return make(.string, key.text ?? "", [], key.range)
        default: return expression(key)
        }
    }

    /// `!` is `not`; `typeof`, `void`, `delete`, `-`, `+`, `~` keep their spelling.
    private func unary(_ js: JSNode) -> SyntaxNode {
        let op = js.text == "!" ? "not" : js.text ?? "not"
        return make(.unaryOp, op, [expression(child(js, 0))], js.range)
    }

    /// Comparisons (and `in`) are `compare`, `instanceof` an `isinstance` call, the rest `binOp`.
    private func binary(_ js: JSNode) -> SyntaxNode {
        let r = js.range
        let left = expression(child(js, 0))
        let right = expression(child(js, 1))
        switch js.text ?? "" {
        case "===", "==": return make(.compare, "==", [left, right], r)
        case "!==", "!=": return make(.compare, "!=", [left, right], r)
        case "<", ">", "<=", ">=", "in": return make(.compare, js.text, [left, right], r)
        case "instanceof": return make(.call, nil, [name("isinstance", r), left, right], r)
        default: return make(.binOp, js.text ?? "+", [left, right], r)
        }
    }

    /// `&&` is `and`, `||` and `??` are `or`; nested operands of the same operator are flattened.
    private func logical(_ js: JSNode) -> SyntaxNode {
        let op = js.text == "&&" ? "and" : "or"
        var operands: [SyntaxNode] = []
        for side in js.children {
            let lowered = expression(side)
            var inner = side
            while inner.kind == .parenthesized { inner = child(inner, 0) }
            if lowered.kind == .boolOp, lowered.text == op, inner.kind == .logical {
                operands += lowered.children
            } else {
                operands.append(lowered)
            }
        }
        return make(.boolOp, op, operands, js.range)
    }

    /// An assignment used as a value: `namedExpr [target, value]` (a compound one's value is the
    /// operation).
    private func assignmentExpression(_ js: JSNode) -> SyntaxNode {
        let target = self.target(child(js, 0))
        var value = expression(child(js, 1))
        if let op = js.text, op != "=" {
            value = make(.binOp, String(op.dropLast()), [target, value], js.range)
        }
        return make(.namedExpr, nil, [target, value], js.range)
    }

    /// An assignment target as an expression: names, members and subscripts as usual; patterns as
    /// the displays they mirror (`{a}` a dict, `[a]` a list), defaults dropped, rests `starred`.
    func target(_ js: JSNode) -> SyntaxNode {
        let r = js.range
        switch js.kind {
        case .objectPattern:
            return make(
                .dict, nil,
                js.children.map { member in
                    if member.kind == .objectProperty {
                        return make(.keyValue, nil, [propertyKey(child(member, 0)), target(child(member, 1))], member.range)
                    }
                    return make(.doubleStarred, nil, [target(child(member, 0))], member.range)
                }, r)
        case .arrayPattern: return make(.list, nil, js.children.map(target), r)
        case .assignmentPattern: return target(child(js, 0))
        case .restElement: return make(.starred, nil, [target(child(js, 0))], r)
        default: return expression(js)
        }
    }
}
