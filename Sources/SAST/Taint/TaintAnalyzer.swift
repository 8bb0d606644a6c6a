import PythonSyntax
/// Intraprocedural taint analysis of one file for one rule.
///
/// Each function (and the module top level) is walked statement by statement with a map from
/// variable to taint: assignments overwrite (so a constant clears taint), branches are analysed
/// separately and merged (a may-analysis), loop bodies twice so loop-carried taint is seen.
/// Helpers defined in the same file are summarised first (which parameters reach their return
/// value or a sink) so that calls to them are precise.
struct TaintAnalyzer {
    let patterns: TaintPatterns
    let index: FileIndex
    let matcher: PatternMatcher
    private(set) var summaries: [String: FunctionSummary] = [:]
    private(set) var flows: [TaintFlow] = []

    /// Per-scope state, reset for each function.
    private var state: TaintState = [:]
    private var returned = Taint.clean
    private var reporting = false
    /// Set while computing a sink's taint: sinks inside it are checked by the real evaluation.
    private var peeking = false
    private var currentSinkParameters: [Int: TaintSinkHit] = [:]
    /// `ok = is_safe(url=u)`: the result variable vouches for `u` when used as a check.
    private var checkResults: [String: [String]] = [:]

    /// Where each source pattern matches in this file, shared by the taint rules (most of them
    /// list the same sources).
    let sourceCache: SourceMatchCache

    init(patterns: TaintPatterns, index: FileIndex, sourceCache: SourceMatchCache = SourceMatchCache()) {
        self.patterns = patterns
        self.sourceCache = sourceCache
        self.index = index
        self.matcher = PatternMatcher(aliases: index.aliases)
    }

    /// Runs the analysis; the flows found are in ``flows``.
    mutating func run() {
        // Most files and functions hold no source at all: find the sources first, by index.
        let sourceOffsets = patterns.sourcePatterns.flatMap { sourceCache.offsets(of: $0, in: index) }
        if sourceOffsets.isEmpty { return }
        let functions = (index.byKind[.functionDef] ?? []) + (index.byKind[.asyncFunctionDef] ?? [])
        // Summaries only matter for helpers the file calls; two rounds let helpers call helpers.
        let called = functions.filter { $0.text.map { index.callsByName[$0] != nil } ?? false }
        if !called.isEmpty {
            for _ in 0..<2 {
                for function in called {
                    guard let name = function.text else { continue }
                    summaries[name] = analyse(function: function)
                }
            }
        }
        reporting = true
        let helperReadsSource = summaries.values.contains { $0.returnsSource.isTainted }
        for function in functions {
            let range = function.range.start.offset..<function.range.end.offset
            guard helperReadsSource || sourceOffsets.contains(where: range.contains) else { continue }
            _ = analyse(function: function)
        }
        resetScope()
        execute(block: index.root.children)
    }

    private mutating func resetScope() {
        state = [:]
        returned = .clean
        currentSinkParameters = [:]
        checkResults = [:]
    }

    /// Analyses one function with its parameters standing for the caller's values.
    private mutating func analyse(function: PyNode) -> FunctionSummary {
        resetScope()
        var names: [String] = []
        if function.children.count > 2 {
            for parameter in function.children[2].children {
                guard [.parameter, .varArgs, .kwArgs].contains(parameter.kind), let name = parameter.text else { continue }
                state[name] = Taint(TaintOrigin(label: name, line: parameter.range.start.line, parameter: names.count))
                names.append(name)
            }
        }
        seedParameterSources(function, names)
        if let body = function.children.last { execute(block: body.children) }
        var summary = FunctionSummary(parameters: names)
        summary.returnsParameters = returned.parameters
        summary.returnsSource = Taint.clean
        for origin in returned.sources { summary.returnsSource.formUnion(Taint(origin)) }
        summary.sinkParameters = currentSinkParameters
        return summary
    }

    /// A source pattern that is a `def` (`@app.route(...)` / `def $F(...): ...`) marks the
    /// parameters of the functions it matches as tainted: they arrive from the request path.
    /// Parameters a route declares with a numeric or UUID converter (`<int:id>`) cannot carry text.
    private mutating func seedParameterSources(_ function: PyNode, _ names: [String]) {
        guard matchesAny(patterns.sources.candidates(function, index.aliases), function) else { return }
        var typed = Self.typedRouteParameters(function)
        // `item_id: int` (FastAPI, typed views) cannot carry text either.
        if function.children.count > 2 {
            for parameter in function.children[2].children where parameter.kind == .parameter {
                if let annotation = parameter.children.first, let type = annotation.dottedName,
                    ["int", "float", "bool", "UUID", "uuid.UUID"].contains(type), let name = parameter.text
                {
                    typed.insert(name)
                }
            }
        }
        for name in names where name != "self" && name != "cls" && !typed.contains(name) {
            let origin = TaintOrigin(label: "parameter \(name) of \(function.text ?? "?")", line: function.range.start.line, parameter: nil)
            state[name] = Taint(origin)
        }
    }

