import PythonSyntax

/// The values an expression may hold, found by following it back through the file: what
/// `metavariable-value` matches its pattern against, so that `c = paramiko.SSHClient()` makes
/// `c.exec_command(x)` a paramiko call and `suite = unittest.TestSuite()` keeps `suite.run(debug=True)`
/// away from a Flask rule.
///
/// Followed, up to `maxSteps` steps (a name assigned from a name assigned from a call is two):
/// - a name: its assignments (`=`, annotated, `:=`, `with ... as name`) in the innermost scope that
///   binds it (function, then enclosing functions, then the module); a parameter stands for its
///   default and for a value of its annotated type (`cli: paramiko.SSHClient` reads as
///   `paramiko.SSHClient()`; `Optional[T]` and `T | None` as `T()`);
/// - `self.name` / `cls.name`: assignments to it anywhere in the enclosing class, and `name = ...`
///   in the class body;
/// - a call of a function defined at the top level of the file, or of `self.method()` of the
///   enclosing class: what it returns, and a value of its return annotation.
/// Anything else (a parameter without annotation, an attribute of another object) has no origin
/// but itself.
struct ValueOrigins: Sendable {
    let root: SyntaxNode
    var maxSteps = 4
    /// The file's memo of each scope's assignments (nil: each question walks its scope).
    var assignments: ScopeAssignments? = nil

    /// `node` followed by every value found for it (breadth first, each at most once).
    func values(of node: SyntaxNode) -> [SyntaxNode] {
        var out: [SyntaxNode] = [node]
        // Kind and range: a synthetic `T()` shares its annotation's range.
        var seen: Set<[Int]> = [Self.key(node)]
        var frontier: [SyntaxNode] = [node]
        for _ in 0..<maxSteps where !frontier.isEmpty {
            var next: [SyntaxNode] = []
            for current in frontier {
                for value in origins(of: current) where value.kind != .empty && seen.insert(Self.key(value)).inserted {
                    out.append(value)
                    next.append(value)
                }
            }
            frontier = next
        }
        return out
    }

    private static func key(_ node: SyntaxNode) -> [Int] {
        [node.range.start.offset, node.range.end.offset, node.kind == .call ? 1 : 0]
    }

    /// One step back: the values `node` was given, where it is a name, `self.attr` or a local call.
    private func origins(of node: SyntaxNode) -> [SyntaxNode] {
        switch node.kind {
        case .name:
            guard let name = node.text else { return [] }
            return nameOrigins(name, at: node.range.start)
        case .attribute:
            guard let attr = node.text, let base = node.children.first, base.kind == .name, Receivers.contains(base.text)
            else { return [] }
            return attributeOrigins(attr, base: base.text ?? "self", at: node.range.start)
        case .call:
            guard let callee = node.children.first else { return [] }
            if callee.kind == .name, let name = callee.text {
                return returnOrigins(of: root.children.last { Self.isFunction($0) && $0.text == name })
            }
            // `self.method()`: a method of the enclosing class.
            guard callee.kind == .attribute, let name = callee.text, let base = callee.children.first,
                base.kind == .name, Receivers.contains(base.text),
                let cls = root.enclosingDefinitions(containing: node.range.start).last(where: { $0.kind == .classDef })
            else { return [] }
            return returnOrigins(of: cls.children.last?.children.last { Self.isFunction($0) && $0.text == name })
        default:
            return []
        }
    }

    // MARK: Names

    private func nameOrigins(_ name: String, at location: SourceLocation) -> [SyntaxNode] {
        let functions = root.enclosingDefinitions(containing: location).filter {
            $0.kind == .functionDef || $0.kind == .asyncFunctionDef
        }
        for function in functions.reversed() {
            // Defaults, annotations and decorators are evaluated in the enclosing scope.
            if location < function.children[4].range.start { continue }
            if Self.declaresGlobal(name, in: function) { break }
            // A parameter binds the name even with nothing known about it (an `.empty` marker).
            let found = parameterOrigins(name, of: function) + assignedValues(name, in: function.children[4])
            if !found.isEmpty { return found }
        }
        return assignedValues(name, in: root)
    }

    /// The default and the annotated type of parameter `name` of `function`; a parameter without
    /// either still binds the name, so the search stops there (with nothing).
    private func parameterOrigins(_ name: String, of function: SyntaxNode) -> [SyntaxNode] {
        guard function.children.count > 2 else { return [] }
        for parameter in function.children[2].children where parameter.text == name {
            var out: [SyntaxNode] = []
            if parameter.kind == .parameter, parameter.children.count == 2, !parameter.children[1].isEmpty {
                out.append(parameter.children[1])
            }
            if parameter.kind == .parameter, let annotation = parameter.children.first,
                let instance = Self.instance(of: annotation)
            {
                out.append(instance)
            }
            // Bound here even when nothing is known of it.
            return out.isEmpty ? [SyntaxNode(.empty, range: parameter.range)] : out
        }
        return []
    }

    private static func declaresGlobal(_ name: String, in function: SyntaxNode) -> Bool {
        var found = false
        statements(of: function.children[4]) { statement in
            if statement.kind == .global, statement.children.contains(where: { $0.text == name }) { found = true }
        }
        return found
    }

