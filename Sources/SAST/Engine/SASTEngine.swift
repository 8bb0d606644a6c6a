import Languages
import Dispatch
import Findings
import Support
import PythonSyntax
import Synchronization

/// What scanning one file produced.
public struct FileScanResult: Sendable {
    /// Findings, sorted by position then rule id.
    public var findings: [Finding]
    /// What reading the file as Python said, when it is worth telling: it could not be parsed
    /// (skipped), or was analysed with the Python 2 dialect.
    public var parseNotice: ParseNotice?
    /// The one-line notice when the file could not be parsed (it is then skipped).
    public var parseError: String? { parseNotice?.kind == .skipped ? parseNotice?.message : nil }
    /// Whether a taint rule's source occurs in the file (a project scan re-analyses such a file in
    /// an import cycle once the modules after it have published their summaries).
    public var hasSources = false
    /// The request handlers of the file, for the route rules (empty when there are none).
    public var routes: [RouteHandler] = []
    /// A script's routes (``ScriptRouteExtractor``): they place its findings and web findings,
    /// apart from ``routes``, which route rules read (Python's handlers).
    public var scriptRoutes: [RouteHandler] = []
    /// What the file's render calls pass their templates, for the template rules.
    public var renderedContexts: [RenderedContext] = []
    /// What the file says about exceptions (the classes it defines and raises, its `except`
    /// clauses), for rules whose confidence depends on what a clause catches; nil when none does.
    public var applicationErrors: ApplicationErrors.FileFacts?
    /// The file's functions that return a template context, for the render calls that pass one.
    public var contextBuilders: [ContextBuilder] = []
    /// A JavaScript or TypeScript file's imports and the frameworks it uses that no model covers
    /// (issue 75), read from the tree the scan parsed; nil for Python and a file that did not parse.
    public var frameworkEvidence: FrameworkEvidence?
    /// The work units the file's analysis cost (``WorkMeter``), both rounds of a project scan
    /// together; the same file and rules always cost the same.
    public var workUnits = 0
    /// Whether the file's analysis passed ``SASTEngine/maxFileWork`` and was stopped (its
    /// findings then hold ``ParserBoundFinding/workBudget(file:budget:phase:)``).
    public var workBudgetExceeded = false
    /// Every finding before flows superseded audits: a second round that drops a flow must get
    /// the audit it had hidden back.
    var unsuperseded: [Finding] = []

    /// Creates a result; `parseError` says the file could not be parsed.
    public init(findings: [Finding], parseError: String? = nil) {
        self.findings = findings
        self.parseNotice = parseError.map { ParseNotice(kind: .skipped, message: $0) }
    }
}

/// A one-line notice about how a Python file was read.
public struct ParseNotice: Sendable, Hashable {
    /// What happened to the file.
    public enum Kind: Sendable, Hashable {
        /// It could not be parsed: no rule ran on it.
        case skipped
        /// It is Python 2: analysed with the Python 2 dialect (``PythonDialect/python2``).
        case python2Dialect
    }

    /// What happened to the file.
    public var kind: Kind
    /// `file:line:col: message (...)`, one line.
    public var message: String

    /// Makes a notice.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }
}

/// The native rule engine: parses each file once and runs every applicable rule over it.
public struct SASTEngine: Sendable {
    /// The rules this engine applies.
    public let rules: RuleSet
    private let compiled: [CompiledRule]
    /// What a function does for any taint rule: no sources or sinks, the sanitizers all share.
    private let ruleFree: TaintPatterns
    /// The identifiers any taint rule's relevance check uses.
    private let vocabulary: RelevanceVocabulary
    /// The regexes of the taint sinks known by the name assigned to.
    private let targets: [MetavariableRegex]
    /// The identifiers the search rules' file checks name, numbered.
    private let identifierVocabulary: IdentifierVocabulary
    /// The work units one file's analysis may cost (``WorkMeter``; `--max-file-work`): past it the
    /// file is a high `sentinel.file-not-analysed` finding instead of a CI job held for hours.
    public var maxFileWork = SASTEngine.defaultMaxFileWork

    /// `--max-file-work` when not given: well above the costliest real file measured (BENCHMARKS.md,
    /// "Work budget per file"), so that no real file reaches it.
    public static let defaultMaxFileWork = 250_000_000

