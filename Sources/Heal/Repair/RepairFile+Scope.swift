import PythonSyntax

/// Names a function binds, for templates that swap one variable for another.
extension RepairFile {
    /// Receivers are left out: swapping `self` for a local is never the fix.
    static let receivers: Set<String> = ["self", "cls"]

    /// Kinds whose bodies are their own scope.
    static let scopeKinds: Set<PyNodeKind> = [
        .functionDef, .asyncFunctionDef, .classDef, .lambda, .listComp, .setComp, .dictComp, .generatorExp,
    ]

    /// The parameter names of `function`, in order, receivers left out.
    func parameters(of function: PyNode) -> [String] {
        function.children[2].children.compactMap { parameter in
            switch parameter.kind {
            case .parameter, .varArgs, .kwArgs: parameter.text.flatMap { Self.receivers.contains($0) ? nil : $0 }
            default: nil
            }
        }
    }

    /// Parameters, then the names `function`'s own body assigns, each once in order of first
    /// appearance (nested functions, classes, lambdas and comprehensions are other scopes).
    func locals(of function: PyNode) -> [String] {
        var names = parameters(of: function)
        for target in assignedNames(in: function) where !names.contains(target.text ?? "") {
            if let name = target.text, !Self.receivers.contains(name) { names.append(name) }
        }
        return names
    }

    /// The name nodes `function`'s own body binds by assignment (`=`, `:=`, `+=`, `for`, `with`).
    func assignedNames(in function: PyNode) -> [PyNode] { targets(in: function, augmented: true) }

    /// Offsets of the name nodes that are only written (assignment, loop and `with` targets; an
    /// augmented assignment also reads its target).
    func storeOffsets(in function: PyNode) -> Set<Int> {
        Set(targets(in: function, augmented: false).map(\.range.start.offset))
    }

    /// The target names of the binding statements of `function`'s own body.
    func targets(in function: PyNode, augmented: Bool) -> [PyNode] {
        var out: [PyNode] = []
        for statement in function.children[4].children {
            statement.walk { node in
                switch node.kind {
                case .assign: out += node.children.dropLast().flatMap { Self.names(in: $0) }
                case .annAssign, .namedExpr, .for, .asyncFor: out += Self.names(in: node.children[0])
                case .augAssign where augmented: out += Self.names(in: node.children[0])
                case .withItem: out += Self.names(in: node.children[1])
                default: break
                }
                return !Self.scopeKinds.contains(node.kind)
            }
        }
        return out
    }

    /// Whether `function` is a generator (its own body yields).
    func isGenerator(_ function: PyNode) -> Bool {
        var found = false
        for statement in function.children[4].children {
            statement.walk { node in
                if node.kind == .yield || node.kind == .yieldFrom { found = true }
                return !found && !Self.scopeKinds.contains(node.kind)
            }
        }
        return found
    }

    /// The plain names a target binds: `a`, `a, (b, *c)`; attributes and subscripts bind none.
    static func names(in target: PyNode) -> [PyNode] {
        switch target.kind {
        case .name: [target]
        case .tuple, .list: target.children.flatMap { names(in: $0) }
        case .starred: target.children.flatMap { names(in: $0) }
        default: []
        }
    }
}
