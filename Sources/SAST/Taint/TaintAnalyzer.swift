import Findings
import PythonSyntax

/// Taint analysis of one file for one rule: flow-sensitive within each function, with function
/// summaries across functions (bottom-up, to a fixpoint) and, through ``ProjectSummaries``, across
/// the project's modules.
///
/// Each function (and the module top level) is walked statement by statement with a map from
/// variable to ``AbstractValue``: assignments overwrite (a constant clears taint), constant
/// conditions prune branches, containers indexed by constants keep their parts apart, guards clean
/// the values they check on the paths they dominate, and branches merge (a may-analysis).
struct TaintAnalyzer {
    let patterns: TaintPatterns
    let index: FileIndex
    let matcher: PatternMatcher
    /// Where each source pattern matches in this file, shared by the taint rules.
    let sourceCache: SourceMatchCache
    /// The rule id, for project summaries.
    let ruleId: String
    /// Summaries of the project's other modules, and how this file's imports resolve to them.
    let project: ProjectView?
    let model: FileModel

    private(set) var summaries: [String: FunctionSummary] = [:]
    /// The functions this rule analyses itself (nil: all); the others keep their seeded
    /// rule-free summaries (see ``RuleRelevance``). Resolved only when the analysis needs it
    /// (``resolveRelevance()``): many files need none.
    private(set) var relevant: Set<String>?
    /// The file's call graph, when given (``shared`` has it otherwise).
    private let givenCallGraph: CallGraph?
    /// The file's shared rule-free summaries, which stand for the functions not relevant here.
    let shared: SharedSummaries?
    var flows: [TaintFlow] = []
    /// Where the rule's sources match in the file (start offsets, from the shared search), once
    /// ``run()`` knows them: a node that starts elsewhere is no source, and most nodes are asked.
    var sourceStarts: Set<Int>?
    /// Whether the file names every identifier of some sink and of some sanitizer, when the
    /// engine already knows it from its numbered vocabulary (nil: read from the index's names).
    var namesPresent: (sinks: Bool, sanitizers: Bool)?
    /// Where the named values of a request this analysis reads are noted, when the file keeps them.
    var requestReads: RequestReads?

    /// The last analysis of a function: the flows it found (while reporting), and what they and
    /// its summary depend on besides the function itself.
    struct KeptAnalysis {
        var flows: [TaintFlow]
        /// When it started (``clock``).
        var started: Int
        /// The keys of the summaries its calls looked up.
        var summariesRead: Set<String>
        /// The source fields of its class when it started.
        var sourceFieldsAtStart: [String: Taint]?
    }

    /// The last analysis of each function (by offset) in ``computeSummaries(also:onlyFor:skippingKnown:)``.
    private var analysed: [Int: KeptAnalysis] = [:]
    /// Counts analyses and summary changes, to order them.
    private var clock = 0
    /// When each summary was last set (``clock``).
    private var summarySetAt: [String: Int] = [:]
    /// The keys of the summaries the current analysis looked up (``resolve(_:receiver:)``).
    var summariesRead: Set<String> = []

