import JavaScriptLowering
import JavaScriptSyntax
import SyntaxTree
import Testing

/// The lowered module of `source` read as the file `name` (the name picks the dialect).
func lowered(_ source: String, _ name: String = "test.js") throws -> SyntaxNode {
    JavaScriptLowering.lower(try JavaScriptParser.parse(source: source, fileName: name).root)
}

/// The S-expressions of the lowered statements of `source`.
func lowering(_ source: String, _ name: String = "test.js") throws -> [String] {
    try lowered(source, name).children.map(\.sexpr)
}

/// The S-expression of the lowered expression of `source`'s one expression statement.
func loweredExpression(_ source: String, _ name: String = "test.js") throws -> String {
    let module = try lowered(source, name)
    guard module.children.count == 1, let only = module.children.first, only.kind == .exprStmt else {
        Issue.record("expected one expression statement in \(source), got \(module.sexpr)")
        return ""
    }
    return only.children[0].sexpr
}

/// Every node of `root` of `kind`, in pre-order.
func nodes(_ root: SyntaxNode, _ kind: SyntaxKind) -> [SyntaxNode] {
    var found: [SyntaxNode] = []
    root.walk { node in
        if node.kind == kind { found.append(node) }
        return true
    }
    return found
}

/// The definitions (`def`, `async def`, `class`) of `root` that are not statements of a module or a
/// block: after hoisting, none.
func definitionsOutsideStatements(_ root: SyntaxNode) -> [SyntaxNode] {
    let definitions: Set<SyntaxKind> = [.functionDef, .asyncFunctionDef, .classDef]
    var found: [SyntaxNode] = []
    root.walk { node in
        if node.kind != .module && node.kind != .block {
            found += node.children.filter { definitions.contains($0.kind) }
        }
        return true
    }
    return found
}
