import PythonSyntax

/// Expressions: the value of each, with constants folded and containers kept apart.
extension TaintAnalyzer {
    /// The value of an expression, checking the sinks inside it on the way.
    mutating func evaluate(_ e: SyntaxNode) -> AbstractValue {
        // Read once: `kind` is a call into another module, and this runs at every node.
        let kind = e.kind
        if kind == .empty { return .clean }
        // Past the file's work budget what follows is thrown away (``WorkMeter``): stop here.
        guard index.meter.charge() else { return .clean }
        checkSinks(e)
        if kind == .call || kind == .attribute || kind == .name || kind == .subscript || kind == .binOp {
            if isSanitizer(e) {
                sanitizerSeen = true
                for child in e.children.dropFirst() { sanitizedParameters.formUnion(evaluate(child).whole.parameters) }
                return .clean
            }
            if let source = firstSource(e), !readsForeignTyped(e) {
                for child in e.children { _ = evaluate(child) }
                let label = Self.label(e, index.source)
                var origin = TaintOrigin(label: label, line: e.range.start.line)
                origin.isLocal = source.isLocal
                origin.isLibrary = source.isLibrary
                origin.requestPart = source.requestPart
                if source.requestPart != nil, kind == .call, let key = e.children.dropFirst().first,
                    case .string(let name)? = PyConstant(literal: key)
                {
                    // The source is the keyed read itself: Tornado's `self.get_argument("q")`.
                    origin.requestName = name
                    if let part = source.requestPart { requestReads?.note(line: origin.line, part: part, name: name) }
                }
                if !origin.isLocal { localizeSocketRead(e, &origin) }
                if state.isAuthenticated { origin.isLocal = true }
                origin.append(FlowHop(range: e.range, note: "source: " + label))
                return AbstractValue(taint: Taint(origin))
            }
        }
        if let constant = PyConstant(literal: e) { return AbstractValue(constant: constant) }
        let c = e.children
        switch kind {
        case .name:
            guard let name = e.text else { return .clean }
            return state[name] ?? readGlobal(name)
        case .bytes, .imaginary, .ellipsis, .lambda:
            return .clean
        case .namedExpr where c.count == 2:
            let value = evaluate(c[1])
            assign(c[0], value)
            return value
        case .call:
            return evaluateCall(e)
        case .attribute:
            return evaluateAttribute(e)
        case .subscript where c.count == 2:
            return evaluateSubscript(e)
        case .list, .tuple:
            return evaluateSequence(e)
        case .dict:
            return evaluateDict(e)
        case .set:
            return evaluateSet(e)
        case .listComp, .setComp, .generatorExp, .dictComp:
            return evaluateComprehension(e)
        case .compare:
            return evaluateCompare(e)
        case .unaryOp where c.count == 1:
            return evaluateUnary(e)
        case .boolOp:
            return evaluateBoolOp(e)
        case .ifExp where c.count == 3:
            return evaluateIfExp(e)
        case .binOp where c.count == 2:
            return evaluateBinary(e)
        case .joinedStr:
            return evaluateJoined(e)
        case .formattedValue:
            return evaluateFormatted(e)
        case .await:
            return c.first.map { evaluate($0) } ?? .clean
        case .starred, .doubleStarred, .keyword:
            return c.first.map { evaluate($0) } ?? .clean
        default:
            var taint = Taint.clean
            for child in c { taint.formUnion(evaluate(child).whole) }
            return AbstractValue(taint: taint)
        }
    }

    private mutating func evaluateSequence(_ e: SyntaxNode) -> AbstractValue {
        let c = e.children
        if c.contains(where: { $0.kind == .starred }) {
            var out = AbstractValue(elements: [])
            for element in c {
                let value = evaluate(element.kind == .starred ? element.children[0] : element)
                if element.kind == .starred, let parts = value.elements {
                    for part in parts { out.append(part) }
                } else if element.kind == .starred {
                    out.absorb(elementValue(of: value).whole)
                } else {
                    out.append(value)
                }
            }
            return out
        }
        return AbstractValue(elements: c.map { evaluate($0) })
    }

