import JavaScriptSyntax
import SyntaxTree

/// JSX elements as calls, the way `React.createElement(type, props, ...children)` sees them.
extension Lowerer {
    /// `<Tag a={x}>text{y}</Tag>` as `(call jsx Tag "text" y (keyword a x))`: the call's text is
    /// `jsx`; the callee is a string for an intrinsic element (`"div"`), a name or attribute chain
    /// for a component (`Foo.Bar`), `None` for a fragment; children are positional arguments
    /// (whitespace-only text left out), then each attribute is a keyword argument (a valueless one
    /// `True`), a spread attribute `**props`.
    func jsxElement(_ js: JSNode) -> SyntaxNode {
        let r = js.range
        let tagNode = child(js, 0)
        var arguments: [SyntaxNode] = [jsxTag(tagNode, r)]
        for part in child(js, 3).children {
            switch part.kind {
            case .jsxText:
                guard let text = part.text, text.contains(where: { !$0.isWhitespace }) else { continue }
                arguments.append(make(.string, text, [], part.range, raw: part.raw))
            case .jsxExpressionContainer:
                if !child(part, 0).isEmpty { arguments.append(expression(child(part, 0))) }
            default:
                arguments.append(expression(part))
            }
        }
        for attribute in child(js, 2).children {
            let ar = attribute.range
            if attribute.kind == .jsxSpreadAttribute {
                arguments.append(make(.doubleStarred, nil, [expression(child(attribute, 0))], ar))
                continue
            }
            let value = child(attribute, 0)
            let lowered = value.isEmpty ? make(.true, nil, [], ar) : expression(value)
            arguments.append(make(.keyword, attribute.text ?? "", [lowered], ar))
        }
        return make(.call, "jsx", arguments, r)
    }

    /// An intrinsic tag (lower-case first letter, or namespaced `svg:rect`) is a string; a component
    /// a name or attribute chain; a fragment `None`.
    private func jsxTag(_ tag: JSNode, _ r: SourceRange) -> SyntaxNode {
        guard tag.kind == .jsxName, let text = tag.text, let first = text.first else { return make(.none, nil, [], r) }
        if (first.isLowercase && !text.contains(".")) || text.contains(":") { return make(.string, text, [], tag.range) }
        let parts = text.split(separator: ".").map(String.init)
        var out = name(parts.first ?? "", tag.range)
        for part in parts.dropFirst() { out = make(.attribute, part, [out], tag.range) }
        return out
    }
}