    /// Prepares `rules` (indexes, prefilters) for scanning many files.
    public init(rules: RuleSet) {
        self.rules = rules
        let specs = rules.rules.compactMap { rule -> TaintSpec? in
            if case .taint(let spec) = rule.mode { return spec }
            return nil
        }
        let shared = rules.sharedSanitizers ?? TaintPatterns.sharedSanitizers(specs)
        let drafts = rules.rules.map { CompiledRule($0, sharedSanitizers: shared) }
        let vocabulary = IdentifierVocabulary(drafts.flatMap(\.requirements))
        self.identifierVocabulary = vocabulary
        self.compiled = drafts.map { CompiledRule($0, vocabulary: vocabulary) }
        self.ruleFree = TaintPatterns.ruleFree(sharedSanitizers: shared)
        self.vocabulary = RelevanceVocabulary(compiled.reduce(into: []) { $0.formUnion($1.taint?.relevance.vocabulary ?? []) })
        self.targets = Array(Set(compiled.flatMap { $0.taint?.relevance.targetSinks ?? [] }))
    }

    /// Scans one Python file. `file` is the path findings carry (relative to the scan root).
    /// Never throws: a file that does not parse yields `parseError` and no findings.
    public func scan(file: String, source: String, project: ProjectSummaries? = nil) -> FileScanResult {
        scan(file: file, source: source, project: project, access: .full, only: nil, meter: WorkMeter(budget: maxFileWork))
    }

    /// `published`: called once what importers read of this file is published (its taint rules and
    /// rule-free summaries), before its search rules run; not called when the file does not parse.
    /// `meter`: the file's work so far (a second round starts from the first's).
    private func scan(
        file: String, source: String, project: ProjectSummaries?, access: ProjectAccess, only: Set<String>?,
        meter: WorkMeter, published: @escaping @Sendable () -> Void = {}
    ) -> FileScanResult {
        // Matching and taint recurse once per tree level; long operator chains are deep, so the
        // work runs on the parser's large-stack thread like parsing does.
        let compiled = only.map { ids in self.compiled.filter { ids.contains($0.rule.id) } } ?? self.compiled
        let taintShared = TaintShared(
            ruleFree: ruleFree, vocabulary: vocabulary, targets: targets, identifiers: identifierVocabulary)
        // Handlers matter to route rules, and to rules whose confidence depends on who reaches them.
        let routes = only == nil && (!rules.routeRules.isEmpty || rules.rules.contains { $0.adminHandlersConfidence != nil })
        let applicationErrors = only == nil && rules.rules.contains { $0.applicationErrorsConfidence != nil }
        let result = try? LargeStack.run {
            Self.scan(
                file: file, source: source, rules: compiled, taintShared: taintShared, project: project, access: access,
                routes: routes, applicationErrors: applicationErrors, frameworks: only == nil, meter: meter,
                published: published)
        }
        return result ?? FileScanResult(findings: [], parseError: "\(file): internal error while scanning (file skipped)")
    }

