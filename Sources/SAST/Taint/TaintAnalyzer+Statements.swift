import SyntaxTree
import PythonSyntax

/// Statements: assignments, branches (pruned when the condition is a constant, refined by
/// guards), loops, `try`, `match`, and the points where a path ends (`return`, `raise`, `abort()`).
extension TaintAnalyzer {
    mutating func execute(block statements: [SyntaxNode]) {
        // The statement the hoisted callbacks before it belong to, and what each callback's
        // elements come from there (found once per statement: a statement may hoist many).
        var owner = -1
        var receivers: [String: (receiver: SyntaxNode, method: String)] = [:]
        for (i, statement) in statements.enumerated() {
            // Past the file's work budget the analysis is thrown away (``WorkMeter``): stop here.
            guard reachable, index.meter.charge() else { return }
            if statement.kind == .functionDef || statement.kind == .asyncFunctionDef, let hoisting = index.hoisting,
                let name = statement.text, hoisting.isHoistedDefinition(name)
            {
                if owner < i {
                    owner = i
                    while owner < statements.count, Self.isHoisted(statements[owner], by: hoisting) { owner += 1 }
                    receivers = owner < statements.count ? Self.elementReceivers(in: statements[owner], by: hoisting) : [:]
                }
                if let source = receivers[name] {
                    statementRange = statement.range
                    executeCallback(statement, elementsOf: source)
                    continue
                }
            }
            execute(statement)
        }
    }

    /// Whether a statement is one the language's lowering hoisted before the statement holding it.
    private static func isHoisted(_ statement: SyntaxNode, by hoisting: FunctionHoisting) -> Bool {
        switch statement.kind {
        case .functionDef, .asyncFunctionDef, .classDef:
            return hoisting.isHoistedDefinition(statement.text)
        case .import:
            return hoisting.isTemporary(statement.children.first?.children.first?.text)
        default:
            return false
        }
    }

    /// The hoisted callbacks a statement passes to a method that calls them with its receiver's
    /// elements (`xs.forEach(#fn0)`, `p.then(#fn1)`), with that receiver and method.
    private static func elementReceivers(
        in statement: SyntaxNode, by hoisting: FunctionHoisting
    ) -> [String: (receiver: SyntaxNode, method: String)] {
        var out: [String: (receiver: SyntaxNode, method: String)] = [:]
        statement.walk { node in
            guard node.kind == .call, let call = node.call, let callback = call.arguments.first, call.callee.kind == .attribute,
                let method = call.callee.text, hoisting.elementCallbackMethods.contains(method),
                let receiver = call.callee.children.first, callback.kind == .name, let name = callback.text,
                hoisting.isHoistedDefinition(name)
            else { return true }
            out[name] = (receiver, method)
            return true
        }
        return out
    }