    private mutating func evaluateDict(_ e: SyntaxNode) -> AbstractValue {
        let c = e.children
        var out = AbstractValue()
        for entry in c {
            if entry.kind == .keyValue, entry.children.count == 2 {
                let key = evaluate(entry.children[0])
                let value = evaluate(entry.children[1])
                if let constant = key.constant, out.members.count < AbstractValue.maximumParts {
                    out.members[constant.key] = value
                } else {
                    out.absorb(value.whole.union(key.whole))
                }
            } else if let inner = entry.children.first {
                let spread = evaluate(inner)
                for (key, value) in spread.members { out.members[key] = value }
                out.taint.formUnion(spread.taint)
            }
        }
        return out
    }

    private mutating func evaluateSet(_ e: SyntaxNode) -> AbstractValue {
        let c = e.children
        var taint = Taint.clean
        for element in c { taint.formUnion(evaluate(element).whole) }
        return AbstractValue(taint: taint)
    }

    private mutating func evaluateCompare(_ e: SyntaxNode) -> AbstractValue {
        let c = e.children
        let values = c.map { evaluate($0) }
        if values.count == 2, let l = values[0].constant, let r = values[1].constant, let op = e.text,
            let result = PyConstant.compare(op, l, r)
        {
            return AbstractValue(constant: .bool(result))
        }
        return .clean
    }

    private mutating func evaluateUnary(_ e: SyntaxNode) -> AbstractValue {
        let c = e.children
        let operand = evaluate(c[0])
        if e.text == "not" {
            if let constant = operand.constant { return AbstractValue(constant: .bool(!constant.isTruthy)) }
            return .clean
        }
        if e.text == "-", case .integer(let i)? = operand.constant { return AbstractValue(constant: .integer(-i)) }
        return AbstractValue(taint: operand.whole)
    }

    private mutating func evaluateIfExp(_ e: SyntaxNode) -> AbstractValue {
        let c = e.children
        let test = evaluate(c[1])
        if let constant = test.constant ?? staticTruth(c[1]) {
            return evaluate(constant.isTruthy ? c[0] : c[2])
        }
        let saved = state
        refine(c[1], truthy: true)
        let body = evaluate(c[0])
        state = saved
        refine(c[1], truthy: false)
        let orelse = evaluate(c[2])
        state = saved
        return body.joined(with: orelse)
    }

    private mutating func evaluateBinary(_ e: SyntaxNode) -> AbstractValue {
        let c = e.children
        let l = evaluate(c[0])
        let r = evaluate(c[1])
        if let op = e.text, let a = l.constant, let b = r.constant, let folded = PyConstant.fold(op, a, b) {
            return AbstractValue(constant: folded)
        }
        if e.text == "+", let a = l.elements, let b = r.elements {
            var out = AbstractValue(elements: a)
            for element in b { out.append(element) }
            return out
        }
        // Open redirect: the start decides where the URL leads (it keeps its own taint: a
        // parameter's while summarising).
        if e.text == "+", patterns.isRedirectRule, Self.fixesDestination(l) { return AbstractValue(taint: l.whole) }
        return AbstractValue(taint: l.whole.union(r.whole))
    }

    private mutating func evaluateJoined(_ e: SyntaxNode) -> AbstractValue {
        let c = e.children
        var taint = Taint.clean
        var text = ""
        var constant = true
        // Open redirect: once the clean start fixes the destination, later parts cannot move it.
        var destinationFixed = false
        for piece in c {
            let value = evaluate(piece)
            if !destinationFixed { taint.formUnion(value.whole) }
            if case .string(let s)? = value.constant { text += s } else { constant = false }
            if patterns.isRedirectRule, !destinationFixed { destinationFixed = !constant || Self.fixesDestination(text) }
        }
        return constant ? AbstractValue(constant: .string(text)) : AbstractValue(taint: taint)
    }

    private mutating func evaluateFormatted(_ e: SyntaxNode) -> AbstractValue {
        let c = e.children
        var taint = Taint.clean
        var first: AbstractValue? = nil
        for child in c {
            let value = evaluate(child)
            if first == nil { first = value }
            taint.formUnion(value.whole)
        }
        // `{name}` of a constant string with no format spec is that string.
        if let first, case .string? = first.constant, c.count < 2 || c[1].isEmpty { return first }
        return AbstractValue(taint: taint)
    }

