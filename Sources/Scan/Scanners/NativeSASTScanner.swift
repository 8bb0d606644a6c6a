import Dispatch
import Findings
import Foundation
import Languages
import SAST
import ScanCore
import Support
import Synchronization

/// The native rule engine over the tree's Python files and templates: every file parsed once,
/// files spread across the cores, parse failures reported as one-line notices.
public struct NativeSASTScanner: ScanCore.Scanner {
    /// Selected by `--tools native`; findings carry it as their tool.
    public let name = ToolName.native
    /// Static analysis, selected by `--sast`.
    public let kind = ScannerKind.sast
    /// Rule directories besides those of the scan context (the shipped rules).
    public let builtInDirectories: [String]
    /// The rule files `prepare` read, for the rule directories it read them from.
    private let prepared = PreparedRules()

    /// The project's own sources, sanitizers and sinks (`models:` in `.sentinel.yml`).
    public let models: TaintModels

    /// Makes the scanner with the shipped rule directories (`RuleLocations.standard()` by default)
    /// and the project's `models`.
    public init(builtInDirectories: [String] = RuleLocations.standard(), models: TaintModels = TaintModels()) {
        self.builtInDirectories = builtInDirectories
        self.models = models
    }

    /// The rules of `documents` with the models applied; with `present`, the shipped rules of
    /// absent languages left uncompiled, and with `tree` those no file can match
    /// (``RuleSet/compile(_:present:optionalDirectories:tree:)``).
    private func engine(_ documents: RuleDocuments, present: Set<String>?, tree: TreeContents?) throws -> SASTEngine {
        let rules = try RuleSet.compile(
            documents, present: present, optionalDirectories: Set(builtInDirectories), tree: tree,
            leavingTaintRules: models.isEmpty)
        return SASTEngine(rules: try rules.applying(models))
    }

    /// Whether the target has Python files (`.py`, `.pyw`, `.wsgi`, scripts with a Python
    /// shebang), JavaScript or TypeScript (by name, or scripts with a Node shebang) or template
    /// files (`.html`, `.j2`, ...).
    public func applies(to target: ScanTarget) -> Bool {
        !target.files(withExtensions: Self.codeExtensions).isEmpty || !target.files(withExtensions: TemplateFiles.extensions).isEmpty
            || !target.files(withExtensions: [Self.notebookExtension]).isEmpty
            || !Self.readScripts(target).isEmpty
    }

    /// The extensions of the code files the engine reads by name: every registered language's
    /// (``Languages/registry``), but Python's type stubs (`.pyi`: declarations, nothing runs) and
    /// notebooks (read as their code cells, ``notebookExtension``).
    static var codeExtensions: Set<String> { Languages.fileExtensions.subtracting(["pyi", notebookExtension]) }

    /// Jupyter notebooks: their Python code cells are read as one module (``NotebookSource``).
    static let notebookExtension = "ipynb"

    /// The target's scripts (files named for no language, ``ScanTarget/scripts()``) whose
    /// interpreter's language the engine reads, with that language.
    static func readScripts(_ target: ScanTarget) -> [(file: String, language: SourceLanguage)] {
        target.scripts().compactMap { script in SourceLanguage(interpreter: script.interpreter).map { (script.file, $0) } }
    }

    /// Why it cannot run (no rule directory at all), or nil when it can.
    public func unavailableReason(context: ScanContext) -> String? {
        builtInDirectories.isEmpty && context.ruleDirectories.isEmpty
            ? "no rule directory found (set SENTINEL_RULES or add `rules:` to .sentinel.yml)" : nil
    }

    /// Always: the rules ship with the binary, so without them the install is broken and the
    /// Python files would go unchecked, not clean (exit 3, not "No findings").
    public func unavailableFailsScan(context: ScanContext) -> Bool { true }

    /// Starts reading the rule files (while the files are listed); the scan compiles those of
    /// the languages the tree holds.
    public func prepare(context: ScanContext) {
        let directories = builtInDirectories + context.ruleDirectories
        let indexed = Set(builtInDirectories)
        prepared.start(directories) { Result { try RuleSet.read(directories: directories, indexed: indexed) } }
    }