    /// Names bound by `<int:name>`, `<float:name>` or `<uuid:name>` in the function's decorators.
    static func typedRouteParameters(_ function: PyNode) -> Set<String> {
        guard let decorators = function.children.first else { return [] }
        var out: Set<String> = []
        decorators.walk { node in
            guard node.kind == .string, let text = node.text else { return true }
            for converter in ["<int:", "<float:", "<uuid:"] {
                var rest = text[...]
                while let start = rest.range(of: converter) {
                    let after = rest[start.upperBound...]
                    guard let end = after.firstIndex(of: ">") else { break }
                    out.insert(String(after[..<end]))
                    rest = after[end...]
                }
            }
            return false
        }
        return out
    }

    // MARK: Statements

    private mutating func execute(block statements: [PyNode]) {
        for statement in statements { execute(statement) }
    }

    private mutating func execute(_ s: PyNode) {
        checkSinks(s)
        let c = s.children
        switch s.kind {
        case .exprStmt, .raise, .assert, .delete:
            for child in c { _ = evaluate(child) }
            if s.kind == .assert, let test = c.first { clearGuarded(test) }
            if s.kind == .delete { for target in c where target.kind == .name { state[target.text ?? ""] = nil } }
        case .assign:
            guard let value = c.last else { return }
            let targets = c.dropLast()
            // `a, b = x, 1`: element-wise when the shapes line up, so `b` stays clean.
            if targets.count == 1, let target = targets.first, [.tuple, .list].contains(target.kind),
                [.tuple, .list].contains(value.kind), target.children.count == value.children.count,
                !value.children.contains(where: { $0.kind == .starred }),
                !target.children.contains(where: { $0.kind == .starred })
            {
                let taints = value.children.map { evaluate($0) }
                for (element, taint) in zip(target.children, taints) { assign(element, taint, strong: true) }
                return
            }
            let taint = evaluate(value)
            for target in targets { assign(target, taint, strong: true) }
            if targets.count == 1, let target = targets.first, target.kind == .name, let name = target.text {
                let checked = value.kind == .call ? checkedNames(value) : []
                checkResults[name] = checked.isEmpty ? nil : checked
            }
        case .augAssign where c.count == 2:
            let taint = evaluate(c[1]).union(evaluate(c[0]))
            assign(c[0], taint, strong: true)
        case .annAssign where c.count == 3:
            if !c[2].isEmpty { assign(c[0], evaluate(c[2]), strong: true) }
        case .return:
            if let value = c.first { returned.formUnion(evaluate(value)) }
        case .if where c.count == 3, .while where c.count == 3:
            _ = evaluate(c[0])
            clearGuarded(c[0])
            let before = state
            execute(block: c[1].children)
            if s.kind == .while { execute(block: c[1].children) }
            let afterBody = state
            // `if`: the else branch starts from the state before the test; a loop's `else` runs
            // after the loop, which may not have run at all.
            state = s.kind == .while ? before.mergedWith(afterBody) : before
            if !c[2].isEmpty { execute(block: c[2].children) }
            state = state.mergedWith(afterBody)
        case .for where c.count == 4, .asyncFor where c.count == 4:
            let items = evaluate(c[1])
            let before = state
            for _ in 0..<2 {
                assign(c[0], items, strong: true)
                execute(block: c[2].children)
            }
            state = state.mergedWith(before)
            if !c[3].isEmpty { execute(block: c[3].children) }
        case .with, .asyncWith:
            for item in c.dropLast() where item.kind == .withItem && item.children.count == 2 {
                let taint = evaluate(item.children[0])
                if !item.children[1].isEmpty { assign(item.children[1], taint, strong: true) }
            }
            if let body = c.last { execute(block: body.children) }
        case .try, .tryStar:
            executeTry(c)
        case .match:
            guard let subject = c.first else { return }
            _ = evaluate(subject)
            let before = state
            var merged = before
            for matchCase in c.dropFirst() {
                state = before
                if let body = matchCase.children.last { execute(block: body.children) }
                merged = merged.mergedWith(state)
            }
            state = merged
        default:
            // Definitions are their own scopes; imports, pass, global... carry no data.
            break
        }
    }

