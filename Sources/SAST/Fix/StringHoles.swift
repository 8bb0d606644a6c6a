import PythonSyntax

/// The values a string built at run time interpolates (its holes), for a fix that rewrites each
/// one (`fix-holes`): `f"<p>{name}</p>"` holds `name`; `"<p>" + name + "</p>"` holds `name`;
/// `"<p>%s</p>" % (a, b)` holds `a` and `b`; `"<p>{}</p>".format(a, k=b)` holds `a` and `b`; a
/// view's `(body, status)` holds its body's.
///
/// Only a string surely built from a literal is read (an f-string, or a `+` chain, `%` or
/// `.format` whose left side is a string literal); a field with a conversion or a format spec
/// (`{x!r}`, `{x:>10}`), `%` with a mapping, and `*args`/`**kwargs` make the string's holes
/// unknown (nil): wrapping them would change what the text says, not only how it is escaped.
enum StringHoles {
    /// The holes of `node` in source order; nil when it is not a string built as above or has none.
    static func holes(of node: SyntaxNode) -> [SyntaxNode]? {
        var out: [SyntaxNode] = []
        guard collect(node, into: &out), !out.isEmpty else { return nil }
        return out
    }

    private static func collect(_ node: SyntaxNode, into out: inout [SyntaxNode]) -> Bool {
        switch node.kind {
        case .tuple:
            // A view's `(body, status)` or `(body, status, headers)`: the body's holes.
            guard let body = node.children.first, node.children.count <= 3 else { return false }
            return collect(body, into: &out)
        case .joinedStr:
            for child in node.children where child.kind == .formattedValue {
                guard child.text == nil, child.children.count == 2, child.children[1].kind == .empty else { return false }
                out.append(child.children[0])
            }
            return true
        case .binOp where node.text == "+":
            // `"<p>" + name + "</p>"` parses as `("<p>" + name) + "</p>"`: a literal must start the chain.
            guard startsWithLiteral(node) else { return false }
            for operand in operands(of: node) {
                switch operand.kind {
                case .string: continue
                case .joinedStr: guard collect(operand, into: &out) else { return false }
                default: out.append(operand)
                }
            }
            return true
        case .binOp where node.text == "%":
            guard node.children.count == 2, isLiteral(node.children[0]) else { return false }
            let values = node.children[1]
            switch values.kind {
            case .tuple:
                guard !values.children.contains(where: { $0.kind == .starred }) else { return false }
                out += values.children.filter { !isLiteral($0) }
            case .dict: return false
            default: if !isLiteral(values) { out.append(values) }
            }
            return true
        case .call:
            guard let callee = node.children.first, callee.kind == .attribute, callee.text == "format",
                let receiver = callee.children.first, isLiteral(receiver)
            else { return false }
            for argument in node.children.dropFirst() {
                switch argument.kind {
                case .starred, .doubleStarred: return false
                case .keyword: if let value = argument.children.first, !isLiteral(value) { out.append(value) }
                default: if !isLiteral(argument) { out.append(argument) }
                }
            }
            return true
        default:
            return false
        }
    }

    private static func isLiteral(_ node: SyntaxNode) -> Bool { node.kind == .string }

    private static func startsWithLiteral(_ node: SyntaxNode) -> Bool {
        var first = node
        while first.kind == .binOp, first.text == "+", let left = first.children.first { first = left }
        return first.kind == .string || first.kind == .joinedStr
    }

    /// The operands of a left-nested `+` chain, in source order.
    private static func operands(of node: SyntaxNode) -> [SyntaxNode] {
        guard node.kind == .binOp, node.text == "+", node.children.count == 2 else { return [node] }
        return operands(of: node.children[0]) + [node.children[1]]
    }
}