    /// Waits for the rule files ``prepare(context:)`` reads, if the scan did not take them.
    public func finishPreparing() {
        _ = prepared.take()
    }

    /// Runs the native rules over the Python files; a bad rule file is reported as bad input (exit 2).
    public func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        let directories = builtInDirectories + context.ruleDirectories
        // Python by name, and scripts by their shebang (`bin/manage` is as much Python as `manage.py`).
        // Notebooks: their code cells, as one module (`NotebookSource`), findings mapped back.
        let scripts = Self.readScripts(target)
        let byName = target.files(withExtensions: Self.codeExtensions)
        let pythonFiles =
            byName.filter { SourceLanguage(fileName: $0) == .python } + scripts.filter { $0.language == .python }.map(\.file)
            + target.files(withExtensions: [Self.notebookExtension])
        // The other languages (JavaScript and TypeScript, Vue/Svelte components' scripts, scripts
        // Node runs) go through the same engine, lowered by their own front end; cross-file
        // summaries follow their relative imports as they follow Python's.
        let files =
            pythonFiles + byName.filter { SourceLanguage(fileName: $0) != .python }
            + scripts.filter { $0.language != .python }.map(\.file)
        let isPython = Set(pythonFiles)
        let notebooks = Mutex<[String: NotebookSource]>([:])
        let templates = target.files(withExtensions: TemplateFiles.extensions)
        let unread = Mutex<[SkippedFile]>([])
        let hidden = Mutex<[String: Finding]>([:])
        let progress = Atomic<Int>(0)
        let name = name
        // Decoded as its coding cookie says, as CPython reads it; a file that hides code that way is a finding.
        let read: @Sendable (String) -> String? = { file in
            guard let data = try? target.read(file) else {
                unread.withLock { list in
                    if !list.contains(where: { $0.file == file }) { list.append(SkippedFile(file: file, reason: "cannot read")) }
                }
                return nil
            }
            if file.hasSuffix("." + Self.notebookExtension) {
                do {
                    let notebook = try NotebookSource([UInt8](data), file: file)
                    notebooks.withLock { $0[file] = notebook }
                    return notebook.python
                } catch {
                    unread.withLock { list in
                        if !list.contains(where: { $0.file == file }) { list.append(SkippedFile(file: file, reason: "not a notebook")) }
                    }
                    return nil
                }
            }
            // Other languages are UTF-8 (the parser names a file that is not).
            guard isPython.contains(file) else { return String(decoding: data, as: UTF8.self) }
            let (text, finding) = SourceEncodingCheck.read([UInt8](data), file: file)
            if let finding { hidden.withLock { $0[file] = finding } }
            return text
        }
        // One project: summaries of each module's functions follow flows into the modules that
        // import it. Its imports are noted while the rules may still be compiling; the texts read
        // for it are kept (up to a bound) for the first round, which then need not read them again.
        let rootName = target.root.split(separator: "/").last.map(String.init)
        let kept = KeptTexts(budget: KeptTexts.defaultBudget)
        let project = ProjectSummaries(
            files: files, rootName: rootName,
            read: { file in
                let text = read(file)
                if let text { kept.keep(text, for: file) }
                return text
            })
        let ready = prepared.take()
        // A bad rule file is bad input: exit 2 naming the file, not a tool failure.
        let documents =
            try ready.flatMap { $0.directories == directories ? $0.documents : nil }?.get()
            ?? RuleSet.read(directories: directories, indexed: Set(builtInDirectories))
        // The pattern syntaxes of the files about to be analysed (and templates): the shipped
        // rules of any other language would cost their compiling and find nothing (issue 77).
        var present = Set(files.compactMap { file in SourceLanguage(fileName: file)?.patternSyntax })
        present.formUnion(scripts.map(\.language.patternSyntax))
        if !pythonFiles.isEmpty { present.insert(SourceLanguage.python.patternSyntax) }
        if !templates.isEmpty { present.insert(RuleSet.templateLanguage) }
        // The shipped rules the index says need identifiers no file holds are not read (issue 77):
        // the trees are read first for their identifiers, and the scan takes them from there.
        let contents =
            documents.skippableCount > 0
            ? SASTEngine.contents(of: files, project: project, read: { file in kept.peek(file) ?? read(file) }) : nil
        var engine = try self.engine(documents, present: present, tree: contents)
        if let maxFileWork = context.maxFileWork { engine.maxFileWork = maxFileWork }
        let rules = engine.rules
        let collected = engine.scanProject(
            files: files, project: project, read: { file in kept.take(file) ?? read(file) },
            progress: { index in
                let done = progress.add(1, ordering: .relaxed).newValue
                if done % 50 == 0 { context.progress(.file(tool: name, index: done, total: files.count, path: files[index])) }
            })
        if ProcessInfo.processInfo.environment[Self.workTraceVariable] == "1" { Self.traceWork(files: files, results: collected) }
        var findings: [Finding] = []
        var notices: [Notice] = []
        var python2Files = 0
        let evasions = hidden.withLock { $0 }
        // What the Python code imports, for rules that apply only in some web frameworks (every
        // file was read by the import pre-scan).
        var facts = ProjectFacts()
        facts.modules = project.importedTopLevelModules
        for index in files.indices {
            if let evasion = evasions[files[index]] { findings.append(evasion) }
            guard let result = collected[index] else { continue }
            if let notebook = notebooks.withLock({ $0[files[index]] }) {
                findings += result.findings.map(notebook.mapped)
            } else {
                findings += result.findings
            }
            guard let parse = result.parseNotice else { continue }
            // A skipped file is a warning; a Python 2 file was analysed: a note, counted below.
            let level: Notice.Level = parse.kind == .skipped ? .warning : .info
            if parse.kind == .python2Dialect { python2Files += 1 }
            notices.append(Notice(level: level, message: parse.message, file: files[index], tool: name))
        }
        if python2Files > 0 {
            let files = python2Files == 1 ? "1 Python 2 file" : "\(python2Files) Python 2 files"
            notices.append(
                Notice(level: .info, message: "\(files) analysed with the Python 2 dialect (-v lists them)", tool: name))
        }
        // Route rules read every file's handlers at once: siblings and the project's other handlers.
        let handlers = collected.flatMap { $0?.routes ?? [] }
        // Django's URL configurations and Tornado's specs name their views' paths in other files.
        let routed = RouteFacts.resolved(handlers)
        findings = RouteFacts.attach(findings, projectHandlers: handlers, resolved: routed)
        // A script's routers below the prefixes other modules mount them at.
        let scriptHandlers = collected.flatMap { $0?.scriptRoutes ?? [] }
        let scriptRouted = RouteFacts.resolved(scriptHandlers)
        findings = RouteFacts.attach(findings, projectHandlers: scriptHandlers, resolved: scriptRouted)
        findings += RouteEngine(rules: rules.routeRules, declaredGuards: models.guards).findings(handlers: handlers)
        findings = AdministratorHandlers.placed(findings, handlers: handlers, rules: rules.rules)
        var exceptionFacts: [String: ApplicationErrors.FileFacts] = [:]
        for (file, result) in zip(files, collected) { if let facts = result?.applicationErrors { exceptionFacts[file] = facts } }
        findings = ApplicationErrors.placed(findings, facts: exceptionFacts, rules: rules.rules)
        let scanned = Self.scanTemplates(
            templates, in: target, engine: TemplateEngine(rules: rules.templateRules),
            project: facts,
            contexts: ContextBuilder.resolve(
                collected.flatMap { $0?.renderedContexts ?? [] }, builders: collected.flatMap { $0?.contextBuilders ?? [] }),
            tool: name)
        findings += scanned.findings
        notices += scanned.notices
        // What the JavaScript and TypeScript code uses that no model covers, from the trees just scanned.
        var evidence: [String: FrameworkEvidence] = [:]
        for (file, result) in zip(files, collected) { if let facts = result?.frameworkEvidence { evidence[file] = facts } }
        notices += FrameworkCoverage.notices(target: target, evidence: evidence, tool: name)
        unread.withLock { $0 += scanned.unread }
        // A project-wide protection is looked for only when a rule it rules out reported something.
        let searched = facts.rulingOut(rules.scopedRules, in: Set(findings.map(\.ruleId)))
        if !searched.isEmpty { facts.merge(Self.protections(searched, in: files, read: read)) }
        let scopes = Dictionary(
            rules.rules.map { ($0.id, $0.scope) } + rules.templateRules.map { ($0.id, $0.scope) }, uniquingKeysWith: { a, _ in a })
        findings = FindingPlacement.placed(findings.filter { facts.applies($0.ruleId, scopes[$0.ruleId] ?? ProjectScope()) })
        var output = ScannerOutput(
            findings: findings, rules: rules.descriptors + Self.ownDescriptors(of: findings),
            tool: ToolRun(name: name, version: nil, status: .succeeded), notices: notices)
        output.skippedFiles = unread.withLock { $0 }
        output.equivalence = rules.equivalence
        output.routes = (routed + scriptRouted).compactMap { handler in
            guard handler.kind == .handler || handler.kind == .unroutedView, let path = handler.path else { return nil }
            return RouteLocation(path: path, methods: handler.methods, file: handler.file, line: handler.line)
        }
        return output
    }

    /// `SENTINEL_WORK_TRACE=1`: each analysed file's work units (``SASTEngine/maxFileWork``) on
    /// stderr, `work: UNITS FILE`, for measuring what real files cost (BENCHMARKS.md).
    static let workTraceVariable = "SENTINEL_WORK_TRACE"

    /// Prints the work trace, one escaped line per file analysed.
    private static func traceWork(files: [String], results: [FileScanResult?]) {
        var text = ""
        for (file, result) in zip(files, results) {
            guard let result else { continue }
            text += DisplayText.line("work: \(result.workUnits) \(file)") + "\n"
        }
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { writeAll(2, UnsafeRawBufferPointer($0)) }
    }

    /// The facts of the `scoped` rules that some Python file rules out (their `project-not-regex`
    /// matches), the files searched in parallel until each rule is ruled out or every file read.
    private static func protections(
        _ scoped: [ScopedRule], in files: [String], read: @escaping @Sendable (String) -> String?
    ) -> ProjectFacts {
        let facts = Mutex(ProjectFacts())
        ParallelFor.run(files.count) { i in
            let open = scoped.filter { rule in !facts.withLock { $0.ruledOut.contains(rule.id) } }
            guard !open.isEmpty, let text = read(files[i]) else { return }
            var found = ProjectFacts()
            found.ruleOut(open, text: text)
            facts.withLock { $0.merge(found) }
        }
        return facts.withLock { $0 }
    }

    /// Runs the template rules over the files of `templates` that are templates (template syntax
    /// or a `templates/` directory), in parallel; findings in file order. `contexts`: what the
    /// Python code's render calls pass. Every template is read first, so that each one's context
    /// (``TemplateContexts``: the calls naming it, and what the templates including, extending or
    /// importing it hand it) is known before any is scanned: a variable the context holds as safe
    /// markup is not reported as unescaped output, and one it is not seen to hold is low confidence.
    private static func scanTemplates(
        _ templates: [String], in target: ScanTarget, engine: TemplateEngine, project: ProjectFacts,
        contexts: [RenderedContext], tool: ToolName
    ) -> (findings: [Finding], notices: [Notice], unread: [SkippedFile]) {
        guard !engine.rules.isEmpty, !templates.isEmpty else { return ([], [], []) }
        let read = Mutex<[ParsedTemplate?]>(Array(repeating: nil, count: templates.count))
        let unread = Mutex<[SkippedFile]>([])
        ParallelFor.run(templates.count) { i in
            guard let data = try? target.read(templates[i]) else {
                unread.withLock { $0.append(SkippedFile(file: templates[i], reason: "cannot read")) }
                return
            }
            let bytes = [UInt8](data)
            guard TemplateFiles.isTemplate(templates[i], bytes: bytes) else { return }
            let template = ParsedTemplate(bytes: bytes)
            read.withLock { $0[i] = template }
        }
        let parsed = read.withLock { $0 }
        let context = TemplateContexts(templates: templates, outlines: parsed.map { $0?.outline }, calls: contexts).contexts
        let results = Mutex<[TemplateScanResult?]>(Array(repeating: nil, count: templates.count))
        ParallelFor.run(templates.count) { i in
            guard let template = parsed[i] else { return }
            let result = engine.scan(file: templates[i], template: template, project: project, safeVariables: context[i].safe)
            results.withLock { $0[i] = result }
        }
        var findings: [Finding] = []
        var notices: [Notice] = []
        for (i, result) in results.withLock({ $0 }).enumerated() {
            guard let result else { continue }
            findings += TemplateEngine.placed(result, passed: context[i].passed)
            // A bound hit leaves part of the file unchecked: said, never silent.
            for bound in result.bounds { notices.append(Notice(level: .warning, message: bound, file: templates[i], tool: tool)) }
        }
        return (findings, notices, unread.withLock { $0 })
    }

    /// The rules of the findings the scanner makes itself (not from a rule file).
    private static func ownDescriptors(of findings: [Finding]) -> [RuleDescriptor] {
        [SourceEncodingCheck.descriptor, ParserBoundFinding.descriptor].filter { rule in
            findings.contains { $0.ruleId == rule.id }
        }
    }

    /// The Bandit/Semgrep mapping of the rules this scanner would load; nil when they do not load.
    public func equivalence(context: ScanContext) -> RuleEquivalence? {
        (try? RuleSet.load(directories: builtInDirectories + context.ruleDirectories))?.equivalence
    }
}

