import JavaScriptSyntax
import SyntaxTree

/// TypeScript types as annotation expressions.
extension Lowerer {
    /// A type as an expression: a named type is a name or attribute chain (with type arguments, a
    /// subscript), a literal type its literal, a union a `binOp |` chain, `T[]` `Array[T]`,
    /// `(T)` `T`; any other type is `(ellipsis)`.
    func typeExpression(_ js: JSNode) -> SyntaxNode {
        let r = js.range
        switch js.kind {
        case .typeReference:
            let parts = (js.text ?? "").split(separator: ".").map(String.init)
            var out = name(parts.first ?? "", r)
            for part in parts.dropFirst() { out = make(.attribute, part, [out], r) }
            let arguments = child(js, 0)
            if arguments.kind == .typeArguments, !arguments.children.isEmpty {
                let types = arguments.children.map(typeExpression)
                out = make(.subscript, nil, [out, types.count == 1 ? types[0] : make(.tuple, nil, types, arguments.range)], r)
            }
            return out
        case .literalType:
            return expression(child(js, 0))
        case .unionType:
            let types = js.children.map(typeExpression)
            guard var out = types.first else { return make(.ellipsis, nil, [], r) }
            for type in types.dropFirst() { out = make(.binOp, "|", [out, type], r) }
            return out
        case .arrayType:
            return make(.subscript, nil, [name("Array", r), typeExpression(child(js, 0))], r)
        case .parenthesizedType:
            return typeExpression(child(js, 0))
        case .thisType:
            return name("this", r)
        default:
            return make(.ellipsis, nil, [], r)
        }
    }
}
