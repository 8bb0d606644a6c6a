import JavaScriptSyntax
import SyntaxTree

/// Declarations: functions, classes and their members, enums, namespaces, and the TypeScript
/// declarations that lower to nothing (interfaces, type aliases, `declare`, overload signatures).
extension Lowerer {
    /// The statements of a declaration.
    func declaration(_ js: JSNode) -> [SyntaxNode] {
        switch js.kind {
        case .functionDeclaration:
            // An overload or `declare` signature has no body.
            guard !child(js, 5).isEmpty, !has(child(js, 0), "declare") else { return [] }
            return [function(js, name: js.text ?? child(js, 1).text)]
        case .classDeclaration:
            guard !has(child(js, 1), "declare") else { return [] }
            return [classDefinition(js, name: js.text)]
        case .enumDeclaration:
            guard !has(child(js, 0), "declare") else { return [] }
            return [enumeration(js)]
        case .moduleDeclaration:
            let block = child(js, 2)
            guard !has(child(js, 0), "declare"), block.kind == .block else { return [] }
            return statements(block.children)
        default:
            // Interfaces and type aliases are types only.
            return []
        }
    }

    /// A class declaration or expression as a `classDef`: the superclass in `arguments`, members
    /// in the body (methods, fields as assignments, static blocks' statements).
    func classDefinition(_ js: JSNode, name: String?) -> SyntaxNode {
        let r = js.range
        let superClass = child(js, 4)
        let arguments = make(.arguments, nil, superClass.isEmpty ? [] : [expression(superClass)], superClass.isEmpty ? r : superClass.range)
        let classBody = child(js, 7)
        var members: [SyntaxNode] = []
        // A member hoists into the class body, before itself (a field's arrow, a default value's).
        for member in classBody.children { members += hoisting { classMember(member) } }
        return make(
            .classDef, name,
            [decorators(child(js, 0)), typeParameters(child(js, 3)), arguments, make(.block, nil, members, classBody.range)], r)
    }

    /// One class member's statements.
    private func classMember(_ js: JSNode) -> [SyntaxNode] {
        let r = js.range
        switch js.kind {
        case .method:
            let modifiers = child(js, 1)
            // An abstract method or an overload signature has no body.
            guard !child(js, 6).isEmpty else { return [] }
            let key = child(js, 2)
            let name = js.text ?? (key.kind == .string ? key.text : nil)
            return [function(js, name: name, role: has(modifiers, "static") ? .static : .instance)]
        case .property:
            let modifiers = child(js, 1)
            guard !has(modifiers, "declare") else { return [] }
            let key = child(js, 2)
            let target: SyntaxNode
            if let text = js.text ?? (key.kind == .string ? key.text : nil) {
                target = name(text, key.range)
            } else {
                target = make(.subscript, nil, [name("this", key.range), propertyKey(key)], key.range)
            }
            let type = child(js, 3)
            let value = child(js, 4)
            if !type.isEmpty {
                return [make(.annAssign, nil, [target, typeExpression(type), value.isEmpty ? empty(r) : expression(value)], r)]
            }
            return [make(.assign, nil, [target, value.isEmpty ? make(.none, nil, [], r) : expression(value)], r)]
        case .staticBlock:
            return statements(child(js, 0).children)
        case .ellipsis:
            // A pattern's `...` among members, a statement as in a Python pattern's class body.
            return [make(.exprStmt, nil, [make(.ellipsis, nil, [], r)], r)]
        default:
            // Index signatures are types only.
            return []
        }
    }

    /// `enum E { A = 1, B }` as a class assigning each member: a member without an initialiser is
    /// the previous numeric value plus one (0 first), or `None` after a non-numeric one.
    private func enumeration(_ js: JSNode) -> SyntaxNode {
        let r = js.range
        var next: Int? = 0
        var members: [SyntaxNode] = []
        for member in js.children.dropFirst(2) where member.kind == .enumMember {
            let key = child(member, 0)
            let target = name(key.text ?? "", key.range)
            let initializer = child(member, 1)
            let value: SyntaxNode
            if initializer.isEmpty {
                value = next.map { make(.integer, String($0), [], member.range) } ?? make(.none, nil, [], member.range)
            } else {
                value = expression(initializer)
            }
            next = value.kind == .integer ? value.text.flatMap { Int($0) }.map { $0 + 1 } : nil
            members.append(make(.assign, nil, [target, value], member.range))
        }
        return make(
            .classDef, js.text,
            [make(.decorators, nil, [], r), make(.typeParams, nil, [], r), make(.arguments, nil, [], r), make(.block, nil, members, r)], r)
    }
}