    /// Scans the files of one project so that flows through helpers in other modules are followed.
    /// The first round scans the modules dependencies first, each reading the summaries of the
    /// modules it imports that come before it, and publishing its own; the second re-runs the
    /// taint rules of the files in import cycles that may gain a flow from the modules that came
    /// after them. Each file reads only summaries that were complete when it started
    /// (``DependencyScheduler``), so the findings do not depend on timing. `read` returns a file's
    /// text (nil: unreadable, left out). Results are in the order of `files`.
    public func scanProject(
        files: [String], read: @escaping @Sendable (String) -> String?,
        progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> [FileScanResult?] {
        scanProject(files: files, read: read, progress: progress, workers: nil)
    }

    /// ``scanProject(files:read:progress:)`` with the project's imports already noted
    /// (``ProjectSummaries/init(files:read:)``, made from the same `files`).
    public func scanProject(
        files: [String], project: ProjectSummaries, read: @escaping @Sendable (String) -> String?,
        progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> [FileScanResult?] {
        scanProject(files: files, project: project, read: read, progress: progress, workers: nil)
    }

    /// `workers`: how many files are scanned at once (nil: one per processor).
    func scanProject(
        files: [String], project: ProjectSummaries? = nil, read: @escaping @Sendable (String) -> String?,
        progress: @escaping @Sendable (Int) -> Void, workers: Int?
    ) -> [FileScanResult?] {
        let project = project ?? ProjectSummaries(files: files, read: read)
        let results = Mutex<[FileScanResult?]>(Array(repeating: nil, count: files.count))
        let modules = files.map(project.module(of:))
        var fileOfModule: [String: Int] = [:]
        for (i, module) in modules.enumerated() {
            // The one file a module's name stands for in the project (`foo.ts`, not the `foo.js`
            // compiled beside it); of a Python module's two (`m.py`, `m/__init__.py`), the last listed.
            if let module, project.modules[module].map({ $0 == files[i] }) ?? true { fileOfModule[module] = i }
        }
        // What each file imports, as files; ranked dependencies first, the modules before a file
        // are read in the first round, those after it (import cycles) only in the second.
        let imported = files.indices.map { i in Set(project.imports(of: files[i]).compactMap { fileOfModule[$0] }).subtracting([i]) }
        var rank = [Int](repeating: 0, count: files.count)
        for (position, file) in DependencyScheduler.dependenciesFirst(imported).enumerated() { rank[file] = position }
        let earlier = files.indices.map { i in imported[i].filter { rank[$0] < rank[i] } }
        let later = files.indices.map { i in Set(imported[i].filter { rank[$0] > rank[i] }.compactMap { modules[$0] }) }
        // Two files of one module name (`m.py` and `m/__init__.py`): only the one importers wait for
        // publishes, or what they read would depend on which finished last.
        let publishes = files.indices.map { i in modules[i].map { fileOfModule[$0] == i } ?? true }
        let scheduler = DependencyScheduler(rank: rank, waitFor: earlier.map(Array.init), cost: files.map(project.size(of:)))
        LargeStack.concurrentPerform(iterations: files.count, workers: workers) { _ in
            guard let i = scheduler.next() else { return }
            defer { scheduler.done(i) }
            guard let text = read(files[i]) else { return }
            let access = ProjectAccess(visible: Set(earlier[i].compactMap { modules[$0] }), publishes: publishes[i])
            // The files waiting for this one start as soon as its summaries are out.
            let result = scan(
                file: files[i], source: text, project: project, access: access, only: nil,
                meter: WorkMeter(budget: maxFileWork), published: { scheduler.done(i) })
            results.withLock { $0[i] = result }
            progress(i)
        }
        let first = results.withLock { $0 }
        // Only flows can change, and only through the summaries of the names a file imports from a
        // later module (a function, or a class and its methods; everything of a module it takes
        // whole). A rule runs again when such a summary is its own (a sink, a source, a
        // sanitizer) and the file has a source, when one returns its source, or when it found a
        // flow here and a rule-free summary may now clean it or lengthen its path. Any other rule
        // found no flow, and a rule-free summary only narrows what a call to an unknown function
        // passes on, so it still finds none. They read every module and publish nothing (no file
        // of this round may read what another wrote meanwhile; nothing reads after it).
        let taintRules = compiled.filter { $0.taint != nil }.map(\.rule.id)
        let again: [(file: Int, rules: Set<String>)] = files.indices.compactMap { i in
            // A file stopped by its work budget is not analysed again: the budget is the file's, per scan.
            guard !later[i].isEmpty, let result = first[i], result.parseError == nil, !result.workBudgetExceeded else { return nil }
            let imported = project.importedNames(of: files[i], from: later[i])
            guard !imported.isEmpty else { return nil }
            let reported = Set((result.unsuperseded.isEmpty ? result.findings : result.unsuperseded).map(\.ruleId))
            let ruleFreeReaches = project.publishes(ruleId: ProjectSummaries.anyRule, under: imported)
            let rules = taintRules.filter { rule in
                let own = project.publishes(ruleId: rule, under: imported)
                return own && result.hasSources || reported.contains(rule) && (own || ruleFreeReaches)
                    || project.publishes(ruleId: rule, under: imported, returningSource: true)
            }
            return rules.isEmpty ? nil : (i, Set(rules))
        }
        // Largest first: the threads then finish together instead of one running a big file alone.
        let largestFirst = again.sorted { project.size(of: files[$0.file]) > project.size(of: files[$1.file]) }
        LargeStack.concurrentPerform(iterations: largestFirst.count, workers: workers) { j in
            let (i, rules) = largestFirst[j]
            guard let text = read(files[i]), var merged = first[i] else { return }
            let access = ProjectAccess(visible: nil, publishes: false)
            let second = scan(
                file: files[i], source: text, project: project, access: access, only: rules,
                meter: WorkMeter(budget: maxFileWork, used: merged.workUnits))
            guard second.parseError == nil else { return }
            merged.workUnits = second.workUnits
            if second.workBudgetExceeded {
                // The first round's findings stand (each from a whole analysis, only with fewer
                // summaries); the second round's, cut short, are dropped for the bound's finding.
                merged.workBudgetExceeded = true
                merged.findings += second.findings.filter { $0.ruleId == ParserBoundFinding.descriptor.id }
                merged.findings.sort(by: Self.byPosition)
                results.withLock { $0[i] = merged }
                return
            }
            merged.findings = TaintFindings.supersedeAudits(
                (merged.unsuperseded.isEmpty ? merged.findings : merged.unsuperseded).filter {
                    !rules.contains($0.ruleId)
                } + second.findings)
            merged.findings.sort(by: Self.byPosition)
            results.withLock { $0[i] = merged }
        }
        return results.withLock { $0 }
    }

    /// One rule's findings, one per line: two matches of a rule in one statement
    /// (`f"{e.__class__.__name__}: {e}"`) are one thing to fix (issue 55). The strongest is kept
    /// (severity, then confidence: evidence may raise one match and not the other), the first
    /// of equals, in the findings' order.
    static func onePerLine(_ findings: [Finding]) -> [Finding] {
        guard findings.count > 1 else { return findings }
        var best: [Int: Int] = [:]
        for (index, finding) in findings.enumerated() {
            guard let line = finding.location.startLine else { continue }
            if let kept = best[line] {
                let other = findings[kept]
                if (finding.severity, finding.confidence) > (other.severity, other.confidence) { best[line] = index }
            } else {
                best[line] = index
            }
        }
        return findings.enumerated().filter { index, finding in
            guard let line = finding.location.startLine else { return true }
            return best[line] == index
        }.map(\.element)
    }

    /// The language `file` is read as: a file without a known extension is a script, listed by
    /// its shebang (`#!/usr/bin/env node`).
    static func language(of file: String, bytes: [UInt8]) -> SourceLanguage {
        SourceLanguage(fileName: file) ?? SourceLanguage(shebang: bytes.prefix(Shebang.headBytes)) ?? .python
    }

    static func byPosition(_ a: Finding, _ b: Finding) -> Bool {
        (a.location.startLine ?? 0, a.location.startColumn ?? 0, a.ruleId) < (
            b.location.startLine ?? 0, b.location.startColumn ?? 0, b.ruleId
        )
    }

    private static func scan(
        file: String, source: String, rules compiled: [CompiledRule], taintShared: TaintShared,
        project: ProjectSummaries?, access: ProjectAccess, routes: Bool, applicationErrors: Bool = false, frameworks: Bool,
        meter: WorkMeter, published: () -> Void
    ) -> FileScanResult {
        let text = SourceText(source)
        let language = Self.language(of: file, bytes: text.bytes)
        let module: ParsedSource
        do {
            // Read once per scan: the tree the project's import pre-scan read, when it read this
            // text; else read here (already on a large-stack thread, rather than on yet another one).
            if let kept = project?.loweredTrees.take(file, text: source) {
                module = kept
            } else {
                module = try SourceFrontEnd.parse(bytes: text.bytes, file: file, language: language)
            }
        } catch {
            let bound = ParserBoundFinding.finding(for: error.error).map { [$0] } ?? []
            return FileScanResult(findings: bound, parseError: error.notice)
        }
        // The framework models below read Python's shapes (decorated routes, `except` clauses).
        let routes = routes && language == .python
        let applicationErrors = applicationErrors && language == .python
        let index = FileIndex(root: module.root, source: text, language: language, meter: meter)
        let builder = FindingBuilder(file: file, source: text, root: module.root)
        var findings: [Finding] = []
        let sourceCache = SourceMatchCache()
        let model = FileModel(root: module.root)
        var view = project.map { ProjectView(summaries: $0, file: file, index: index) }
        view?.access = access
        if let current = view { view?.exported = model.functions.filter(current.isExported) }
        // A module others import from summarises what they import, whatever it mentions.
        let hasProjectImports = !(view?.importedModules.isEmpty ?? true) || !(view?.exported.isEmpty ?? true)
        let shared = SharedSummaries(
            index: index, model: model, project: view, ruleFree: taintShared.ruleFree, vocabulary: taintShared.vocabulary,
            targets: taintShared.targets)
        let presence = taintShared.identifiers.presence(in: index.identifiers)
        let applicable = compiled.indices.filter { i in
            let rule = compiled[i]
            guard rule.languages.contains(language),
                view == nil
                    ? rule.applies(presence: presence)
                    : rule.appliesInProject(presence: presence, projectImports: hasProjectImports)
            else { return false }
            return rule.textNeeds.map { index.lowercased.mayContain($0) } ?? true
        }
        // Taint rules first: they publish what importers read, and the files waiting for this one
        // start once that is out, while the search rules run here. Findings keep the rules' order.
        let requestReads = RequestReads()
        var byRule = [[Finding]](repeating: [], count: compiled.count)
        // The phase the file's work budget ran out in: that rule's findings are dropped (its
        // analysis was cut short), those of the rules before it kept (each analysis was whole).
        var stopped: String?
        for i in applicable where compiled[i].taint != nil {
            byRule[i] = compiled[i].findings(
                in: index, builder: builder, sourceCache: sourceCache, model: model, project: view, shared: shared,
                presence: presence, requestReads: requestReads)
            if meter.isExhausted {
                byRule[i] = []
                stopped = "taint analysis (rule \(compiled[i].rule.id))"
                break
            }
        }
        if let view, stopped == nil {
            // What the imported functions do with their parameters, whatever the rule.
            let exported = view.exported
            // Only a taint rule of the file's language reads them (a Python project's rules, none of a JavaScript file's).
            if view.access.publishes, !exported.isEmpty, compiled.contains(where: { $0.taint != nil && $0.languages.contains(language) }) {
                let exportedKeys = Set(exported.map(\.key))
                let published = shared.ruleFree(covering: exported).filter { key, summary in
                    summary.mattersToImporters && exportedKeys.contains(key)
                }
                // Summaries cut short by the budget would tell importers less than an unknown call.
                if meter.isExhausted {
                    stopped = "summaries for importing modules"
                } else {
                    view.publish(
                        ruleId: ProjectSummaries.anyRule, file: file, summaries: published, classes: Set(model.classes.keys))
                }
            }
        }
        published()
        for i in applicable where compiled[i].taint == nil && stopped == nil {
            byRule[i] = compiled[i].findings(
                in: index, builder: builder, sourceCache: sourceCache, model: model, project: view, shared: shared)
            if meter.isExhausted {
                byRule[i] = []
                stopped = "pattern search (rule \(compiled[i].rule.id))"
            }
        }
        findings = byRule.flatMap(Self.onePerLine)
        let unsuperseded = findings
        findings = TaintFindings.supersedeAudits(findings)
        if let stopped { findings.append(ParserBoundFinding.workBudget(file: file, budget: meter.budget, phase: stopped)) }
        findings.sort(by: byPosition)
        var result = FileScanResult(findings: findings)
        result.workUnits = meter.units
        result.workBudgetExceeded = stopped != nil
        if let dialect = module.dialectNotice {
            result.parseNotice = ParseNotice(kind: .python2Dialect, message: dialect)
        }
        // Kept only where a second round may re-analyse the file.
        if project != nil, findings.count != unsuperseded.count { result.unsuperseded = unsuperseded }
        result.hasSources = sourceCache.foundAny
        if routes {
            let rendered = RenderedContexts(aliases: index.aliases, root: module.root)
            result.renderedContexts = rendered.contexts(in: module.root)
            result.contextBuilders = rendered.builders(in: module.root)
            let reads = requestReads.all
            result.routes = RouteExtractor(file: file, aliases: index.aliases).handlers(in: module.root).map { handler in
                var handler = handler
                handler.snippet = String(decoding: text.lineBytes(handler.line), as: UTF8.self)
                return RouteFacts.reading(reads, into: handler)
            }
            result.findings = RouteFacts.attach(result.findings, handlers: result.routes, file: file)
        }
        if language != .python {
            // A script's routes only place its findings (the route rules read Python's handlers).
            let reads = requestReads.all
            let handlers = ScriptRouteExtractor(
                file: file, aliases: index.aliases, imported: model.importedModules, relative: model.relativeImports
            ).handlers(
                in: module.root
            ).map {
                RouteFacts.reading(reads, into: $0)
            }
            result.findings = RouteFacts.attach(result.findings, handlers: handlers, file: file)
            result.scriptRoutes = handlers
        }
        if applicationErrors { result.applicationErrors = ApplicationErrors.facts(of: module.root) }
        // A second round re-runs some rules only: the first one's evidence stands.
        if frameworks, language != .python { result.frameworkEvidence = FrameworkEvidence(root: module.root) }
        return result
    }
}

/// What every file's taint rules share, from the engine.
struct TaintShared: Sendable {
    let ruleFree: TaintPatterns
    let vocabulary: RelevanceVocabulary
    let targets: [MetavariableRegex]
    /// The rules' identifier numbering (``CompiledRule/gates``).
    let identifiers: IdentifierVocabulary
}

/// A rule with what it needs precomputed: the identifiers a file must mention, taint indexes.
/// A class: every file walks the list of rules, and a struct would be copied at each step.
final class CompiledRule: Sendable {
    let rule: Rule
    /// The languages of the files it runs on (its `languages`).
    let languages: Set<SourceLanguage>
    let required: IdentifierRequirement
    /// Literal text a file must contain for the rule to match (from its `metavariable-regex`).
    let textNeeds: RegexLiterals?
    let taint: TaintPatterns?
    /// The identifier checks that decide whether the rule runs on a file, numbered.
    let gates: Gates

    /// `required` for a search rule; a taint rule's source and sink names.
    struct Gates: Sendable {
        var required: NumberedRequirement
        var sources: NumberedRequirement
        var sinks: NumberedRequirement
        var sanitizers: NumberedRequirement
    }

    /// Compiles `rule`, with its checks numbered on their own (the engine renumbers them in one
    /// vocabulary for all its rules).
    convenience init(_ rule: Rule, sharedSanitizers: [CompiledPattern] = []) {
        let required: IdentifierRequirement
        let textNeeds: RegexLiterals?
        let taint: TaintPatterns?
        switch rule.mode {
        case .search(let formula):
            required = IdentifierRequirement(alternatives: Self.required(formula))
            textNeeds = Self.textNeeds(formula)
            taint = nil
        case .taint(let spec):
            required = .always
            textNeeds = nil
            taint = TaintPatterns(spec, cwe: rule.cwe, sharedSanitizers: sharedSanitizers)
        }
        self.init(rule: rule, required: required, textNeeds: textNeeds, taint: taint, vocabulary: nil)
    }

    /// `draft` with its checks numbered in `vocabulary`.
    convenience init(_ draft: CompiledRule, vocabulary: IdentifierVocabulary) {
        self.init(
            rule: draft.rule, required: draft.required, textNeeds: draft.textNeeds, taint: draft.taint,
            vocabulary: vocabulary)
    }

    private init(
        rule: Rule, required: IdentifierRequirement, textNeeds: RegexLiterals?, taint: TaintPatterns?,
        vocabulary: IdentifierVocabulary?
    ) {
        self.rule = rule
        let languages = Set(rule.languages.compactMap(SourceLanguage.init(ruleName:)))
        self.languages = languages.isEmpty ? [.python] : languages
        self.required = required
        self.textNeeds = textNeeds
        self.taint = taint
        let checks = Self.requirements(required, taint)
        let numbered = checks.map((vocabulary ?? IdentifierVocabulary(checks)).numbered)
        gates = Gates(required: numbered[0], sources: numbered[1], sinks: numbered[2], sanitizers: numbered[3])
    }

    /// The identifier checks of the rule, for the engine's vocabulary.
    var requirements: [IdentifierRequirement] { Self.requirements(required, taint) }

    /// `required`, then a taint rule's source, sink and sanitizer names (``Gates``' order).
    private static func requirements(_ required: IdentifierRequirement, _ taint: TaintPatterns?) -> [IdentifierRequirement] {
        [required, taint?.sourceNames ?? .always, taint?.sinkNames ?? .always, taint?.sanitizerNames ?? .always]
    }

    /// Identifier sets of which at least one must be wholly present for any match; nil when unknown.
    static func required(_ formula: PatternFormula) -> [Set<String>]? {
        switch formula {
        case .pattern(let pattern):
            return IdentifierRequirement(compiled: [pattern]).alternatives
        case .either(let alternatives):
            var out: [Set<String>] = []
            for alternative in alternatives {
                guard let sets = required(alternative) else { return nil }
                out += sets
            }
            return out
        case .all(let clauses):
            for clause in clauses {
                if case .positive(let formula) = clause, let sets = required(formula) { return sets }
            }
            // No match lies outside a `pattern-inside`'s matches: what they need, every match needs.
            for clause in clauses {
                if case .inside(let formula) = clause, let sets = required(formula) { return sets }
            }
            return nil
        }
    }

    /// Literal text a file must contain for a search rule's `formula` to match; nil when none.
    static func textNeeds(_ formula: PatternFormula) -> RegexLiterals? {
        formula.textRequirement.flatMap { $0.required.isEmpty ? nil : $0 }
    }

    /// Whether the rule may match a file with these identifiers (numbered in the engine's vocabulary).
    func applies(presence: IdentifierPresence) -> Bool {
        if taint != nil { return gates.sources.isSatisfied(by: presence) && mayHoldSink(presence) }
        return gates.required.isSatisfied(by: presence)
    }

    /// In a project scan, a module with only a source or only a sink still exports summaries.
    func appliesInProject(presence: IdentifierPresence, projectImports: Bool) -> Bool {
        if taint != nil { return projectImports || gates.sources.isSatisfied(by: presence) || mayHoldSink(presence) }
        return gates.required.isSatisfied(by: presence)
    }

    /// Whether a file may hold a sink of the taint rule (one on a secret's name always may).
    private func mayHoldSink(_ presence: IdentifierPresence) -> Bool {
        taint?.relevance.targetSinks.isEmpty == false || gates.sinks.isSatisfied(by: presence)
    }

    /// `presence`: the file's identifiers in the engine's vocabulary (nil: read from `index`).
    func findings(
        in index: FileIndex, builder: FindingBuilder, sourceCache: SourceMatchCache, model: FileModel,
        project: ProjectView? = nil, shared: SharedSummaries? = nil, presence: IdentifierPresence? = nil,
        requestReads: RequestReads? = nil
    ) -> [Finding] {
        switch rule.mode {
        case .search(let formula):
            var seen = Set<Int>()
            var out: [Finding] = []
            for match in PatternSearch(index: index).matches(formula)
            where seen.insert(match.range.start.offset * 1_000_003 + match.range.end.offset).inserted {
                if OwnMethodCall.isOwn(match.range, root: index.root, model: model, bytes: index.source.bytes) { continue }
                out.append(builder.finding(rule, range: match.range, bindings: match.bindings, evidence: nil))
            }
            return out
        case .taint:
            guard let taint else { return [] }
            var analyzer = TaintAnalyzer(
                patterns: taint, index: index, sourceCache: sourceCache, ruleId: rule.id, project: project, model: model,
                shared: shared)
            if let presence {
                analyzer.namesPresent = (gates.sinks.isSatisfied(by: presence), gates.sanitizers.isSatisfied(by: presence))
            }
            analyzer.requestReads = requestReads
            analyzer.run()
            // The functions this rule left to the rule-free summary are published once, for any rule.
            // A rule without some of the rule-free sanitizers publishes its own functions' summaries
            // even when they say what an unknown function would: the rule-free one may say less.
            var published = analyzer.summaries.filter { key, summary in
                analyzer.relevant?.contains(key) != false && (summary.mattersToImporters || taint.lacksSharedSanitizers)
                    && model.functionsByKey[key].map { project?.isExported($0) ?? false } == true
            }
            // A summary cut short by the file's work budget is no summary (the engine reports the file).
            if let project, project.access.publishes, !published.isEmpty, !index.meter.isExhausted {
                // A summary identical to the rule-free one tells importers nothing the rule-free one
                // (or, when that is not published, an unknown call) does not: publishing it would only
                // make their calls to it look rule-specific, to be analysed and re-run for nothing.
                if let shared {
                    let ruleFree = shared.ruleFree(covering: published.keys.compactMap { model.functionsByKey[$0] })
                    published = published.filter { key, summary in ruleFree[key].map { !summary.isIdentical(to: $0) } ?? true }
                }
                project.publish(ruleId: rule.id, file: builder.file, summaries: published, classes: Set(model.classes.keys))
            }
            return TaintFindings.build(rule, flows: analyzer.flows, builder: builder)
        }
    }
}
