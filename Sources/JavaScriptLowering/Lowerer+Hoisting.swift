import JavaScriptSyntax
import SyntaxTree

/// Hoisting: a function or class written inside an expression (a callback, an object's method, an
/// IIFE) becomes a definition named `#fnN` just before the statement that holds it, in the same
/// block, and the expression becomes that name. The engine analyses the functions that are
/// statements, Python's way; placed in the same block, the definition's closure sees the scope the
/// expression saw.
extension Lowerer {
    /// A fresh hoisted definition's name.
    func hoistedName() -> String {
        defer { hoistedCount += 1 }
        return JavaScriptLowering.hoistedPrefix + String(hoistedCount)
    }

    /// The statements `body` lowers, preceded by the definitions hoisted out of them. Each
    /// statement (and each class member, and an arrow's expression body) opens its own list, so
    /// that a definition lands in the innermost block that holds its expression.
    func hoisting(_ body: () -> [SyntaxNode]) -> [SyntaxNode] {
        hoisted.append([])
        let lowered = body()
        let definitions = hoisted.removeLast()
        return definitions + lowered
    }

    /// A function expression, arrow, method or class expression: hoisted, its name in its place; in
    /// a pattern, the definition itself (anonymous unless the source names it).
    func hoist(_ js: JSNode) -> SyntaxNode {
        let isClass = js.kind == .classExpression || js.kind == .classDeclaration
        guard !isPattern else {
            if isClass { return classDefinition(js, name: js.text) }
            return function(js, name: js.kind == .method ? js.text : js.text ?? child(js, 1).text)
        }
        // Named before its body is lowered, so that an outer function's number is the smaller one.
        let name = hoistedName()
        let definition = isClass ? classDefinition(js, name: name) : function(js, name: name)
        // Appended after lowering: the definitions hoisted out of its parameters' defaults and its
        // decorators went to this same list first, and stay before it.
        hoisted[hoisted.count - 1].append(definition)
        return self.name(name, js.range)
    }
}
