import JavaScriptSyntax
import SyntaxTree

/// Statements: declarations of variables, control flow, `try`, `switch` and expression statements.
extension Lowerer {
    /// The statements of a statement list, in order.
    func statements(_ list: [JSNode]) -> [SyntaxNode] { list.flatMap(statement) }

    /// A body: a ``JSNodeKind/block`` or one statement, as a `block`.
    func body(_ js: JSNode) -> SyntaxNode {
        if js.kind == .block { return make(.block, nil, statements(js.children), js.range) }
        return make(.block, nil, js.isEmpty ? [] : statement(js), js.range)
    }

    /// The generic statements of one JavaScript statement: none for a type-only declaration, several
    /// for a declaration list or a destructuring, the definitions hoisted out of its expressions first.
    func statement(_ js: JSNode) -> [SyntaxNode] { hoisting { plainStatement(js) } }

    /// ``statement(_:)`` without the hoisted definitions.
    private func plainStatement(_ js: JSNode) -> [SyntaxNode] {
        let r = js.range
        switch js.kind {
        case .block: return statements(js.children)
        case .emptyStatement, .debugger: return []
        case .expressionStatement: return expressionStatement(child(js, 0))
        case .variableDeclaration: return js.children.flatMap(declarator)
        case .if:
            let alternate = child(js, 2)
            return [
                make(
                    .if, nil, [expression(child(js, 0)), body(child(js, 1)), alternate.isEmpty ? empty(r) : body(alternate)], r)
            ]
        case .for: return forLoop(js)
        case .forIn, .forOf: return forEach(js)
        case .while: return [make(.while, nil, [expression(child(js, 0)), body(child(js, 1)), empty(r)], r)]
        case .doWhile:
            let test = child(js, 1)
            let exit = make(
                .if, nil,
                [
                    make(.unaryOp, "not", [expression(test)], test.range),
                    make(.block, nil, [make(.break, nil, [], test.range)], test.range), empty(test.range),
                ],
                test.range)
            var loop = body(child(js, 0))
            loop.children.append(exit)
            return [make(.while, nil, [make(.true, nil, [], r), loop, empty(r)], r)]
        case .return:
            let argument = child(js, 0)
            return [make(.return, nil, argument.isEmpty ? [] : [expression(argument)], r)]
        case .throw: return [make(.raise, nil, [expression(child(js, 0)), empty(r)], r)]
        case .break: return [make(.break, nil, [], r)]
        case .continue: return [make(.continue, nil, [], r)]
        case .labeled: return statement(child(js, 0))
        case .switch: return switchStatement(js)
        case .try: return tryStatement(js)
        case .with:
            let object = child(js, 0)
            return [
                make(.with, nil, [make(.withItem, nil, [expression(object), empty(object.range)], object.range), body(child(js, 1))], r)
            ]
        case .functionDeclaration, .classDeclaration, .enumDeclaration, .moduleDeclaration, .interfaceDeclaration, .typeAlias:
            return declaration(js)
        case .importDeclaration, .importEquals, .exportNamed, .exportAll, .exportDeclaration, .exportDefault,
            .exportAssignment, .exportNamespace:
            return moduleStatement(js)
        case .program: return statements(js.children)
        case .empty: return []
        default:
            // An expression where a statement was expected (a fragment lowered on its own).
            return [make(.exprStmt, nil, [expression(js)], r)]
        }
    }

    /// An expression statement: assignments become `assign`/`augAssign` (a destructuring, one
    /// assignment per bound name; `x = require('m')` an import), `x++` an `augAssign`, `a, b` one
    /// statement each, `delete a.b` a `delete`.
    func expressionStatement(_ js: JSNode) -> [SyntaxNode] {
        let r = js.range
        switch js.kind {
        case .parenthesized where child(js, 0).kind == .assignment || child(js, 0).kind == .sequence:
            return expressionStatement(child(js, 0))
        case .assignment:
            let op = js.text ?? "="
            let left = child(js, 0)
            if op != "=" { return [make(.augAssign, op, [target(left), expression(child(js, 1))], r)] }
            if let imports = requireImport(left, child(js, 1), r) { return imports }
            if left.kind == .objectPattern || left.kind == .arrayPattern {
                return destructure(left, expression(child(js, 1)))
            }
            // `a = b = v` is one assign with every target.
            var targets = [target(left)]
            var value = child(js, 1)
            while value.kind == .assignment, value.text == "=",
                value.children.first.map({ $0.kind != .objectPattern && $0.kind != .arrayPattern }) ?? false
            {
                targets.append(target(child(value, 0)))
                value = child(value, 1)
            }
            return [make(.assign, nil, targets + [expression(value)], r)]
        case .prefixUpdate, .postfixUpdate:
            return [make(.augAssign, js.text == "--" ? "-=" : "+=", [target(child(js, 0)), make(.integer, "1", [], r)], r)]
        case .sequence: return js.children.flatMap(expressionStatement)
        case .unary where js.text == "delete": return [make(.delete, nil, [target(child(js, 0))], r)]
        default: return [make(.exprStmt, nil, [expression(js)], r)]
        }
    }

