import JavaScriptSyntax
import SyntaxTree

/// Destructuring: a pattern bound to a value becomes one assignment per bound name, each reading
/// its part of the value, so that the engine's dataflow sees `const { id } = req.params` as
/// `id = req.params.id`.
extension Lowerer {
    /// The assignments binding `pattern` to `value`. A value that is not a name or an attribute chain
    /// is first assigned to a temporary, so it is evaluated once.
    func destructure(_ pattern: JSNode, _ value: SyntaxNode) -> [SyntaxNode] {
        let r = pattern.range
        switch pattern.kind {
        case .objectPattern, .arrayPattern:
            var out: [SyntaxNode] = []
            var source = value
            if !isSimple(value) {
                source = name(temporaryName(), value.range)
                out.append(make(.assign, nil, [source, value], value.range))
            }
            if pattern.kind == .objectPattern {
                for member in pattern.children { out += objectMember(member, of: source) }
            } else {
                for (i, element) in pattern.children.enumerated() { out += arrayElement(element, at: i, of: source) }
            }
            return out
        case .assignmentPattern:
            let withDefault = make(.boolOp, "or", [value, expression(child(pattern, 1))], r)
            return destructure(child(pattern, 0), withDefault)
        case .restElement:
            return destructure(child(pattern, 0), value)
        case .elision, .empty:
            return []
        default:
            return [make(.assign, nil, [target(pattern), value], r)]
        }
    }

    /// Whether reading `value` twice costs nothing and does nothing: a name or an attribute chain.
    private func isSimple(_ value: SyntaxNode) -> Bool {
        var node = value
        while node.kind == .attribute, let base = node.children.first { node = base }
        return node.kind == .name
    }

    /// `key: pattern` reads `source.key` (`source[key]` for a computed or quoted key); `...rest` is
    /// bound to the whole source.
    private func objectMember(_ member: JSNode, of source: SyntaxNode) -> [SyntaxNode] {
        guard member.kind == .objectProperty else {
            return member.kind == .restElement ? destructure(child(member, 0), source) : []
        }
        let key = child(member, 0)
        let part: SyntaxNode
        if key.kind == .identifier, let text = key.text {
            part = make(.attribute, text, [source], key.range)
        } else {
            part = make(.subscript, nil, [source, propertyKey(key)], key.range)
        }
        return destructure(child(member, 1), part)
    }

    /// The `i`th element reads `source[i]`; `...rest` reads `source[i:]`; holes bind nothing.
    private func arrayElement(_ element: JSNode, at i: Int, of source: SyntaxNode) -> [SyntaxNode] {
        let r = element.range
        let index = make(.integer, String(i), [], r)
        if element.kind == .restElement {
            let slice = make(.slice, nil, [index, empty(r), empty(r)], r)
            return destructure(child(element, 0), make(.subscript, nil, [source, slice], r))
        }
        return destructure(element, make(.subscript, nil, [source, index], r))
    }
}