/// Texts the import pre-scan read, kept for the first round of the scan, each taken once; at most
/// `budget` UTF-8 bytes in all (beyond it a file is read again), so a huge tree costs no more memory.
final class KeptTexts: Sendable {
    /// 64 MiB: every Python file of most repositories (Django's 883 are 7 MiB).
    static let defaultBudget = 64 << 20
    private let state: Mutex<(texts: [String: String], room: Int)>

    init(budget: Int) { state = Mutex(([:], budget)) }

    func keep(_ text: String, for file: String) {
        state.withLock { state in
            let size = text.utf8.count
            guard size <= state.room else { return }
            state.room -= size
            state.texts[file] = text
        }
    }

    func take(_ file: String) -> String? {
        state.withLock { $0.texts.removeValue(forKey: file) }
    }

    /// The text kept for `file`, left for ``take(_:)``.
    func peek(_ file: String) -> String? {
        state.withLock { $0.texts[file] }
    }
}

/// The rule files a scanner reads in the background ahead of its scan, taken once.
private final class PreparedRules: Sendable {
    private let slot = Mutex<(directories: [String], documents: Result<RuleDocuments, any Error>)?>(nil)
    private let running = DispatchGroup()

    /// Runs `read` on another thread; `take` waits for it.
    func start(_ directories: [String], _ read: @escaping @Sendable () -> Result<RuleDocuments, any Error>) {
        running.enter()
        DispatchQueue.global().async { [self] in
            // Nothing of the read is held past `leave`: once `take` has it, this thread is done.
            slot.withLock { $0 = (directories, read()) }
            running.leave()
        }
    }

    /// The rule files once they are read (nil when no reading was started), and forgets them.
    func take() -> (directories: [String], documents: Result<RuleDocuments, any Error>)? {
        running.wait()
        return slot.withLock { ready in
            defer { ready = nil }
            return ready
        }
    }
}
