import PythonSyntax

/// Which of a file's functions a taint rule must analyse itself.
///
/// A function that mentions none of a rule's sources, sinks or own sanitizers (nor, for a path
/// rule, a prefix check), and calls nothing that does, treats its parameters the same way under
/// every rule: the rule-free summary, computed once per file, stands for it. Most functions of a
/// real project are such, so the taint rules share one analysis of them instead of one each.
struct RuleRelevance: Sendable {
    /// What one function mentions and calls. Identifiers are kept only when some taint rule
    /// names them (``RelevanceNames/vocabulary``): the checks then touch a handful of names.
    struct Facts: Sendable {
        /// Names, attributes, keywords, parameters and short string literals of the whole
        /// definition, with imported names spelled out (`system` from `from os import system`
        /// adds `os`), as rule prefilters count them.
        var identifiers: Set<String> = []
        /// Those of its header only: decorators, name, parameters (what a route source matches).
        var header: Set<String> = []
        /// Those of the headers around it (classes with their bases, enclosing functions), where
        /// a sink's `pattern-inside` may match.
        var scope: Set<String> = []
        /// The names its calls use (`helper`, `run` of `self.run()`), for the call graph.
        var calleeNames: Set<String> = []
        /// The file's classes a method call in it can go through: its own class (`self.run()`)
        /// and those it names (`Job.run()`, `Job().run()`, `job = Job()` ... `job.run()`).
        var classes: Set<String> = []
        /// The project functions it calls in other modules, as (module, function).
        var projectCallees: [(module: String, function: String)] = []
        /// The text of what it assigns to (`self.reset_token`, `session["csrf"]`), for sinks
        /// known by a `metavariable-regex` on the target's name (only texts one of them accepts).
        var assignedTargets: [String] = []
    }

    private(set) var facts: [String: Facts] = [:]
    /// The file's functions, numbered as the call graph numbers them.
    private let model: FileModel
    /// The whole file's identifiers.
    private let fileIdentifiers: Set<String>

    /// `targets`: the regexes of sinks known by the name assigned to (only targets one of them
    /// may match are kept).
    init(
        model: FileModel, index: FileIndex, project: ProjectView?, vocabulary: RelevanceVocabulary, targets: [MetavariableRegex]
    ) {
        self.model = model
        fileIdentifiers = index.identifiers
        let reader = IdentifierReader(aliases: index.aliases, vocabulary: vocabulary, targets: targets)
        var scopes: [Int: Set<String>] = [:]
        reader.collectScopes(index.root.children, around: [], into: &scopes)
        for function in model.functions {
            var fact = reader.facts(of: function.node, model: model, project: project, source: index.source)
            fact.scope = scopes[function.node.range.start.offset] ?? []
            if let className = function.className { fact.classes.insert(className) }
            // The same key twice (a redefinition): either may run, so both count.
            if let earlier = facts[function.key] {
                fact.identifiers.formUnion(earlier.identifiers)
                fact.header.formUnion(earlier.header)
                fact.scope.formUnion(earlier.scope)
                fact.calleeNames.formUnion(earlier.calleeNames)
                fact.classes.formUnion(earlier.classes)
                fact.projectCallees += earlier.projectCallees
                fact.assignedTargets += earlier.assignedTargets
            }
            facts[function.key] = fact
        }
    }

    /// What each function's calls can run, for the summaries' closures.
    var calls: FileCalls { FileCalls(names: facts.mapValues(\.calleeNames), classes: facts.mapValues(\.classes)) }

    /// What the whole file assigns to (module level included) that one of `targets` may match:
    /// one walk, without the functions' facts.
    static func assignedTargets(in index: FileIndex, targets: [MetavariableRegex]) -> [String] {
        guard !targets.isEmpty else { return [] }
        let reader = IdentifierReader(aliases: index.aliases, vocabulary: RelevanceVocabulary([]), targets: targets)
        // The assignments from the index, not a walk of the tree: only their targets are read.
        var out: [String] = []
        for kind in [SyntaxKind.assign, .annAssign, .augAssign] {
            for node in index.nodes(of: kind) { reader.addTargets(of: node, to: &out, source: index.source) }
        }
        return out
    }