    // Per-scope state, reset for each function.
    var state = ScopeState()
    var reachable = true
    var returned = AbstractValue.clean
    var reporting = false
    /// Set while computing a sink's taint: sinks inside it are checked by the real evaluation.
    var peeking = false
    var currentSinks: [ParameterPath: SummarySink] = [:]
    var currentFieldWrites: [String: Set<Int>] = [:]
    /// Whether a sanitizer of the rule ran in the function (its summary then matters to callers).
    var sanitizerSeen = false
    /// Whether `hmac.compare_digest` / `secrets.compare_digest` ran in the function.
    var secretCompared = false
    /// Parameters annotated with a class that is no web framework's request (a crawler's outgoing
    /// `Request`, a class of this project): `request.url` on them is not request data.
    var foreignTyped: Set<String> = []
    /// Whether each function (by offset) is a route whose parameters are sources, and of which kind.
    var routeSources: [Int: TaintSource?] = [:]
    /// Whether a `return` with a value ran (a function without one returns None: clean).
    var returnedSomething = false
    /// The function's parameter names, for what its returns vouch for.
    var parameterNames: [String] = []
    /// Parameters every value-returning `return` so far checks (nil: none yet).
    var returnChecks: Set<Int>?
    /// Parameters a sanitizer of the rule has read (`urlparse(target)`): a test on what it
    /// answered, returned, checks them (``noteReturnedCheck(_:)``).
    var sanitizedParameters: Set<Int> = []
    /// The boolean literals the function returns: `return True` tests something only beside a
    /// `return False`.
    var literalReturns: Set<Bool> = []
    /// `ok = check(x)`: the condition a variable holds, so `if ok:` refines like `if check(x):`.
    var conditions: [String: SyntaxNode] = [:]
    /// The class whose method is being analysed, and the name of its receiver (`self`).
    var currentClass: String?
    var receiverName: String?
    /// States at `break`/`continue` of the loops being executed, innermost last.
    var loopExits: [[ScopeState]] = []
    /// The statement being executed, for the code flow's steps.
    var statementRange: SourceRange?
    /// Source fields of each class: `self.x = <source>` in one method, read in another.
    var sourceFields: [String: [String: Taint]] = [:]
    /// The matches of `pattern-inside` patterns in this file, shared by its rules (``SourceMatchCache``).
    let insideRanges: InsideRanges
    /// The sinks each node visited is (this rule's own).
    let sinkAnswers = NodeAnswers<[SinkSite]>()
    /// Whether each node visited is a sanitizer, which source: shared by the file's rules with the same list.
    let sanitizerAnswers: NodeAnswers<Bool>
    let sourceAnswers: NodeAnswers<TaintSource?>

    init(
        patterns: TaintPatterns, index: FileIndex, sourceCache: SourceMatchCache = SourceMatchCache(),
        ruleId: String = "", project: ProjectView? = nil, model: FileModel? = nil,
        shared: SharedSummaries? = nil, callGraph: CallGraph? = nil
    ) {
        self.patterns = patterns
        self.sourceCache = sourceCache
        self.index = index
        self.matcher = PatternMatcher(aliases: index.aliases, meter: index.meter)
        self.ruleId = ruleId
        self.project = project
        self.model = model ?? FileModel(root: index.root)
        self.insideRanges = sourceCache.insideRanges
        self.sanitizerAnswers = sourceCache.answers(sanitizers: patterns.sanitizerListKey)
        self.sourceAnswers = sourceCache.answers(sources: patterns.sourceListKey)
        self.shared = shared
        self.givenCallGraph = callGraph
    }

    /// Whether the file assigns to a name one of the rule's sinks accepts (any, without shared facts).
    private var assignsToSinkName: Bool {
        let regexes = patterns.relevance.targetSinks
        guard !regexes.isEmpty else { return false }
        return shared?.assigns(to: regexes) ?? true
    }

    /// Which functions this rule analyses itself, from the file's shared facts.
    private mutating func resolveRelevance() {
        guard let shared, relevant == nil else { return }
        relevant = shared.relevance.relevant(to: patterns, ruleId: ruleId, project: project, graph: shared.callGraph)
    }