    private mutating func execute(_ s: SyntaxNode) {
        statementRange = s.range
        checkSinks(s)
        let c = s.children
        switch s.kind {
        case .exprStmt:
            for child in c { _ = evaluate(child) }
            if let call = c.first, call.kind == .call, isTerminatingCall(call) { reachable = false }
        case .raise:
            for child in c { _ = evaluate(child) }
            reachable = false
        case .assert:
            if let test = c.first {
                _ = evaluate(test)
                refine(test, truthy: true)
            }
        case .delete:
            for target in c {
                if target.kind == .name, let name = target.text { state[name] = nil } else { _ = evaluate(target) }
            }
        case .assign:
            executeAssign(c)
        case .augAssign where c.count == 2:
            var value = evaluate(c[0])
            let right = evaluate(c[1])
            if let l = value.constant, let r = right.constant, let op = s.text?.dropLast(), let folded = PyConstant.fold(String(op), l, r) {
                value = AbstractValue(constant: folded)
            } else if s.text == "+=", value.elements != nil, let elements = right.elements {
                for element in elements { value.append(element) }
            } else if s.text == "+=", patterns.isRedirectRule, Self.fixesDestination(value) {
                value.constant = nil  // what is appended cannot move the destination (``fixesDestination(_:)``)
            } else {
                value.absorb(right.whole)
                value.constant = nil
            }
            assign(c[0], value)
        case .annAssign where c.count == 3:
            if !c[2].isEmpty { assign(c[0], evaluate(c[2])) }
        case .return:
            if let value = c.first, !value.isEmpty {
                returned = returned.joined(with: evaluate(value))
                returnedSomething = true
                noteReturnedCheck(value)
            }
            reachable = false
        case .break, .continue:
            if !loopExits.isEmpty { loopExits[loopExits.count - 1].append(state) }
            reachable = false
        case .if where c.count == 3:
            executeIf(c)
        case .while where c.count == 3:
            executeWhile(c)
        case .for where c.count == 4, .asyncFor where c.count == 4:
            executeFor(c)
        case .with, .asyncWith:
            for item in c.dropLast() where item.kind == .withItem && item.children.count == 2 {
                let value = evaluate(item.children[0])
                if !item.children[1].isEmpty { assign(item.children[1], value) }
            }
            if let body = c.last { execute(block: body.children) }
        case .try, .tryStar:
            executeTry(c)
        case .match:
            executeMatch(c)
        case .functionDef, .asyncFunctionDef:
            // Only a callback the language's lowering hoisted runs here; any other definition is
            // its own scope, analysed on its own.
            if index.hoisting?.isHoistedDefinition(s.text) == true { executeCallback(s, elementsOf: nil) }
        default:
            // Definitions are their own scopes; imports, pass, global... carry no data.
            break
        }
    }

    /// A callback written where it is used (hoisted just before its statement by the JavaScript
    /// lowering) runs with the values of the function around it: its body is followed here with
    /// the enclosing scope as it is at this point, its parameters unknown (`con.query(sql)` inside
    /// `con.connect(function () {...})` sees the `sql` built above). Nothing of the callback's own
    /// scope flows back; its sinks are this function's (it is called on this function's behalf).
    /// It is also analysed on its own, as every function is. Passed to a method that calls it with
    /// each element of its receiver (`xs.forEach(cb)`, `p.then(cb)`: `elementsOf`), its first
    /// parameter holds what those elements hold (what the promise resolves to).
    private mutating func executeCallback(_ function: SyntaxNode, elementsOf source: (receiver: SyntaxNode, method: String)?) {
        var element = AbstractValue.clean
        if let source {
            let receiver = peekValue(source.receiver)
            element = source.method == "then" ? AbstractValue(taint: receiver.whole) : elementValue(of: receiver)
        }
        let saved = (state, reachable, returned, returnedSomething, loopExits, conditions)
        let savedChecks = (returnChecks, literalReturns, sanitizedParameters)
        if function.children.count > 2 {
            for (i, parameter) in function.children[2].children.enumerated() {
                if let name = parameter.text { state[name] = i == 0 ? element : .clean }
            }
        }
        loopExits = []
        if let body = function.children.last { execute(block: body.children) }
        (state, reachable, returned, returnedSomething, loopExits, conditions) = saved
        (returnChecks, literalReturns, sanitizedParameters) = savedChecks
    }

    private mutating func executeAssign(_ c: [SyntaxNode]) {
        guard let valueNode = c.last else { return }
        let targets = c.dropLast()
        let value = evaluate(valueNode)
        for target in targets { assign(target, value) }
        if targets.count == 1, let target = targets.first, target.kind == .name, let name = target.text {
            conditions[name] = Self.isCondition(valueNode) ? valueNode : nil
        }
    }

    /// Expressions worth remembering as conditions: calls (`ok = is_safe(x)`), comparisons, `not`.
    private static func isCondition(_ node: SyntaxNode) -> Bool {
        let kind = node.kind
        return kind == .call || kind == .compare || kind == .unaryOp || kind == .boolOp
    }