    /// The keys of the functions `patterns` must analyse: those that mention the rule, and their
    /// callers in this file, to a fixpoint: the functions with a call `graph` says can run one of
    /// them (a call the analysis cannot resolve reads no summary).
    func relevant(to patterns: TaintPatterns, ruleId: String, project: ProjectView?, graph: CallGraph) -> Set<String> {
        let words = patterns.relevance
        if words.always || words.fileWideSink(in: fileIdentifiers) { return Set(facts.keys) }
        let specific = project?.summaries.ruleSpecific(ruleId) ?? [:]
        var relevant = Set<String>()
        for (key, fact) in facts {
            let mentions =
                words.mentioned(in: fact)
                || (!specific.isEmpty
                    && fact.projectCallees.contains { project?.sees($0.module) != false && specific[$0.module]?[$0.function] != nil })
            if mentions { relevant.insert(key) }
        }
        // Their callers, walked back through the call graph from each function found: each
        // function and each call edge once (rounds over every function, each adding one, made a
        // forwarding chain quadratic).
        let functions = model.functions
        var positions: [String: [Int]] = [:]
        for function in functions { positions[function.key, default: []].append(function.index) }
        var queue = functions.indices.filter { relevant.contains(functions[$0].key) }
        while let callee = queue.popLast() {
            for caller in graph.callers[callee] where relevant.insert(functions[caller].key).inserted {
                // A redefinition shares its key: each definition's callers count.
                queue += positions[functions[caller].key] ?? []
            }
        }
        return relevant
    }
}

/// The calls each function of a file makes, as far as the taint analysis follows them
/// (``TaintAnalyzer/resolve(_:receiver:)``): which of the file's functions they can run.
struct FileCalls: Sendable {
    /// The names each function's calls use (`helper`, `run` of `self.run()`), by function key.
    var names: [String: Set<String>] = [:]
    /// The file's classes each function's method calls can go through, by function key: its own
    /// (`self.run()`) and those it names (`Job.run()`, `Job().run()`, `job = Job()` ... `job.run()`).
    var classes: [String: Set<String>] = [:]

    /// Whether a call by `name` in `caller` can run `callee`, one of the functions called so
    /// (``FileModel/functionsByCallName``); unknown callers may call anything by its name.
    /// A function runs by its name, an `__init__` by the name of a class it constructs; a method
    /// only through a class whose lookup finds it (the analysis never resolves `x.run()` on a
    /// receiver of unknown class).
    func mayRun(_ callee: FileModel.Function, as name: String, from caller: String, in model: FileModel) -> Bool {
        guard callee.className != nil, name == callee.node.text, let through = classes[caller] else { return true }
        return through.contains { model.method(name, of: $0)?.key == callee.key }
    }
}

/// The identifiers the taint rules' relevance checks use (``RelevanceNames/vocabulary``), with a
/// filter that rejects nearly every other name without hashing it: every name of every function
/// is looked up.
struct RelevanceVocabulary: Sendable {
    let words: Set<String>
    private let filter: NameFilter

    init(_ words: Set<String>) {
        self.words = words
        filter = NameFilter(words)
    }

    func contains(_ word: String) -> Bool { filter.mayContain(word) && words.contains(word) }
}

/// One file's memo of which assignment targets the target regexes match.
private final class TargetMatches {
    var byText: [String: Bool] = [:]
}

/// Reads the identifiers of definitions, keeping those in the rules' vocabulary.
private struct IdentifierReader {
    let aliases: ImportAliases
    let vocabulary: RelevanceVocabulary
    /// Assignment targets are kept only when one of these matches them.
    let targets: [MetavariableRegex]
    /// Whether `targets` match a target's text, by text: the same names are assigned again and
    /// again, in the file and in each function, and the expressions are long.
    private let matched = TargetMatches()

    init(aliases: ImportAliases, vocabulary: RelevanceVocabulary, targets: [MetavariableRegex]) {
        self.aliases = aliases
        self.vocabulary = vocabulary
        self.targets = targets
    }