    private mutating func executeTry(_ c: [PyNode]) {
        guard let body = c.first else { return }
        let before = state
        execute(block: body.children)
        let afterBody = state
        var merged = afterBody
        let handlers = c.filter { $0.kind == .exceptHandler }
        for handler in handlers {
            state = before.mergedWith(afterBody)
            if let name = handler.text { state[name] = nil }
            if let block = handler.children.last { execute(block: block.children) }
            merged = merged.mergedWith(state)
        }
        let tail = c.dropFirst(1 + handlers.count)
        if let orelse = tail.first, !orelse.isEmpty {
            state = afterBody
            execute(block: orelse.children)
            merged = merged.mergedWith(state)
        }
        state = merged
        if tail.count > 1, let final = tail.last, !final.isEmpty { execute(block: final.children) }
    }

    /// A sanitizer used as a check (`if not url_has_allowed_host_and_scheme(url): url = "/"`,
    /// `if is_safe(path): ...`, `assert valid(x)`) vouches for the variables it is given: either the
    /// check passed, or the branch that handles failure replaces or rejects the value. Both branches
    /// and the code after see them clean.
    private mutating func clearGuarded(_ test: PyNode) {
        if patterns.sanitizers.isEmpty { return }
        var names: [String] = []
        test.walk { node in
            if node.kind == .name, let name = node.text, let checked = checkResults[name] { names += checked }
            guard node.kind == .call else { return true }
            let checked = checkedNames(node)
            names += checked
            return checked.isEmpty
        }
        for name in names { state[name] = nil }
    }

    /// The variables a sanitizer call is given, when `call` is one.
    private func checkedNames(_ call: PyNode) -> [String] {
        guard matchesAny(patterns.sanitizers.candidates(call, index.aliases), call) else { return [] }
        var names: [String] = []
        for argument in call.children.dropFirst() {
            let value = argument.kind == .keyword ? argument.children.first : argument
            if let value, value.kind == .name, let name = value.text { names.append(name) }
        }
        return names
    }

    /// Binds `taint` to an assignment target. Names are overwritten; writing into an element or
    /// attribute of a container taints the container but never cleans it.
    private mutating func assign(_ target: PyNode, _ taint: Taint, strong: Bool) {
        switch target.kind {
        case .name:
            guard let name = target.text else { return }
            if strong {
                state[name] = taint.isTainted ? taint : nil
            } else if taint.isTainted {
                state[name, default: .clean].formUnion(taint)
            }
        case .tuple, .list:
            for element in target.children { assign(element, taint, strong: strong) }
        case .starred:
            if let inner = target.children.first { assign(inner, taint, strong: strong) }
        case .attribute, .subscript:
            if let base = target.children.first {
                if target.kind == .subscript, target.children.count == 2 { _ = evaluate(target.children[1]) }
                assign(base, taint, strong: false)
            }
        default:
            break
        }
    }

    // MARK: Expressions

    /// The taint of an expression, checking the sinks inside it on the way.
    private mutating func evaluate(_ e: PyNode) -> Taint {
        if e.isEmpty { return .clean }
        checkSinks(e)
        if matchesAny(patterns.sanitizers.candidates(e, index.aliases), e) { return .clean }
        if matchesAny(patterns.sources.candidates(e, index.aliases), e) {
            for child in e.children { _ = evaluate(child) }
            return Taint(TaintOrigin(label: Self.label(e, index.source), line: e.range.start.line, parameter: nil))
        }
        let c = e.children
        switch e.kind {
        case .name:
            return e.text.flatMap { state[$0] } ?? .clean
        case .string, .bytes, .integer, .float, .imaginary, .true, .false, .none, .ellipsis, .lambda:
            return .clean
        case .namedExpr where c.count == 2:
            let taint = evaluate(c[1])
            assign(c[0], taint, strong: true)
            return taint
        case .call:
            return evaluateCall(e)
        case .listComp, .setComp, .generatorExp, .dictComp:
            let comprehensions = c.filter { $0.kind == .comprehension }
            for comprehension in comprehensions where comprehension.children.count >= 2 {
                assign(comprehension.children[0], evaluate(comprehension.children[1]), strong: true)
                for condition in comprehension.children.dropFirst(2) { _ = evaluate(condition) }
            }
            var taint = Taint.clean
            for element in c where element.kind != .comprehension { taint.formUnion(evaluate(element)) }
            return taint
        case .compare:
            for child in c { _ = evaluate(child) }
            return .clean
        case .subscript where c.count == 2:
            // `allowed[user_key]` is a trusted value picked by a tainted key: only the container counts.
            _ = evaluate(c[1])
            return evaluate(c[0])
        default:
            var taint = Taint.clean
            for child in c { taint.formUnion(evaluate(child)) }
            return taint
        }
    }