    /// Runs the analysis; the flows found are in ``flows``.
    mutating func run() {
        let sourceOffsets = sourceCache.offsets(of: patterns, in: index)
        sourceStarts = Set(sourceOffsets)
        let importsSource = project?.importsSourceSummary(ruleId: ruleId) ?? false
        let exported = project?.exported ?? []
        let mayHoldSink = (namesPresent?.sinks ?? patterns.sinkNames.isSatisfied(by: index.identifiers)) || assignsToSinkName
        // No flow starts in a file without a source or a helper that returns one, and none ends
        // in a file without a sink or a project helper that has this rule's own summary: then
        // only what importers see matters.
        let reachesSink = mayHoldSink || (project?.importsRuleSpecificSummary(ruleId) ?? false)
        // In a project, the functions other modules import are summarised for them when this
        // module can matter to the rule (a source, a sink or a sanitizer in it, or a helper it
        // imports that has this rule's own summary: a handler's parameter passed on to an
        // operation that reaches the sink through another module); otherwise the rule-free
        // summary the engine publishes speaks for them.
        let exporting =
            !exported.isEmpty
            && (!sourceOffsets.isEmpty || reachesSink
                || (namesPresent?.sanitizers ?? patterns.sanitizerNames.isSatisfied(by: index.identifiers)))
        if (sourceOffsets.isEmpty && !importsSource) || !reachesSink {
            // What is summarised here is for importers only: nothing when this file publishes none.
            if exporting, project?.access.publishes == true {
                resolveRelevance()
                seedRuleFree(covering: exported)
                computeSummaries(also: exported, onlyFor: exported)
            }
            return
        }
        resolveRelevance()
        // Only what the relevant functions call needs a summary from outside the rule.
        if let relevant {
            seedRuleFree(
                covering: callGraph.reachable(from: model.functions.filter { relevant.contains($0.key) }, in: model).filter {
                    !relevant.contains($0.key)
                })
        }
        // Summarising keeps each function's flows: its last analysis stands for the report's
        // while what it read is unchanged.
        reporting = true
        computeSummaries(also: exporting ? exported : [])
        // A method may read what another stored from a source (`self.x`): when a pass learns
        // such a field, the methods run again.
        for _ in 0..<2 {
            let known = sourceFields.values.reduce(0) { $0 + $1.count }
            let helperReadsSource = summaries.values.contains { $0.returnsSource.isTainted } || importsSource || known > 0
            for function in model.functions {
                if index.meter.isExhausted { break }
                // A flow is reported at a sink: one in the function, or in a callee whose summary
                // has it; either makes the function relevant to the rule.
                guard relevant?.contains(function.key) != false else { continue }
                let range = function.node.range.start.offset..<function.node.range.end.offset
                guard helperReadsSource || sourceOffsets.contains(where: range.contains) else { continue }
                let offset = function.node.range.start.offset
                if let earlier = analysed[offset], isCurrent(earlier, function) {
                    flows += earlier.flows
                } else {
                    _ = analyseKeepingFlows(function)
                    flows += analysed[offset]?.flows ?? []
                }
            }
            if sourceFields.values.reduce(0, { $0 + $1.count }) == known { break }
        }
        resetScope()
        execute(block: index.root.children)
    }

    /// The rule-free summaries of the functions this rule leaves alone, among `roots` and what
    /// they call.
    private mutating func seedRuleFree(covering roots: [FileModel.Function]) {
        guard let shared, let relevant else { return }
        for (key, summary) in shared.ruleFree(covering: roots) where !relevant.contains(key) && summaries[key] == nil {
            setSummary(summary, of: key)
        }
    }

    /// Replaces a function's summary, noting when (the analyses that read the old one are stale).
    private mutating func setSummary(_ summary: FunctionSummary, of key: String) {
        // The same again (a function run once more after a callee changed, to the same end):
        // what read it stays current.
        if let old = summaries[key], old.isIdentical(to: summary) { return }
        clock += 1
        summaries[key] = summary
        summarySetAt[key] = clock
    }

    /// Analyses `function`, keeping the flows it reports (``reporting``) in ``analysed`` rather
    /// than in ``flows``, with what they and its summary depend on.
    private mutating func analyseKeepingFlows(_ function: FileModel.Function) -> FunctionSummary {
        let fieldsAtStart = function.className.flatMap { sourceFields[$0] }
        clock += 1
        let started = clock
        let before = flows.count
        let summary = analyse(function)
        analysed[function.node.range.start.offset] = KeptAnalysis(
            flows: Array(flows[before...]), started: started, summariesRead: summariesRead, sourceFieldsAtStart: fieldsAtStart)
        flows.removeSubrange(before...)
        return summary
    }

    /// Whether analysing `function` again would report and summarise what `earlier` did: no
    /// summary it read was replaced since, and the source fields of its class are as they were
    /// (they only grow, so equal means untouched).
    private func isCurrent(_ earlier: KeptAnalysis, _ function: FileModel.Function) -> Bool {
        earlier.summariesRead.allSatisfy { (summarySetAt[$0] ?? 0) < earlier.started }
            && function.className.flatMap({ sourceFields[$0] }) == earlier.sourceFieldsAtStart
    }

    /// Summaries of `roots` and the functions they call that are not summarised yet (no flow
    /// is reported).
    mutating func summariseClosure(of roots: [FileModel.Function]) {
        computeSummaries(also: [], onlyFor: roots, skippingKnown: true)
    }