    private mutating func executeIf(_ c: [SyntaxNode]) {
        let test = evaluate(c[0])
        if let constant = test.constant ?? staticTruth(c[0]) {
            execute(block: (constant.isTruthy ? c[1] : c[2]).children)
            return
        }
        let before = state
        refine(c[0], truthy: true)
        execute(block: c[1].children)
        let afterBody = reachable ? state : nil
        state = before
        reachable = true
        refine(c[0], truthy: false)
        if !c[2].isEmpty { execute(block: c[2].children) }
        let afterElse = reachable ? state : nil
        merge(afterBody, afterElse)
    }

    /// Joins the states at the end of two paths; `nil` is a path that ended (return, raise).
    mutating func merge(_ a: ScopeState?, _ b: ScopeState?) {
        switch (a, b) {
        case (nil, nil):
            reachable = false
        case (let one?, nil), (nil, let one?):
            state = one
            reachable = true
        case (let x?, let y?):
            state = ScopeState.join(x, y)
            reachable = true
        }
    }

    private mutating func executeWhile(_ c: [SyntaxNode]) {
        let test = evaluate(c[0])
        let constant = test.constant ?? staticTruth(c[0])
        if constant?.isTruthy == false {
            if !c[2].isEmpty { execute(block: c[2].children) }
            return
        }
        loopExits.append([])
        let entry = iterateTwice {
            $0.refine(c[0], truthy: true)
            $0.execute(block: c[1].children)
        }
        let exits = loopExits.removeLast()
        if constant?.isTruthy == true {
            // `while True:` ends only through `break`.
            let broken = exits.reduce(nil as ScopeState?) { partial, s in partial.map { ScopeState.join($0, s) } ?? s }
            if let broken {
                state = broken
                reachable = true
            } else {
                reachable = false
            }
            return
        }
        state = exits.reduce(entry) { ScopeState.join($0, $1) }
        reachable = true
        refine(c[0], truthy: false)
        if !c[2].isEmpty { execute(block: c[2].children) }
    }

    private mutating func executeFor(_ c: [SyntaxNode]) {
        let items = evaluate(c[1])
        let element = elementValue(of: items)
        loopExits.append([])
        let entry = iterateTwice {
            $0.assign(c[0], element)
            $0.execute(block: c[2].children)
        }
        let exits = loopExits.removeLast()
        state = exits.reduce(entry) { ScopeState.join($0, $1) }
        reachable = true
        if !c[3].isEmpty { execute(block: c[3].children) }
    }

    /// Runs a loop's body twice from the state before it, so taint carried from one iteration
    /// to the next is seen, and returns the loop's entry state joined over both passes.
    private mutating func iterateTwice(_ body: (inout Self) -> Void) -> ScopeState {
        var entry = state
        for _ in 0..<2 {
            state = entry
            reachable = true
            body(&self)
            if reachable { entry = ScopeState.join(entry, state) }
        }
        return entry
    }

    /// What iterating over `value` yields: any of its elements.
    func elementValue(of value: AbstractValue) -> AbstractValue {
        if let elements = value.elements {
            return elements.reduce(AbstractValue(taint: value.taint)) { $0.joined(with: $1) }
        }
        if !value.members.isEmpty {
            // Iterating a dict yields its keys: constants.
            return AbstractValue(taint: value.taint)
        }
        return AbstractValue(taint: value.whole)
    }

    private mutating func executeTry(_ c: [SyntaxNode]) {
        guard let body = c.first else { return }
        let before = state
        execute(block: body.children)
        let afterBody: ScopeState? = reachable ? state : nil
        var merged: ScopeState? = nil
        let handlers = c.filter { $0.kind == .exceptHandler }
        // Any statement of the body may raise: a handler starts from either end.
        let handlerEntry = afterBody.map { ScopeState.join(before, $0) } ?? ScopeState.join(before, state)
        for handler in handlers {
            state = handlerEntry
            reachable = true
            if let name = handler.text { state[name] = nil }
            if let block = handler.children.last { execute(block: block.children) }
            merged = Self.joinOptional(merged, reachable ? state : nil)
        }
        let tail = c.dropFirst(1 + handlers.count)
        if let orelse = tail.first, !orelse.isEmpty {
            if let afterBody {
                state = afterBody
                reachable = true
                execute(block: orelse.children)
                merged = Self.joinOptional(merged, reachable ? state : nil)
            }
        } else {
            merged = Self.joinOptional(merged, afterBody)
        }
        merge(merged, nil)
        if tail.count > 1, let final = tail.last, !final.isEmpty {
            let wasReachable = reachable
            reachable = true
            execute(block: final.children)
            reachable = reachable && wasReachable
        }
    }