    /// One `variableDeclarator`: `x = v`, `x: T = v`, a function or class named by its variable, an
    /// import (`require`), or a destructuring.
    private func declarator(_ js: JSNode) -> [SyntaxNode] {
        let r = js.range
        let pattern = child(js, 0)
        let type = child(js, 1)
        let initializer = child(js, 2)
        if let imports = requireImport(pattern, initializer, r) { return imports }
        if pattern.kind == .identifier, let name = pattern.text {
            switch initializer.kind {
            case .arrowFunction, .functionExpression: return [function(initializer, name: name)]
            case .classExpression: return [classDefinition(initializer, name: name)]
            default: break
            }
        }
        if pattern.kind == .objectPattern || pattern.kind == .arrayPattern {
            return initializer.isEmpty ? [] : destructure(pattern, expression(initializer))
        }
        let target = self.target(pattern)
        if !type.isEmpty {
            return [make(.annAssign, nil, [target, typeExpression(type), initializer.isEmpty ? empty(r) : expression(initializer)], r)]
        }
        return [make(.assign, nil, [target, initializer.isEmpty ? make(.none, nil, [], r) : expression(initializer)], r)]
    }

    /// `for (init; test; update) body`: the initialiser's statements, then `while test` over the
    /// body followed by the update (a `continue` skips the update: not modelled).
    private func forLoop(_ js: JSNode) -> [SyntaxNode] {
        let r = js.range
        let initializer = child(js, 0)
        let test = child(js, 1)
        let update = child(js, 2)
        var out: [SyntaxNode] = []
        if initializer.kind == .variableDeclaration {
            out = statement(initializer)
        } else if !initializer.isEmpty {
            out = expressionStatement(initializer)
        }
        var loop = body(child(js, 3))
        if !update.isEmpty { loop.children += expressionStatement(update) }
        out.append(make(.while, nil, [test.isEmpty ? make(.true, nil, [], r) : expression(test), loop, empty(r)], r))
        return out
    }

    /// `for (x in o)` and `for (x of xs)` are `for x in ...` (a key loop over a dict is Python's too);
    /// `for await` is `asyncFor`. A destructured variable is a temporary unpacked first in the body.
    private func forEach(_ js: JSNode) -> [SyntaxNode] {
        let r = js.range
        var left = child(js, 0)
        if left.kind == .variableDeclaration { left = child(child(left, 0), 0) }
        var loop = body(child(js, 2))
        let variable: SyntaxNode
        if left.kind == .objectPattern || left.kind == .arrayPattern {
            let temporary = name(temporaryName(), left.range)
            variable = temporary
            loop.children = destructure(left, temporary) + loop.children
        } else {
            variable = target(left)
        }
        let kind: SyntaxKind = js.kind == .forOf && js.text == "await" ? .asyncFor : .for
        return [make(kind, nil, [variable, expression(child(js, 1)), loop, empty(r)], r)]
    }

    /// `switch` as an `if`/`elif` chain on `discriminant == test`: cases without statements join the
    /// next case's test with `or`, a case's last `break` is dropped, `default` is the final `else`.
    /// Fall-through from a case with statements into the next is not modelled.
    private func switchStatement(_ js: JSNode) -> [SyntaxNode] {
        let r = js.range
        let discriminant = child(js, 0)
        // Lowered once (and shared by every comparison): a function in it is hoisted once.
        let subject = expression(discriminant)
        var branches: [(test: SyntaxNode, block: SyntaxNode)] = []
        var defaultBlock: SyntaxNode?
        var pending: [SyntaxNode] = []
        var pendingDefault = false
        for switchCase in js.children.dropFirst() where switchCase.kind == .switchCase {
            let test = child(switchCase, 0)
            if test.isEmpty {
                pendingDefault = true
            } else {
                pending.append(make(.compare, "==", [subject, expression(test)], test.range))
            }
            var statements = statements(child(switchCase, 1).children)
            if statements.isEmpty { continue }
            if statements.last?.kind == .break { statements.removeLast() }
            let block = make(.block, nil, statements, switchCase.range)
            if pendingDefault {
                defaultBlock = block
            } else if !pending.isEmpty {
                let test = pending.count == 1 ? pending[0] : make(.boolOp, "or", pending, switchCase.range)
                branches.append((test, block))
            }
            pending = []
            pendingDefault = false
        }
        var chain: SyntaxNode? = defaultBlock
        for branch in branches.reversed() {
            let node = make(.if, nil, [branch.test, branch.block, chain ?? empty(r)], branch.block.range)
            chain = make(.block, nil, [node], branch.block.range)
        }
        guard let chain else { return [make(.exprStmt, nil, [subject], r)] }
        if branches.isEmpty { return chain.children }
        var outer = chain.children[0]
        outer.range = r
        return [outer]
    }

    /// `try`/`catch`/`finally`: a `try` with one `exceptHandler` named by the catch parameter (a
    /// destructured parameter is a temporary unpacked first in the handler).
    private func tryStatement(_ js: JSNode) -> [SyntaxNode] {
        let r = js.range
        var children = [body(child(js, 0))]
        let handler = child(js, 1)
        if handler.kind == .catchClause {
            let parameter = child(handler, 0)
            var block = body(child(handler, 2))
            var boundName: String?
            if parameter.kind == .identifier {
                boundName = parameter.text
            } else if !parameter.isEmpty {
                let temporary = temporaryName()
                boundName = temporary
                block.children = destructure(parameter, name(temporary, parameter.range)) + block.children
            }
            children.append(make(.exceptHandler, boundName, [empty(handler.range), block], handler.range))
        }
        let finalizer = child(js, 2)
        children.append(empty(r))
        children.append(finalizer.isEmpty ? empty(r) : body(finalizer))
        return [make(.try, nil, children, r)]
    }
}