    /// Summaries of the file's functions, bottom-up to a fixpoint (bounded: recursion converges
    /// fast, and a cycle that does not is cut).
    /// `onlyFor`: summarise just these and what they call (for importers; no flow is reported).
    /// `skippingKnown`: leave the functions that have a summary as they are (they are final).
    private mutating func computeSummaries(
        also exported: [FileModel.Function], onlyFor roots: [FileModel.Function]? = nil, skippingKnown: Bool = false
    ) {
        let graph = callGraph
        // Each key once (a redefinition is the same function).
        var taken = [Bool](repeating: false, count: model.functions.count)
        let candidates =
            roots.map { graph.reachable(from: $0, in: model) } ?? (model.functions.filter { graph.isCalled[$0.index] } + exported)
        let wanted = candidates.filter {
            let owner = graph.keyOwner[$0.index]
            guard !taken[owner] else { return false }
            taken[owner] = true
            return relevant?.contains($0.key) != false && (!skippingKnown || summaries[$0.key] == nil)
        }
        guard !wanted.isEmpty else { return }
        // From nothing upwards: a recursive call first contributes nothing, then what the
        // previous round found. Callees go first, so outside recursion one round is final; a
        // function runs again only when something it calls changed after it ran.
        for function in wanted where summaries[function.key] == nil {
            setSummary(FunctionSummary(parameters: [], isMethod: function.isMethod), of: function.key)
        }
        let ordered = graph.calleesFirst(wanted)
        var pending = ordered
        for _ in 0..<4 {
            var changedAt: [String: Int] = [:]
            var ranAt: [String: Int] = [:]
            for (step, function) in pending.enumerated() {
                // Each summary computed is a unit, besides its statements; past the file's work
                // budget the summaries are incomplete and the engine publishes none of them.
                guard index.meter.charge() else { return }
                ranAt[function.key] = step
                // The same inputs give the same summary: a function runs again only when a
                // summary it read, or a source field of its class, changed since it last ran.
                if let earlier = analysed[function.node.range.start.offset], isCurrent(earlier, function) { continue }
                let summary = analyseKeepingFlows(function)
                let old = summaries[function.key]
                setSummary(summary, of: function.key)
                if old == nil || !old!.sameEffects(as: summary) {
                    changedAt[function.className.map { _ in function.node.text ?? "" } ?? function.key] = step
                    if let className = function.className { changedAt[className] = step }
                }
            }
            if changedAt.isEmpty { break }
            pending = ordered.filter { function in
                let ran = ranAt[function.key] ?? -1
                return graph.calleeNames[function.index].contains { (changedAt[$0] ?? -2) >= ran }
            }
            if pending.isEmpty { break }
        }
    }

    /// The file's call graph: the shared one, the one given, or (alone) one read from the bodies.
    private var callGraph: CallGraph {
        shared?.callGraph ?? givenCallGraph ?? CallGraph(model: model, index: index, calls: nil)
    }

    mutating func resetScope() {
        state.removeAll()
        reachable = true
        returned = .clean
        currentSinks = [:]
        currentFieldWrites = [:]
        sanitizerSeen = false
        secretCompared = false
        foreignTyped = []
        returnedSomething = false
        conditions = [:]
        currentClass = nil
        receiverName = nil
        loopExits = []
        summariesRead = []
    }

    /// Analyses one function with its parameters standing for the caller's values.
    mutating func analyse(_ function: FileModel.Function) -> FunctionSummary {
        resetScope()
        let node = function.node
        currentClass = function.className
        var names: [String] = []
        if node.children.count > 2 {
            for parameter in node.children[2].children {
                let kind = parameter.kind
                guard kind == .parameter || kind == .varArgs || kind == .kwArgs, let name = parameter.text else { continue }
                let origin = TaintOrigin(label: name, line: parameter.range.start.line, parameter: names.count)
                var value = AbstractValue(taint: Taint(origin))
                if names.isEmpty, function.isMethod {
                    receiverName = name
                    value.typeName = function.className
                }
                state[name] = value
                names.append(name)
                if parameter.kind == .parameter, isForeignType(parameter.children.first) { foreignTyped.insert(name) }
            }
        }
        seedParameterSources(node, names)
        parameterNames = names
        returnChecks = nil
        sanitizedParameters = []
        literalReturns = []
        if let body = node.children.last { execute(block: body.children) }
        var summary = FunctionSummary(parameters: names)
        summary.hasReturnValue = returnedSomething
        summary.isMethod = function.isMethod
        for origin in returned.whole.origins {
            if let parameter = origin.parameter {
                summary.returns[ParameterPath(parameter: parameter, field: origin.field)] = origin.hops
            } else {
                summary.returnsSource.formUnion(Taint(origin))
            }
        }
        summary.sinks = currentSinks
        summary.usesSanitizer = sanitizerSeen
        summary.checksSecret = secretCompared
        summary.validates = literalReturns == [true] ? [] : returnChecks ?? []
        summary.sanitizes = sanitizedParameters
        summary.fieldWrites = currentFieldWrites
        return summary
    }