    static func joinOptional(_ a: ScopeState?, _ b: ScopeState?) -> ScopeState? {
        switch (a, b) {
        case (nil, nil): return nil
        case (let x?, nil), (nil, let x?): return x
        case (let x?, let y?): return ScopeState.join(x, y)
        }
    }

    private mutating func executeMatch(_ c: [SyntaxNode]) {
        guard let subject = c.first else { return }
        let value = evaluate(subject)
        let before = state
        var merged: ScopeState? = nil
        var exhaustive = false
        for matchCase in c.dropFirst() {
            state = before
            reachable = true
            if let pattern = matchCase.children.first {
                bindCaptures(pattern, value.whole)
                if pattern.kind == .matchAs && pattern.children.isEmpty, matchCase.children.count > 1, matchCase.children[1].isEmpty {
                    exhaustive = true
                }
            }
            if matchCase.children.count > 1, !matchCase.children[1].isEmpty { _ = evaluate(matchCase.children[1]) }
            if let body = matchCase.children.last { execute(block: body.children) }
            if reachable { merged = merged.map { ScopeState.join($0, state) } ?? state }
        }
        if !exhaustive { merged = merged.map { ScopeState.join($0, before) } ?? before }
        merge(merged, nil)
    }

    /// Names a `case` pattern captures get the subject's taint; value patterns capture nothing.
    private mutating func bindCaptures(_ pattern: SyntaxNode, _ taint: Taint) {
        switch pattern.kind {
        case .matchAs, .matchStar, .matchRest:
            if let name = pattern.text, name != "_" { state[name] = AbstractValue(taint: taint) }
            for child in pattern.children { bindCaptures(child, taint) }
        case .matchValue, .matchSingleton:
            break
        default:
            for child in pattern.children { bindCaptures(child, taint) }
        }
    }

    /// Calls after which the path ends: `abort(404)`, `sys.exit()`, `os._exit()`.
    func isTerminatingCall(_ call: SyntaxNode) -> Bool {
        guard let callee = call.children.first else { return false }
        // A method call keeps its last segment in the canonical name.
        if callee.kind == .attribute, let method = callee.text, !Self.terminatingLastSegments.contains(method) { return false }
        guard let dotted = callee.dottedName else { return false }
        let name = index.aliases.canonicalize(dotted)
        return Self.terminatingCalls.contains(name) || name.hasSuffix(".abort")
    }

    private static let terminatingCalls: Set<String> = [
        "abort", "flask.abort", "sys.exit", "exit", "quit", "os._exit", "os.abort", "werkzeug.exceptions.abort",
        "fastapi.HTTPException", "pytest.fail", "pytest.skip",
    ]

    /// The last segments of the terminating calls (`.abort` of any module among them).
    private static let terminatingLastSegments = Set(terminatingCalls.map(FileIndex.lastSegment))

    /// `response.headers`: a header set on a response is not its body. Header sinks (a
    /// `Location`, a CORS origin) match the assignment itself; writing the value into the
    /// response would make `return response` an HTML body of it (issue 55).
    static func isHeaderMap(_ node: SyntaxNode) -> Bool {
        node.kind == .attribute && node.text == "headers"
    }

