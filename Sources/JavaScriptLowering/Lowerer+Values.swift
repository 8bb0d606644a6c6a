import JavaScriptSyntax
import SyntaxTree
import SourcePositions

/// Values, not spellings (issue 76, H1): the forms JavaScript has for one call lower to the one
/// shape the rules are written against, so that a sink is found whatever it is spelled.
///
/// - `o['m']` is `o.m` (``literalKey(_:)``);
/// - `require('m')` and `await import('m')` inside an expression are the module, bound by an import
///   hoisted before the statement (``inlineModule(_:)``): `require('child_process').exec(c)` is
///   `child_process.exec(c)` to the engine's import aliases; the first parameter of a callback
///   written in `import('m').then(...)` is the module too (``moduleCallback(_:_:)``);
/// - `(0, f)(x)`, the indirect call compilers write, is `f(x)` (``callee(_:)``);
/// - `f.call(t, a)`, `f.apply(t, [a])` and `Reflect.apply(f, t, [a])` are `f(a)`; a method taken
///   off a prototype is called on `t` (`Array.prototype.slice.call(xs)` is `xs.slice()`)
///   (``directCall(_:)``).
///
/// What a callback receives (`xs.forEach(f)` calls `f` with each element) is the engine's part:
/// ``JavaScriptLowering/elementCallbackMethods`` names the methods.
extension Lowerer {
    /// The text of a literal property key: a string, or a template without substitutions.
    func literalKey(_ js: JSNode) -> String? {
        switch js.kind {
        case .string: return js.text
        case .templateLiteral where js.children.count == 1 && js.children[0].kind == .templateElement:
            return js.children[0].text
        case .parenthesized: return literalKey(child(js, 0))
        default: return nil
        }
    }

    /// The specifier of a module loaded by `require('m')` or `await import('m')` (parentheses
    /// aside); nil for anything else (a computed name, more arguments).
    func loadedModule(_ js: JSNode) -> String? {
        var node = js
        while node.kind == .parenthesized { node = child(node, 0) }
        switch node.kind {
        case .call:
            let callee = child(node, 0)
            let arguments = child(node, 2)
            guard node.text == nil, callee.kind == .identifier, callee.text == "require", arguments.kind == .arguments,
                arguments.children.count == 1
            else { return nil }
            return literalKey(arguments.children[0])
        case .await:
            var loaded = child(node, 0)
            while loaded.kind == .parenthesized { loaded = child(loaded, 0) }
            guard loaded.kind == .importCall else { return nil }
            return literalKey(child(loaded, 0))
        default:
            return nil
        }
    }

    /// `require('m')` or `await import('m')` inside an expression: an import of the module into a
    /// temporary, hoisted before the statement, and that temporary in its place. Nil for anything
    /// else. In a rule pattern it is the module's dotted name, which every name the code imports
    /// from it expands to (`require('express-session')({...})` matches `session({...})` after
    /// `import session from 'express-session'`: identity by the import, not the local name); a
    /// pattern's `require($X)` stays a call to match.
    func inlineModule(_ js: JSNode) -> SyntaxNode? {
        guard let specifier = loadedModule(js) else { return nil }
        if isPattern { return name(ModuleSpecifier.module(specifier), js.range) }
        let temporary = temporaryName()
        hoisted[hoisted.count - 1].append(moduleImport(specifier, members: [], as: temporary, js.range))
        return name(temporary, js.range)
    }

    /// A callee: `(0, f)` (a sequence whose leading parts have no effect) is `f`, the value a comma
    /// expression has; anything else as an expression.
    func callee(_ js: JSNode) -> SyntaxNode {
        var node = js
        while node.kind == .parenthesized { node = child(node, 0) }
        if node.kind == .sequence, let last = node.children.last, node.children.dropLast().allSatisfy(isInert) {
            return expression(last)
        }
        return expression(js)
    }

    /// Whether evaluating `js` does nothing the analysis could see: a literal, a name, `this`, or a
    /// member chain of those.
    func isInert(_ js: JSNode) -> Bool {
        switch js.kind {
        case .number, .string, .boolean, .null, .bigint, .identifier, .this, .regex: return true
        case .templateLiteral: return js.children.allSatisfy { $0.kind == .templateElement }
        case .member: return isInert(child(js, 0))
        case .parenthesized, .unary: return isInert(child(js, 0))
        default: return false
        }
    }