    private mutating func evaluateBoolOp(_ e: SyntaxNode) -> AbstractValue {
        // `a or b` is one of its operands; `a and b` too. Later operands run under the earlier ones.
        let saved = state
        var out: AbstractValue? = nil
        var allConstant = true
        for operand in e.children {
            let value = evaluate(operand)
            if let constant = value.constant, allConstant {
                // `x or default` with a falsy constant x is just the rest.
                if (e.text == "or") == constant.isTruthy { return value }
                continue
            }
            allConstant = false
            out = out.map { $0.joined(with: value) } ?? value
            refine(operand, truthy: e.text == "and")
        }
        state = saved
        return out ?? .clean
    }

    private mutating func evaluateComprehension(_ e: SyntaxNode) -> AbstractValue {
        let saved = state
        for comprehension in e.children where comprehension.kind == .comprehension && comprehension.children.count >= 2 {
            let items = evaluate(comprehension.children[1])
            assign(comprehension.children[0], elementValue(of: items))
            for condition in comprehension.children.dropFirst(2) {
                _ = evaluate(condition)
                refine(condition, truthy: true)
            }
        }
        var taint = Taint.clean
        let parts = e.children.filter { $0.kind != .comprehension }
        // A dict comprehension's keys do not taint its values; its values do.
        for (i, element) in parts.enumerated() {
            let value = evaluate(element)
            if e.kind != .dictComp || i == 1 { taint.formUnion(value.whole) }
        }
        state = saved
        return AbstractValue(taint: taint)
    }

    private mutating func evaluateAttribute(_ e: SyntaxNode) -> AbstractValue {
        guard let base = e.children.first, let name = e.text else { return .clean }
        var value = evaluate(base)
        // `req.query.q`: the attribute read off the request's part names its value.
        if value.taint.awaitsRequestName { value.taint = namingRequest(value.taint, name) }
        if let member = value.members["." + name] { return member }
        if base.kind == .name, base.text == receiverName, let className = currentClass {
            return receiverField(name, className: className)
        }
        return AbstractValue(taint: value.taint)
    }

    /// `taint` with its origins awaiting a name named `name` (``Taint/namingRequest(_:)``), each
    /// such read noted for the file (``RequestReads``).
    func namingRequest(_ taint: Taint, _ name: String) -> Taint {
        if let requestReads {
            for origin in taint.origins where origin.awaitsRequestName {
                if let part = origin.requestPart { requestReads.note(line: origin.line, part: part, name: name) }
            }
        }
        return taint.namingRequest(name)
    }

    /// `self.name` not written in this method: a class constant, a source another method stored,
    /// or whatever the caller's object holds in that field.
    func receiverField(_ name: String, className: String) -> AbstractValue {
        var taint = sourceFields[className]?[name] ?? .clean
        if taint.isTainted == false, let constant = model.classConstant(name, of: className) { return constant }
        let origin = TaintOrigin(label: "self.\(name)", line: 0, parameter: 0, field: name)
        taint.formUnion(Taint(origin))
        return AbstractValue(taint: taint)
    }

    private mutating func evaluateSubscript(_ e: SyntaxNode) -> AbstractValue {
        let container = evaluate(e.children[0])
        let indexNode = e.children[1]
        if indexNode.kind == .slice {
            // Each bound: absent, a constant integer, or unknown.
            var bounds: [Int?] = []
            var known = true
            for part in indexNode.children {
                if part.isEmpty {
                    bounds.append(nil)
                } else if case .integer(let i)? = evaluate(part).constant {
                    bounds.append(i)
                } else {
                    known = false
                }
            }
            if known, let elements = container.elements, bounds.count == 3 {
                let count = elements.count
                func clamp(_ i: Int) -> Int { i < 0 ? max(0, count + i) : min(i, count) }
                if bounds[2] == -1, bounds[0] == nil, bounds[1] == nil {
                    return AbstractValue(elements: elements.reversed())
                }
                if bounds[2] == nil || bounds[2] == 1 {
                    let lower = clamp(bounds[0] ?? 0)
                    let upper = clamp(bounds[1] ?? count)
                    return AbstractValue(elements: lower < upper ? Array(elements[lower..<upper]) : [])
                }
            }
            // A slice of a string or an unknown sequence holds what the whole holds.
            return AbstractValue(taint: container.whole)
        }
        let key = evaluate(indexNode)
        if case .string(let name)? = key.constant, container.taint.awaitsRequestName {
            // `request.form["q"]`: the key names the request's value.
            var named = container
            named.taint = namingRequest(container.taint, name)
            return evaluateSubscript(constant: .string(name), of: named)
        }
        return evaluateSubscript(constant: key.constant, of: container)
    }