    /// Values assigned to `name` in the statements of `scope` (nested functions and classes left out).
    private func assignedValues(_ name: String, in scope: SyntaxNode) -> [SyntaxNode] {
        guard let assignments else { return Self.assignedValues(in: scope)[name] ?? [] }
        return assignments.values(name, in: scope, read: Self.assignedValues(in:))
    }

    /// Values assigned to each name in the statements of `scope`: plain, annotated and `with`
    /// assignments in order, then `(name := value)` anywhere in the scope's own expressions.
    static func assignedValues(in scope: SyntaxNode) -> [String: [SyntaxNode]] {
        var out: [String: [SyntaxNode]] = [:]
        statements(of: scope) { statement in
            switch statement.kind {
            case .assign:
                guard let value = statement.children.last else { return }
                for target in statement.children.dropLast() where target.kind == .name {
                    if let name = target.text { out[name, default: []].append(value) }
                }
            case .annAssign where statement.children.count == 3:
                let target = statement.children[0]
                guard target.kind == .name, let name = target.text else { return }
                if !statement.children[2].isEmpty {
                    out[name, default: []].append(statement.children[2])
                } else if let instance = instance(of: statement.children[1]) {
                    out[name, default: []].append(instance)
                }
            case .with, .asyncWith:
                for item in statement.children where item.kind == .withItem && item.children.count == 2 {
                    if item.children[1].kind == .name, let name = item.children[1].text {
                        out[name, default: []].append(item.children[0])
                    }
                }
            default:
                break
            }
        }
        var walrus: [String: [SyntaxNode]] = [:]
        walkScope(scope) { node in
            if node.kind == .namedExpr, node.children.count == 2, let name = node.children[0].text {
                walrus[name, default: []].append(node.children[1])
            }
        }
        return out.merging(walrus) { $0 + $1 }
    }

    // MARK: self.attr

    private func attributeOrigins(_ attr: String, base: String, at location: SourceLocation) -> [SyntaxNode] {
        guard let cls = root.enclosingDefinitions(containing: location).last(where: { $0.kind == .classDef }),
            let body = cls.children.last
        else { return [] }
        var out: [SyntaxNode] = []
        for statement in body.children {
            if statement.kind == .assign, let value = statement.children.last,
                statement.children.dropLast().contains(where: { $0.kind == .name && $0.text == attr })
            {
                out.append(value)
            }
        }
        // `self.attr = value` in any method (nested classes have their own `self`).
        body.walk { node in
            if node.kind == .classDef { return false }
            if node.kind == .assign, let value = node.children.last {
                for target in node.children.dropLast()
                where target.kind == .attribute && target.text == attr && target.children.first?.kind == .name
                    && target.children.first?.text == base
                {
                    out.append(value)
                }
            }
            return true
        }
        return out
    }

    // MARK: Local functions

    /// What `function` returns, and a value of its return annotation.
    private func returnOrigins(of function: SyntaxNode?) -> [SyntaxNode] {
        guard let parts = function?.children, parts.count == 5 else { return [] }
        var out: [SyntaxNode] = []
        if let instance = Self.instance(of: parts[3]) { out.append(instance) }
        Self.walkScope(parts[4]) { node in
            if node.kind == .return, let value = node.children.first { out.append(value) }
        }
        return out
    }

    // MARK: Helpers

    private static func isFunction(_ node: SyntaxNode) -> Bool {
        node.kind == .functionDef || node.kind == .asyncFunctionDef
    }

    /// A value of the type an annotation names, as a call of it (`T` → `T()`); `Optional[T]` and
    /// `T | None` name `T`. Nil for anything else (strings, other generics).
    static func instance(of annotation: SyntaxNode) -> SyntaxNode? {
        switch annotation.kind {
        case .name, .attribute:
            guard annotation.dottedName != nil else { return nil }
            return SyntaxNode(.call, children: [annotation], range: annotation.range)
        case .subscript where annotation.children.count == 2:
            guard let callee = annotation.children[0].dottedName, callee == "Optional" || callee.hasSuffix(".Optional")
            else { return nil }
            return instance(of: annotation.children[1])
        case .binOp where annotation.text == "|" && annotation.children.count == 2:
            let (left, right) = (annotation.children[0], annotation.children[1])
            if right.kind == .none { return instance(of: left) }
            if left.kind == .none { return instance(of: right) }
            return nil
        default:
            return nil
        }
    }

    /// Visits the statements of a scope, into compound statements but not into nested functions
    /// or classes.
    static func statements(of scope: SyntaxNode, _ visit: (SyntaxNode) -> Void) {
        scope.walk { node in
            switch node.kind {
            case .module, .block:
                return true
            case .functionDef, .asyncFunctionDef, .classDef:
                return node.range == scope.range
            case .if, .while, .for, .asyncFor, .with, .asyncWith, .try, .tryStar, .exceptHandler, .match, .matchCase:
                visit(node)
                return true
            default:
                visit(node)
                return false
            }
        }
    }

    /// Visits every node of a scope but those of nested functions, classes and lambdas.
    static func walkScope(_ scope: SyntaxNode, _ visit: (SyntaxNode) -> Void) {
        scope.walk { node in
            if node.range != scope.range,
                node.kind == .functionDef || node.kind == .asyncFunctionDef || node.kind == .classDef || node.kind == .lambda
            {
                return false
            }
            visit(node)
            return true
        }
    }
}
