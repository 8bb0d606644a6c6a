import PythonSyntax

/// Names a function binds, for templates that swap one variable for another.
extension RepairFile {
    /// Receivers are left out: swapping `self` for a local is never the fix.
    static let receivers: Set<String> = ["self", "cls"]

    /// Kinds whose bodies are their own scope.
    static let scopeKinds: Set<SyntaxKind> = [
        .functionDef, .asyncFunctionDef, .classDef, .lambda, .listComp, .setComp, .dictComp, .generatorExp,
    ]

    /// The statements of `scope`: a function's body, or the module's top level for the module.
    func body(of scope: SyntaxNode) -> [SyntaxNode] {
        scope.kind == .module ? scope.children : scope.children[4].children
    }

    /// The innermost function around `line`, or the module when the line is top-level code
    /// (scripts keep their variables there).
    func scope(ofLine line: Int) -> SyntaxNode { enclosingFunction(ofLine: line) ?? module.root }

    /// The parameter names of `function`, in order, receivers left out (none for the module).
    func parameters(of function: SyntaxNode) -> [String] {
        guard function.kind != .module else { return [] }
        return function.children[2].children.compactMap { parameter in
            switch parameter.kind {
            case .parameter, .varArgs, .kwArgs: parameter.text.flatMap { Self.receivers.contains($0) ? nil : $0 }
            default: nil
            }
        }
    }

    /// Parameters, then the names `function`'s own body assigns, each once in order of first
    /// appearance (nested functions, classes, lambdas and comprehensions are other scopes).
    func locals(of function: SyntaxNode) -> [String] {
        var names = parameters(of: function)
        for target in assignedNames(in: function) where !names.contains(target.text ?? "") {
            if let name = target.text, !Self.receivers.contains(name) { names.append(name) }
        }
        return names
    }

    /// The name nodes `function`'s own body binds by assignment (`=`, `:=`, `+=`, `for`, `with`).
    func assignedNames(in function: SyntaxNode) -> [SyntaxNode] { targets(in: function, augmented: true) }

    /// Offsets of the name nodes that are only written (assignment, loop and `with` targets; an
    /// augmented assignment also reads its target).
    func storeOffsets(in function: SyntaxNode) -> Set<Int> {
        Set(targets(in: function, augmented: false).map(\.range.start.offset))
    }

    /// The target names of the binding statements of `function`'s own body.
    func targets(in function: SyntaxNode, augmented: Bool) -> [SyntaxNode] {
        var out: [SyntaxNode] = []
        for statement in body(of: function) {
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

    /// Where `function` uses each name: the lines it occurs on (parameters on their own line,
    /// bindings and reads in the body), and the offsets of the occurrences it dereferences.
    func nameUsage(in function: SyntaxNode) -> NameUsage {
        var usage = NameUsage()
        for parameter in function.kind == .module ? [] : function.children[2].children {
            if let name = parameter.text { usage.lines[name, default: []].append(parameter.range.start.line) }
        }
        for statement in body(of: function) {
            statement.walk { node in
                if node.kind == .name, let name = node.text { usage.lines[name, default: []].append(node.range.start.line) }
                for operand in Self.dereferencedOperands(of: node) where operand.kind == .name {
                    usage.dereferenced.insert(operand.range.start.offset)
                    if let name = operand.text { usage.dereferencedNames.insert(name) }
                }
                return true
            }
        }
        return usage
    }

    /// The operands `node` dereferences: the value of `x.attr` and `x[i]`, the callee of `x(…)`,
    /// the iterable of a `for` or comprehension and the container of `k in x`.
    static func dereferencedOperands(of node: SyntaxNode) -> [SyntaxNode] {
        switch node.kind {
        case .attribute, .subscript, .call: return [node.children[0]]
        case .for, .asyncFor, .comprehension: return [node.children[1]]
        case .compare:
            let operators = (node.text ?? "").split(separator: ",")
            return operators.indices.filter { operators[$0] == "in" || operators[$0] == "not in" }.map { node.children[$0 + 1] }
        default: return []
        }
    }

    /// The `return` statements of `function`'s own body (not those of nested functions).
    func returns(of function: SyntaxNode) -> [SyntaxNode] {
        var out: [SyntaxNode] = []
        for statement in body(of: function) {
            statement.walk { node in
                if node.kind == .return { out.append(node) }
                return !Self.scopeKinds.contains(node.kind)
            }
        }
        return out
    }

    /// Whether `function` is a generator (its own body yields).
    func isGenerator(_ function: SyntaxNode) -> Bool {
        var found = false
        for statement in body(of: function) {
            statement.walk { node in
                if node.kind == .yield || node.kind == .yieldFrom { found = true }
                return !found && !Self.scopeKinds.contains(node.kind)
            }
        }
        return found
    }

    /// The plain names a target binds: `a`, `a, (b, *c)`; attributes and subscripts bind none.
    static func names(in target: SyntaxNode) -> [SyntaxNode] {
        switch target.kind {
        case .name: [target]
        case .tuple, .list: target.children.flatMap { names(in: $0) }
        case .starred: target.children.flatMap { names(in: $0) }
        default: []
        }
    }
}

/// How a function uses its names (``RepairFile/nameUsage(in:)``).
struct NameUsage {
    /// Per name, the lines it occurs on, in source order.
    var lines: [String: [Int]] = [:]
    /// Offsets of the name nodes used as `x.attr`, `x[i]`, `x(…)`, `for v in x`, `k in x`.
    var dereferenced: Set<Int> = []
    /// The names with at least one such use.
    var dereferencedNames: Set<String> = []
}