    /// Binds `value` to an assignment target. Names are overwritten; writing into an element,
    /// an entry or an attribute updates that part (a constant key or index: only that part).
    mutating func assign(_ target: SyntaxNode, _ value: AbstractValue) {
        switch target.kind {
        case .name:
            guard let name = target.text else { return }
            var stored = value
            if value.isTainted, let range = statementRange {
                stored.taint = value.taint.through(
                    FlowHop(range: range, note: Self.label(target, index.source) + " = ..."), assignment: true)
            }
            state[name] = stored
        case .tuple, .list:
            assignUnpacking(target.children, value)
        case .starred:
            if let inner = target.children.first { assign(inner, AbstractValue(taint: elementValue(of: value).whole)) }
        case .attribute:
            guard let base = target.children.first, let name = target.text else { return }
            if base.kind == .name, base.text == receiverName, currentClass != nil {
                recordFieldWrite(name, value)
            }
            updatePart(of: base) { $0.members["." + name] = value }
        case .subscript where target.children.count == 2:
            guard let base = target.children.first, !Self.isHeaderMap(base) else { return }
            let key = evaluate(target.children[1])
            if let constant = key.constant {
                updatePart(of: base) { $0.setPart(at: constant, to: value) }
            } else {
                updatePart(of: base) { $0.absorb(value.whole) }
            }
        default:
            break
        }
    }

    private mutating func assignUnpacking(_ targets: [SyntaxNode], _ value: AbstractValue) {
        let starred = targets.firstIndex { $0.kind == .starred }
        if let elements = value.elements {
            if starred == nil, elements.count == targets.count {
                for (target, element) in zip(targets, elements) { assign(target, element) }
                return
            }
            if let starred, elements.count >= targets.count - 1 {
                let after = targets.count - starred - 1
                for i in 0..<starred { assign(targets[i], elements[i]) }
                let middle = Array(elements[starred..<(elements.count - after)])
                if let inner = targets[starred].children.first { assign(inner, AbstractValue(elements: middle)) }
                for i in 0..<after { assign(targets[starred + 1 + i], elements[elements.count - after + i]) }
                return
            }
        }
        let element = elementValue(of: value)
        for target in targets {
            if target.kind == .starred, let inner = target.children.first {
                assign(inner, AbstractValue(taint: element.whole))
            } else {
                assign(target, element)
            }
        }
    }

    /// Applies `update` to the value stored in a name (or a part of one: `a.b[0] = x`).
    mutating func updatePart(of base: SyntaxNode, _ update: (inout AbstractValue) -> Void) {
        switch base.kind {
        case .name:
            guard let name = base.text else { return }
            var value = state[name] ?? readGlobal(name)
            update(&value)
            state[name] = value
        case .attribute:
            guard let inner = base.children.first, let attribute = base.text else { return }
            updatePart(of: inner) { container in
                var part = container.attribute(attribute)
                update(&part)
                container.members["." + attribute] = part
            }
        case .subscript where base.children.count == 2:
            guard let inner = base.children.first else { return }
            let key = peekConstant(base.children[1])
            updatePart(of: inner) { container in
                if let key {
                    var part = container.part(at: key)
                    update(&part)
                    container.setPart(at: key, to: part)
                } else {
                    var part = AbstractValue(taint: container.whole)
                    update(&part)
                    container.absorb(part.whole)
                }
            }
        default:
            _ = evaluate(base)
        }
    }

    /// `self.x = value` in a method: a source goes to every method of the class; a parameter to
    /// the constructor's summary.
    private mutating func recordFieldWrite(_ name: String, _ value: AbstractValue) {
        guard let className = currentClass else { return }
        let taint = value.whole
        let sources = taint.sources
        if !sources.isEmpty {
            for origin in sources { sourceFields[className, default: [:]][name, default: .clean].formUnion(Taint(origin)) }
        }
        let parameters = Set(taint.origins.compactMap { $0.field == nil ? $0.parameter : nil }).subtracting([0])
        if !parameters.isEmpty { currentFieldWrites[name, default: []].formUnion(parameters) }
    }
}