    /// A source pattern that is a `def` (`@app.route(...)` / `def $F(...): ...`) marks the
    /// parameters of the functions it matches as tainted: they arrive from the request path.
    /// Parameters a route declares with a numeric or UUID converter (`<int:id>`) cannot carry text.
    private mutating func seedParameterSources(_ function: SyntaxNode, _ names: [String]) {
        let offset = function.range.start.offset
        let known = routeSources[offset]
        let found = known ?? firstSource(function)
        if known == nil { routeSources[offset] = .some(found) }
        guard let source = found else { return }
        var typed = Self.typedRouteParameters(function)
        // Where in the request each parameter is, when its declaration says (FastAPI).
        var declaredParts: [String: RequestPart] = [:]
        // `item_id: int` (FastAPI, typed views) cannot carry text either; the request object itself
        // and injected dependencies (`db = Depends(get_db)`) are not request data, their fields are.
        if function.children.count > 2 {
            // A GraphQL resolver's root (the parent object) and `info` (the resolver's context)
            // are the library's, not the client's: its arguments follow them.
            let parameters = function.children[2].children.filter { $0.kind == .parameter }
            if parameters.count >= 2, parameters[1].text == "info", let root = parameters[0].text {
                typed.formUnion([root, "info"])
            }
            for parameter in parameters {
                guard let name = parameter.text else { continue }
                let type = parameter.children.first?.dottedName.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
                if let type, Self.nonTextTypes.contains(type) || isEnumeration(type) { typed.insert(name) }
                if ["request", "req", "websocket"].contains(name) { typed.insert(name) }
                if parameter.children.count > 1, parameter.children[1].kind == .call,
                    let callee = parameter.children[1].children.first?.dottedName,
                    callee.hasSuffix("Depends") || callee.hasSuffix("Security")
                {
                    typed.insert(name)
                }
                if let part = declaredPart(of: parameter, type: type) { declaredParts[name] = part }
            }
        }
        // A path segment (`/{name}`, `<name>`) holds no slash: it cannot walk out of a directory.
        if patterns.isPathRule { typed.formUnion(Self.singleSegmentRouteParameters(function)) }
        // A function written in an expression (a callback, an arrow) is hoisted under a made-up
        // name (`#fn3`): the reader knows it by where it is written.
        let functionName = function.text.map { $0.hasPrefix("#") ? "the function at line \(function.range.start.line)" : $0 } ?? "?"
        for name in names where !Receivers.contains(name) && !typed.contains(name) {
            var origin = TaintOrigin(label: "parameter \(name) of \(functionName)", line: function.range.start.line)
            origin.isLocal = source.isLocal
            origin.isLibrary = source.isLibrary
            origin.requestPart = source.requestPart
            if source.requestPart != nil { origin.requestName = name }
            if source.requestPart == .handlerParameter, let part = declaredParts[name] {
                origin.requestPart = part
                // A body model's fields are read off it (`item.name`): the field names the JSON key.
                if part == .json { origin.requestName = nil }
            }
            if let part = origin.requestPart, let named = origin.requestName {
                requestReads?.note(line: function.range.start.line, part: part, name: named)
            }
            origin.append(FlowHop(range: function.range.headerRange, note: "source: parameter \(name) of \(functionName)"))
            state[name] = AbstractValue(taint: Taint(origin))
        }
    }