    func add(_ node: SyntaxNode, to ids: inout Set<String>) {
        switch node.kind {
        case .name:
            guard let text = node.text else { return }
            if vocabulary.contains(text) { ids.insert(text) }
            if let parts = aliases.resolvedSegments(text) {
                for part in parts where vocabulary.contains(part) { ids.insert(part) }
            }
        case .attribute, .keyword, .parameter, .varArgs, .kwArgs, .functionDef, .asyncFunctionDef, .classDef, .string:
            if let text = node.text, text.utf8.count <= 64, vocabulary.contains(text) { ids.insert(text) }
        default:
            break
        }
    }

    func identifiers(of nodes: some Sequence<SyntaxNode>) -> Set<String> {
        var out: Set<String> = []
        for node in nodes {
            node.walk { child in
                add(child, to: &out)
                return true
            }
        }
        return out
    }

    /// Records, for each definition (by offset), the header identifiers of the definitions around it.
    func collectScopes(_ statements: [SyntaxNode], around: Set<String>, into scopes: inout [Int: Set<String>]) {
        for statement in statements {
            switch statement.kind {
            case .functionDef, .asyncFunctionDef, .classDef:
                scopes[statement.range.start.offset] = around
                var inner = around.union(identifiers(of: statement.children.dropLast()))
                add(statement, to: &inner)
                if let body = statement.children.last { collectScopes(body.children, around: inner, into: &scopes) }
            default:
                for child in statement.children where child.kind == .block {
                    collectScopes(child.children, around: around, into: &scopes)
                }
                if statement.kind == .try || statement.kind == .tryStar {
                    for handler in statement.children where handler.kind == .exceptHandler {
                        if let block = handler.children.last { collectScopes(block.children, around: around, into: &scopes) }
                    }
                }
            }
        }
    }

    /// The text of what `node` assigns to, when it is an assignment and a target regex matches.
    func addTargets(of node: SyntaxNode, to out: inout [String], source: SourceText) {
        guard !self.targets.isEmpty else { return }
        let targets: ArraySlice<SyntaxNode>
        switch node.kind {
        case .assign: targets = node.children.dropLast()
        case .annAssign, .augAssign: targets = node.children.prefix(1)
        default: return
        }
        let bytes = source.bytes
        for target in targets where target.range.end.offset - target.range.start.offset <= 96 {
            let (from, to) = (target.range.start.offset, target.range.end.offset)
            guard self.targets.contains(where: { $0.mayMatch(bytes, from: from, to: to) }) else { continue }
            let text = source.slice(from: from, to: to)
            if let known = matched.byText[text] {
                if known { out.append(text) }
                continue
            }
            let matches = self.targets.contains { $0.matches(text) }
            matched.byText[text] = matches
            if matches { out.append(text) }
        }
    }

    func facts(of function: SyntaxNode, model: FileModel, project: ProjectView?, source: SourceText) -> RuleRelevance.Facts {
        var out = RuleRelevance.Facts()
        out.header = identifiers(of: function.children.dropLast())
        add(function, to: &out.header)
        var imported: Set<String> = []
        function.walk { node in
            add(node, to: &out.identifiers)
            if node.kind == .name, let text = node.text, model.classes[text] != nil { out.classes.insert(text) }
            addTargets(of: node, to: &out.assignedTargets, source: source)
            guard node.kind == .call, let callee = node.children.first else { return true }
            if let text = callee.text, callee.kind == .name || callee.kind == .attribute { out.calleeNames.insert(text) }
            guard project != nil else { return true }
            if callee.kind == .name, let name = callee.text, let dotted = aliases.resolve(name) ?? model.relativeImports[name] {
                imported.insert(project?.called(dotted) ?? dotted)
            } else if callee.kind == .attribute {
                // The chain's root name first: most method calls are on no import, and their
                // dotted names are not spelled out.
                var root = callee
                while root.kind == .attribute, let base = root.children.first { root = base }
                if root.kind == .name, let head = root.text, aliases.resolve(head) != nil || model.importedModules.contains(head),
                    let dotted = callee.dottedName
                {
                    imported.insert(aliases.canonicalize(dotted))
                } else if project?.conventions.followsCallsThroughRelativeModules == true, root.kind == .name, let head = root.text,
                    let module = model.relativeImports[head], let dotted = callee.dottedName
                {
                    // As ``TaintAnalyzer/relativeModuleRoot(_:)`` resolves it.
                    imported.insert(module + dotted.dropFirst(head.count))
                }
            }
            return true
        }
        if let project { out.projectCallees = imported.flatMap(project.locations) }
        return out
    }
}