    /// `f.call(t, a...)`, `f.apply(t, list)` and `Reflect.apply(f, t, list)` as the direct call of
    /// `f` with those arguments; a method read off a prototype (`C.prototype.m.call(t, a)`) as the
    /// method called on `t`. Nil for any other call, and when `t` does something (it would be lost).
    func directCall(_ js: JSNode) -> SyntaxNode? {
        guard !isPattern, js.kind == .call, js.text == nil else { return nil }
        var calleeNode = child(js, 0)
        while calleeNode.kind == .parenthesized { calleeNode = child(calleeNode, 0) }
        let arguments = child(js, 2).kind == .arguments ? child(js, 2).children : []
        guard calleeNode.kind == .member, child(calleeNode, 1).kind == .identifier, let method = child(calleeNode, 1).text
        else { return nil }
        let object = child(calleeNode, 0)
        let function: JSNode
        let thisArgument: JSNode?
        let passed: [SyntaxNode]
        switch method {
        case "call":
            function = object
            thisArgument = arguments.first
            passed = arguments.dropFirst().map(expression)
        case "apply" where object.kind == .identifier && object.text == "Reflect":
            guard arguments.count >= 2, arguments.count <= 3 else { return nil }
            function = arguments[0]
            thisArgument = arguments[1]
            passed = arguments.count == 3 ? spreadArguments(arguments[2]) : []
        case "apply":
            guard arguments.count <= 2 else { return nil }
            function = object
            thisArgument = arguments.first
            passed = arguments.count == 2 ? spreadArguments(arguments[1]) : []
        default:
            return nil
        }
        if let thisArgument, thisArgument.kind == .spread || !isInert(thisArgument) { return nil }
        guard function.kind == .identifier || function.kind == .member || function.kind == .index else { return nil }
        let r = js.range
        // `C.prototype.m.call(t, ...)`: the method `m` of `t`.
        if function.kind == .member, child(function, 1).kind == .identifier, let member = child(function, 1).text,
            child(function, 0).kind == .member, child(child(function, 0), 1).text == "prototype", let thisArgument
        {
            return make(.call, nil, [make(.attribute, member, [expression(thisArgument)], function.range)] + passed, r)
        }
        return make(.call, nil, [expression(function)] + passed, r)
    }

    /// `import('m').then(cb)` with a callback written in place: its first parameter is the module,
    /// bound by an import at the top of the callback's body (`import('child_process').then((cp) =>
    /// cp.exec(c))`, `.then(({exec}) => exec(c))` through the destructured parameter). `lowered`
    /// is the call's lowering, whose hoisted callback is the one changed.
    func moduleCallback(_ js: JSNode, _ lowered: SyntaxNode) -> SyntaxNode {
        guard !isPattern, js.kind == .call, lowered.children.count > 1, lowered.children[1].kind == .name,
            let callback = lowered.children[1].text, callback.hasPrefix(JavaScriptLowering.hoistedPrefix)
        else { return lowered }
        var calleeNode = child(js, 0)
        while calleeNode.kind == .parenthesized { calleeNode = child(calleeNode, 0) }
        guard calleeNode.kind == .member, child(calleeNode, 1).text == "then" else { return lowered }
        var loaded = child(calleeNode, 0)
        while loaded.kind == .parenthesized { loaded = child(loaded, 0) }
        guard loaded.kind == .importCall, let specifier = literalKey(child(loaded, 0)),
            let position = hoisted[hoisted.count - 1].lastIndex(where: { $0.text == callback }),
            case var definition = hoisted[hoisted.count - 1][position], definition.children.count == 5,
            let parameter = definition.children[2].children.first, parameter.kind == .parameter, let local = parameter.text
        else { return lowered }
        definition.children[4].children.insert(moduleImport(specifier, members: [], as: local, loaded.range), at: 0)
        hoisted[hoisted.count - 1][position] = definition
        return lowered
    }

    /// The arguments an `apply`'s list stands for: an array literal's elements, else the list spread.
    private func spreadArguments(_ list: JSNode) -> [SyntaxNode] {
        var node = list
        while node.kind == .parenthesized { node = child(node, 0) }
        if node.kind == .array { return node.children.map(expression) }
        return [make(.starred, nil, [expression(list)], list.range)]
    }
}

extension JavaScriptLowering {
    /// Methods that call their first argument with each element of their receiver (or, for `then`,
    /// with the value the promise resolves to).
    public static let elementCallbackMethods: Set<String> = [
        "forEach", "map", "flatMap", "filter", "find", "findLast", "findIndex", "findLastIndex", "some", "every", "then",
    ]
}