    /// Where a FastAPI handler's parameter comes from when its declaration says: its default's
    /// marker (`= Query()`, `Form()`, `Header()`, `Cookie()`, `Body()`, `Path()`), or a type
    /// this file defines as a pydantic model (`item: Item`, `class Item(BaseModel)`): the JSON
    /// body, whose fields the handler reads.
    private func declaredPart(of parameter: SyntaxNode, type: String?) -> RequestPart? {
        if parameter.children.count > 1, parameter.children[1].kind == .call,
            let callee = parameter.children[1].children.first?.dottedName
        {
            switch callee.split(separator: ".").last.map(String.init) ?? callee {
            case "Query": return .query
            case "Form": return .form
            case "Header": return .header
            case "Cookie": return .cookie
            case "Body": return .json
            case "Path": return .path
            default: break
            }
        }
        guard let type, let bases = model.classes[type]?.bases else { return nil }
        return bases.contains { ($0.split(separator: ".").last.map(String.init) ?? $0) == "BaseModel" } ? .json : nil
    }

    /// Whether `type` is an enumeration this file defines (`class ImageType(str, Enum)`): the
    /// framework accepts only its members' values.
    private func isEnumeration(_ type: String) -> Bool {
        model.classes[type]?.bases.contains { base in
            let name = base.split(separator: ".").last.map(String.init) ?? base
            return ["Enum", "IntEnum", "StrEnum", "IntFlag", "Flag"].contains(name)
        } ?? false
    }

    /// Annotations whose values carry no attacker text (numbers, UUIDs) or are not request data.
    static let nonTextTypes: Set<String> = [
        "int", "float", "bool", "UUID", "UUID1", "UUID3", "UUID4", "UUID5", "Request", "HttpRequest", "WebSocket", "BackgroundTasks",
        "Response", "Session",
        "Info", "ResolveInfo", "GraphQLResolveInfo",
    ]

    /// Names bound by `<int:name>`, `<float:name>` or `<uuid:name>` in the function's decorators.
    static func typedRouteParameters(_ function: SyntaxNode) -> Set<String> {
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

    /// Names a route's path binds to one segment: `{name}` (Starlette, FastAPI, aiohttp; not
    /// `{name:path}`) and `<name>` / `<string:name>` (Werkzeug; not `<path:name>`). The router
    /// matches them on the decoded path and stops at `/`, so they hold no directory separator
    /// (a Windows server, where `\\` separates too, is not modelled).
    static func singleSegmentRouteParameters(_ function: SyntaxNode) -> Set<String> {
        guard let decorators = function.children.first else { return [] }
        var out: Set<String> = []
        decorators.walk { node in
            guard node.kind == .string, let text = node.text, text.hasPrefix("/") else { return true }
            for (open, close) in [("{", "}"), ("<", ">")] {
                var rest = text[...]
                while let start = rest.range(of: open) {
                    let after = rest[start.upperBound...]
                    guard let end = after.firstIndex(of: Character(close)) else { break }
                    let parts = after[..<end].split(separator: ":", maxSplits: 1).map(String.init)
                    let (converter, name) =
                        parts.count == 2 ? (open == "{" ? parts[1] : parts[0], open == "{" ? parts[0] : parts[1]) : ("", parts.first ?? "")
                    if ["", "str", "string"].contains(converter), !name.isEmpty { out.insert(name) }
                    rest = after[end...]
                }
            }
            return false
        }
        return out
    }

    /// One-line source text for messages, shortened.
    static func label(_ node: SyntaxNode, _ source: SourceText) -> String {
        let text = source.slice(from: node.range.start.offset, to: node.range.end.offset)
        // One short line (no line feed; no more bytes than the limit has characters): the text
        // itself, without splitting and counting characters (each tainted assignment asks).
        if text.utf8.count <= 60, !text.utf8.contains(UInt8(ascii: "\n")) { return text }
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        return line.count > 60 ? String(line.prefix(57)) + "..." : line
    }

    /// `os.system`, `subprocess.call` (import-resolved) for call sinks; the code otherwise.
    static func sinkLabel(_ node: SyntaxNode, _ index: FileIndex) -> String {
        if node.kind == .call, let callee = node.children.first, let dotted = callee.dottedName {
            return index.aliases.canonicalize(dotted)
        }
        // `session["k"] = v`: the place written is the sink.
        if node.kind == .assign, let target = node.children.first { return label(target, index.source) }
        return label(node, index.source)
    }
}

extension SourceRange {
    /// The first line of a definition, for a flow step that points at a function.
    var headerRange: SourceRange { SourceRange(start: start, end: start) }
}