/// What a function must mention for a taint rule to treat it differently from the rule-free
/// analysis, from the rule's patterns (see ``RuleRelevance``).
struct RelevanceNames: Sendable {
    /// Some pattern names nothing: every function is relevant.
    private(set) var always = false
    /// Sources that are expressions (`request.args`), sinks with identifiers of their own
    /// (`os.system(...)`) and the rule's own sanitizers, by one identifier each must have: the
    /// function must have that one and the rest.
    private var triggers: [String: [Set<String>]] = [:]
    /// Sources that are definitions (`@app.get(...) def $F(...)`), matched on the header.
    private var headerTriggers: [String: [Set<String>]] = [:]
    /// Sinks without identifiers (`return $X`, `$R["Location"] = $U`): the identifiers of their
    /// `pattern-inside` and their string literals, matched on the function, its strings and the
    /// headers around it.
    private var scopedSinks: [Set<String>] = []
    /// Sinks known by what a `metavariable-value` needs, matched on the whole file.
    private var fileSinks: [Set<String>] = []
    /// `$NAME = $VALUE` sinks whose `$NAME` must match a regex (a secret's name): a function is
    /// relevant when it assigns to such a name.
    private(set) var targetSinks: [MetavariableRegex] = []
    /// Every identifier the checks use; what ``RuleRelevance`` keeps of a function.
    private(set) var vocabulary: Set<String> = RelevanceNames.pathGuardNames

    /// Names a path rule's guards use: a prefix check is rule-specific.
    static let pathGuardNames: Set<String> = ["startswith", "is_relative_to", "commonpath"]
    /// Names an SSRF rule's host allow-list guards use.
    static let requestGuardNames: Set<String> = ["hostname", "netloc"]
    /// Names an open-redirect rule's URL checks read (``TaintAnalyzer/testedURLParts(_:)``).
    static let redirectGuardNames: Set<String> = ["hostname", "netloc", "scheme", "host"]
    /// The rule-specific guard names that make a function relevant.
    private let guardNames: Set<String>

    /// `ownSanitizers`: the rule's sanitizers the rule-free analysis does not apply;
    /// `lackedSanitizers`: those it applies and the rule does not have. Either makes a function
    /// that mentions it the rule's own.
    init(
        _ spec: TaintSpec, isPathRule: Bool, isRequestRule: Bool = false, isRedirectRule: Bool = false,
        ownSanitizers: [CompiledPattern], lackedSanitizers: [CompiledPattern] = []
    ) {
        guardNames = (isPathRule ? Self.pathGuardNames : []).union(isRequestRule ? Self.requestGuardNames : [])
            .union(isRedirectRule ? Self.redirectGuardNames : [])
        vocabulary.formUnion(Self.requestGuardNames)
        vocabulary.formUnion(Self.redirectGuardNames)
        let definitions: Set<SyntaxKind> = [.functionDef, .asyncFunctionDef, .classDef]
        var body: [Set<String>] = []
        var header: [Set<String>] = []
        for source in spec.sources {
            let tree = source.pattern.tree
            if definitions.contains(tree.kind) {
                header.append(source.pattern.requiredIdentifiers)
            } else {
                body.append(source.pattern.requiredIdentifiers)
            }
        }
        for sanitizer in ownSanitizers + lackedSanitizers {
            body.append(sanitizer.requiredIdentifiers)
        }
        for sink in spec.sinks {
            let own = sink.pattern.requiredIdentifiers
            if !own.isEmpty {
                body.append(own)
                continue
            }
            // `$S[$K] = $V` where `$S` must come from `get_session(...)`: that value may be made
            // anywhere in the file, so a file that mentions it makes every function relevant.
            if let regex = sink.targetRegex {
                targetSinks.append(regex)
                continue
            }
            let fileWide = sink.valueIdentifiers
            if !fileWide.isEmpty {
                fileSinks.append(fileWide)
                vocabulary.formUnion(fileWide)
                continue
            }
            var needed = sink.inside?.requiredIdentifiers ?? []
            sink.pattern.tree.walk { node in
                if node.kind == .string, let text = node.text, !text.hasPrefix("$") { needed.insert(text) }
                return true
            }
            scopedSinks.append(needed)
        }
        for ids in body + header + scopedSinks {
            if ids.isEmpty { always = true }
            vocabulary.formUnion(ids)
        }
        triggers = Self.index(body)
        headerTriggers = Self.index(header)
    }