    /// `container[key]` for a key whose constant (if any) is known.
    private func evaluateSubscript(constant: PyConstant?, of container: AbstractValue) -> AbstractValue {
        if let constant {
            // Strings: a character of a constant is a constant too (rarely matters); of tainted text, tainted.
            if container.elements == nil, container.members.isEmpty { return AbstractValue(taint: container.whole) }
            return container.part(at: constant)
        }
        // `allowed[user_key]` is a trusted value picked by a tainted key: only the container counts.
        return AbstractValue(taint: container.whole)
    }

    /// The constant an expression folds to, without side effects.
    mutating func peekConstant(_ e: SyntaxNode) -> PyConstant? {
        if let constant = PyConstant(literal: e) { return constant }
        return peekValue(e).constant
    }

    /// A module-level name read inside a function: a module constant, or unknown (clean).
    func readGlobal(_ name: String) -> AbstractValue {
        if let constant = model.constants[name] { return AbstractValue(constant: constant) }
        return .clean
    }

    /// Conditions whose truth the code fixes without a literal: `TYPE_CHECKING` is false at run time.
    func staticTruth(_ test: SyntaxNode) -> PyConstant? {
        // An attribute keeps its last segment in the canonical name.
        if test.kind == .attribute, test.text != "TYPE_CHECKING" { return nil }
        guard let dotted = test.dottedName else { return nil }
        let name = index.aliases.canonicalize(dotted)
        return name == "typing.TYPE_CHECKING" || name == "TYPE_CHECKING" ? .bool(false) : nil
    }

    /// `s.recv(...)` on a Unix-domain socket reads what a process of this machine sent: a local
    /// source. On a socket passed in as a parameter, the caller decides (see `apply`).
    mutating func localizeSocketRead(_ e: SyntaxNode, _ origin: inout TaintOrigin) {
        guard e.kind == .call, let callee = e.children.first, callee.kind == .attribute, let base = callee.children.first,
            let method = callee.text, method.hasPrefix("recv")
        else { return }
        let receiver = peekValue(base)
        if receiver.typeName == Self.unixSocketType {
            origin.isLocal = true
        } else if let parameter = receiver.taint.origins.first(where: { $0.parameter != nil && $0.field == nil })?.parameter {
            origin.socketParameter = parameter
        }
    }

    /// Whether the expression reads a parameter annotated with a class that is no web request
    /// (`request.url` where `request: scrapy.Request`).
    func readsForeignTyped(_ e: SyntaxNode) -> Bool {
        guard !foreignTyped.isEmpty else { return false }
        var root = e
        while root.kind == .attribute || root.kind == .call || root.kind == .subscript, let first = root.children.first { root = first }
        return root.kind == .name && root.text.map(foreignTyped.contains) == true
    }

    /// Whether an annotation names a class that is not an incoming request: one of this file, or
    /// one imported from a module outside the web frameworks (`from scrapy import Request`).
    /// Unannotated, `typing` names and anything not resolved keep the source patterns as they are.
    func isForeignType(_ annotation: SyntaxNode?) -> Bool {
        guard let annotation, [.name, .attribute].contains(annotation.kind), let dotted = annotation.dottedName else { return false }
        if annotation.kind == .name, model.classes[dotted] != nil { return true }
        let head = String(dotted.prefix { $0 != "." })
        if model.relativeImports[head] != nil { return true }
        guard let resolved = index.aliases.resolve(head) else { return false }
        let root = String(resolved.prefix { $0 != "." })
        return !root.isEmpty && !Self.requestModules.contains(root)
    }

    /// Top-level modules whose request objects carry what a client sent (and `typing`, whose names
    /// say nothing).
    static let requestModules: Set<String> = [
        "django", "flask", "werkzeug", "starlette", "fastapi", "aiohttp", "tornado", "sanic", "rest_framework", "quart",
        "litestar", "falcon", "pyramid", "bottle", "webob", "http", "socketserver", "cgi", "wsgiref", "twisted", "cherrypy",
        "ninja", "channels", "blacksheep", "robyn", "typing", "typing_extensions", "collections", "builtins",
    ]
}
