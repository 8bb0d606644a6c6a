import JavaScriptSyntax
import SyntaxTree

/// Functions, methods and their parameters.
extension Lowerer {
    /// What kind of function a method is, for the implied `this` parameter and decorators.
    enum MethodRole {
        /// A plain function, arrow or object-literal method: no `this` parameter.
        case function
        /// An instance method, getter, setter or constructor: `this` is its first parameter.
        case instance
        /// A `static` method: decorated `staticmethod`.
        case `static`
    }

    /// A function declaration or expression, an arrow or a method as a `functionDef` (an
    /// `asyncFunctionDef` when `async`), named `name` (no text when anonymous).
    func function(_ js: JSNode, name: String?, role: MethodRole = .function) -> SyntaxNode {
        let r = js.range
        let modifiers = child(js, 0).kind == .modifiers ? child(js, 0) : child(js, 1)
        let decorators: JSNode
        let typeParameters: JSNode
        let parameters: JSNode
        let returnType: JSNode
        let body: JSNode
        switch js.kind {
        case .arrowFunction:
            decorators = JSNode(.decorators, range: r)
            (typeParameters, parameters, returnType, body) = (child(js, 1), child(js, 2), child(js, 3), child(js, 4))
        case .method:
            decorators = child(js, 0)
            (typeParameters, parameters, returnType, body) = (child(js, 3), child(js, 4), child(js, 5), child(js, 6))
        default:
            decorators = JSNode(.decorators, range: r)
            (typeParameters, parameters, returnType, body) = (child(js, 2), child(js, 3), child(js, 4), child(js, 5))
        }
        let isConstructor = js.kind == .method && name == "constructor" && role == .instance
        var decoratorList = self.decorators(decorators)
        if role == .static {
            decoratorList.children.append(make(.decorator, nil, [self.name("staticmethod", r)], r))
        } else if role == .instance, has(modifiers, "get") {
            decoratorList.children.append(make(.decorator, nil, [self.name("property", r)], r))
        } else if role == .instance, has(modifiers, "set"), let name {
            decoratorList.children.append(make(.decorator, nil, [make(.attribute, "setter", [self.name(name, r)], r)], r))
        }
        var lowered = self.parameters(parameters)
        var prologue = lowered.prologue
        if isConstructor { prologue = lowered.properties + prologue }
        if role == .instance { lowered.node.children.insert(make(.parameter, "this", [empty(r), empty(r)], r), at: 0) }
        var block: SyntaxNode
        if body.kind == .block {
            block = self.body(body)
        } else if body.isEmpty {
            block = make(.block, nil, [], r)
        } else {
            // An expression body is a block of its own: what it hoists goes before its `return`.
            block = make(.block, nil, hoisting { [make(.return, nil, [expression(body)], body.range)] }, body.range)
        }
        block.children = prologue + block.children
        let kind: SyntaxKind = has(modifiers, "async") ? .asyncFunctionDef : .functionDef
        return make(
            kind, isConstructor ? "__init__" : name,
            [
                decoratorList, self.typeParameters(typeParameters), lowered.node,
                returnType.isEmpty ? empty(r) : typeExpression(returnType), block,
            ], r)
    }

    /// A ``JSNodeKind/decorators`` list as `decorators` of `decorator [expr]`.
    func decorators(_ js: JSNode) -> SyntaxNode {
        let list = js.kind == .decorators ? js.children : []
        return make(.decorators, nil, list.map { make(.decorator, nil, [expression(child($0, 0))], $0.range) }, js.range)
    }

    /// TypeScript type parameters as `typeParams` of `typeParam` (name only; constraints dropped).
    func typeParameters(_ js: JSNode) -> SyntaxNode {
        let list = js.kind == .typeParameters ? js.children : []
        return make(.typeParams, nil, list.map { make(.typeParam, $0.text ?? "", [empty($0.range)], $0.range) }, js.range)
    }

    /// The `parameters` node, the statements unpacking destructured parameters, and the
    /// `this.x = x` assignments of a constructor's parameter properties.
    private func parameters(_ js: JSNode) -> (node: SyntaxNode, prologue: [SyntaxNode], properties: [SyntaxNode]) {
        var out: [SyntaxNode] = []
        var prologue: [SyntaxNode] = []
        var properties: [SyntaxNode] = []
        for (i, parameter) in js.children.enumerated() {
            let r = parameter.range
            // A pattern's `...` stands among the parameters, as in Python's patterns.
            if parameter.kind == .ellipsis { out.append(make(.ellipsis, nil, [], r)) }
            guard parameter.kind == .parameter else { continue }
            let pattern = child(parameter, 2)
            let defaultValue = child(parameter, 4)
            let annotation = self.annotation(decorators: child(parameter, 0), type: child(parameter, 3), range: r)
            let value = defaultValue.isEmpty ? empty(r) : expression(defaultValue)
            switch pattern.kind {
            case .this:
                continue
            case .identifier:
                let name = pattern.text ?? ""
                out.append(make(.parameter, name, [annotation, value], r))
                let modifiers = child(parameter, 1)
                if ["public", "private", "protected", "readonly", "override"].contains(where: { has(modifiers, $0) }) {
                    let field = make(.attribute, name, [self.name("this", r)], r)
                    properties.append(make(.assign, nil, [field, self.name(name, r)], r))
                }
            case .restElement:
                let inner = child(pattern, 0)
                if inner.kind == .identifier {
                    out.append(make(.varArgs, inner.text ?? "", [annotation], r))
                } else {
                    let synthetic = JavaScriptLowering.destructuredParameterPrefix + String(i)
                    out.append(make(.varArgs, synthetic, [annotation], r))
                    prologue += destructure(inner, name(synthetic, inner.range))
                }
            default:
                let synthetic = JavaScriptLowering.destructuredParameterPrefix + String(i)
                out.append(make(.parameter, synthetic, [annotation, value], r))
                prologue += destructure(pattern, name(synthetic, pattern.range))
            }
        }
        return (make(.parameters, nil, out, js.range), prologue, properties)
    }

    /// A parameter's annotation: its type; with decorators, `Annotated[type, decorator...]` (the
    /// form FastAPI reads `Annotated[str, Query()]` in), `any` standing for a missing type.
    private func annotation(decorators: JSNode, type: JSNode, range r: SourceRange) -> SyntaxNode {
        let list = decorators.kind == .decorators ? decorators.children : []
        if list.isEmpty { return type.isEmpty ? empty(r) : typeExpression(type) }
        let base = type.isEmpty ? name("any", r) : typeExpression(type)
        let metadata = list.map { expression(child($0, 0)) }
        return make(.subscript, nil, [name("Annotated", decorators.range), make(.tuple, nil, [base] + metadata, decorators.range)], r)
    }
}