    /// Each set under one of its names. The longest name is the rarest in practice
    /// (`url_has_allowed_host_and_scheme`, not `url`), so few functions reach the subset check.
    private static func index(_ sets: [Set<String>]) -> [String: [Set<String>]] {
        var out: [String: [Set<String>]] = [:]
        for ids in sets {
            guard let key = ids.max(by: { ($0.utf8.count, $0) < ($1.utf8.count, $1) }) else { continue }
            out[key, default: []].append(ids)
        }
        return out
    }

    /// Whether a sink that any function may hold is possible in a file with these identifiers.
    func fileWideSink(in identifiers: Set<String>) -> Bool {
        fileSinks.contains { $0.isSubset(of: identifiers) }
    }

    /// Whether every name of one of `triggers`' sets is in `names`; the smaller side is walked
    /// (a rule's trigger names or a function's names), each name looked up once in the other.
    private static func triggered(_ triggers: [String: [Set<String>]], by names: Set<String>) -> Bool {
        if names.count <= triggers.count {
            for id in names {
                if let alternatives = triggers[id], alternatives.contains(where: { $0.isSubset(of: names) }) { return true }
            }
        } else {
            for (id, alternatives) in triggers where names.contains(id) {
                if alternatives.contains(where: { $0.isSubset(of: names) }) { return true }
            }
        }
        return false
    }

    /// Whether the function mentions one of the rule's patterns.
    func mentioned(in fact: RuleRelevance.Facts) -> Bool {
        if always { return true }
        if Self.triggered(triggers, by: fact.identifiers) || Self.triggered(headerTriggers, by: fact.header) { return true }
        if !targetSinks.isEmpty, fact.assignedTargets.contains(where: { target in targetSinks.contains { $0.matches(target) } }) {
            return true
        }
        if !scopedSinks.isEmpty {
            let around = fact.identifiers.union(fact.scope)
            if scopedSinks.contains(where: { $0.isSubset(of: around) }) { return true }
        }
        return !guardNames.isEmpty && !fact.identifiers.isDisjoint(with: guardNames)
    }
}

extension TaintSink {
    /// What a `metavariable-value` on the sink needs the file to mention (the names every one of
    /// its alternatives has); empty when it has none or cannot tell.
    var valueIdentifiers: Set<String> {
        var out: Set<String> = []
        for case .metavariableValue(_, let formula) in conditions {
            guard let alternatives = CompiledRule.required(formula), let first = alternatives.first else { continue }
            out.formUnion(alternatives.dropFirst().reduce(first) { $0.intersection($1) })
        }
        return out
    }
}

extension TaintSink {
    /// For `$NAME = $VALUE` with a `metavariable-regex` on `$NAME`: that regex (which names can
    /// be sinks); nil for any other sink.
    var targetRegex: MetavariableRegex? {
        guard pattern.tree.kind == .assign, pattern.tree.children.count == 2, let target = pattern.tree.children.first,
            target.kind == .name, let name = target.text, name.hasPrefix("$")
        else { return nil }
        for case .metavariableRegex(let variable, let regex) in conditions where variable == name { return regex }
        return nil
    }
}