    /// Calls: helper summaries when the callee is defined here, else the union of the receiver and
    /// the arguments; container-filling methods taint their receiver.
    private mutating func evaluateCall(_ call: PyNode) -> Taint {
        guard let callee = call.children.first else { return .clean }
        let arguments = Array(call.children.dropFirst())
        var argumentTaints: [Taint] = []
        var all = Taint.clean
        for argument in arguments {
            let taint = evaluate(argument)
            argumentTaints.append(taint)
            all.formUnion(taint)
        }
        let receiver = callee.kind == .attribute ? evaluate(callee) : .clean

        if let name = Self.calleeName(callee), let summary = summaries[name] {
            return applySummary(summary, name: name, callee: callee, arguments: arguments, taints: argumentTaints)
        }
        if callee.kind == .attribute, all.isTainted, let method = callee.text, Self.fillingMethods.contains(method),
            let base = callee.children.first
        {
            assign(base, all, strong: false)
        }
        return all.union(receiver)
    }

    private static let fillingMethods: Set<String> = [
        "append", "extend", "insert", "add", "update", "setdefault", "appendleft", "put",
    ]

    /// `helper(...)` and `self.helper(...)` name a local function; other calls do not.
    private static func calleeName(_ callee: PyNode) -> String? {
        switch callee.kind {
        case .name: return callee.text
        case .attribute where callee.children.first?.text == "self" || callee.children.first?.text == "cls":
            return callee.text
        default: return nil
        }
    }

    private mutating func applySummary(
        _ summary: FunctionSummary, name: String, callee: PyNode, arguments: [PyNode], taints: [Taint]
    ) -> Taint {
        // A method called through self skips its own first parameter.
        let shift = callee.kind == .attribute && ["self", "cls"].contains(summary.parameters.first ?? "") ? 1 : 0
        var result = summary.returnsSource
        var position = shift
        for (argument, taint) in zip(arguments, taints) {
            let index: Int?
            switch argument.kind {
            case .keyword: index = argument.text.flatMap { summary.parameters.firstIndex(of: $0) }
            case .starred, .doubleStarred: index = nil
            default:
                index = position < summary.parameters.count ? position : nil
                position += 1
            }
            guard let index else { continue }
            if summary.returnsParameters.contains(index) { result.formUnion(taint) }
            if let hit = summary.sinkParameters[index] { reach(hit, with: taint, via: name) }
        }
        return result
    }

    // MARK: Sources, sinks, sanitizers

    private func matchesAny(_ candidates: [(PyNode, CompiledPattern)], _ node: PyNode) -> Bool {
        for (tree, _) in candidates {
            var bindings = Bindings()
            if matcher.match(tree, node, &bindings) { return true }
        }
        return false
    }

    /// Reports (or, in a summary, records) every sink `node` is whose checked part is tainted.
    private mutating func checkSinks(_ node: PyNode) {
        if peeking { return }
        for (tree, sink) in patterns.sinks.candidates(node, index.aliases) {
            var bindings = Bindings()
            guard matcher.match(tree, node, &bindings) else { continue }
            let parts: [PyNode]
            if let focus = sink.focus {
                parts = bindings[focus]?.nodes ?? []
            } else if node.kind == .call {
                parts = Array(node.children.dropFirst())
            } else {
                parts = node.children
            }
            // Peek without side effects: the real evaluation follows in the caller.
            var taint = Taint.clean
            for part in parts { taint.formUnion(peek(part)) }
            let hit = TaintSinkHit(range: node.range, label: Self.sinkLabel(node, index), bindings: bindings)
            reach(hit, with: taint, via: nil)
        }
    }

    /// The taint of `e` without reporting the sinks inside it or changing the state.
    private mutating func peek(_ e: PyNode) -> Taint {
        let saved = state
        peeking = true
        let taint = evaluate(e)
        peeking = false
        state = saved
        return taint
    }

    private mutating func reach(_ hit: TaintSinkHit, with taint: Taint, via: String?) {
        if peeking { return }
        for origin in taint.origins {
            if let parameter = origin.parameter {
                if currentSinkParameters[parameter] == nil { currentSinkParameters[parameter] = hit }
            } else if reporting {
                flows.append(TaintFlow(sink: hit, origin: origin, via: via))
            }
        }
    }

    /// One-line source text for messages, shortened.
    static func label(_ node: PyNode, _ source: SourceText) -> String {
        let text = source.slice(from: node.range.start.offset, to: node.range.end.offset)
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        return line.count > 60 ? String(line.prefix(57)) + "..." : line
    }

    /// `os.system`, `subprocess.call` (import-resolved) for call sinks; the code otherwise.
    static func sinkLabel(_ node: PyNode, _ index: FileIndex) -> String {
        if node.kind == .call, let callee = node.children.first, let dotted = callee.dottedName {
            return index.aliases.canonicalize(dotted)
        }
        // `session["k"] = v`: the place written is the sink.
        if node.kind == .assign, let target = node.children.first { return label(target, index.source) }
        return label(node, index.source)
    }
}
