import Dispatch
import Findings
import Foundation
import JavaScriptSyntax
import PythonSyntax
import SAST
import ScanCore
import Secrets
import SourcePositions
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One scan as the CLI (or a test) asks for it.
public struct ScanRequest: Sendable {
    /// The absolute path of the tree to scan; findings' paths are relative to it.
    public var root: String
    /// `--sast/--sca/--secrets/--dast`; nil means the config's list, else every kind that applies.
    public var kinds: [ScannerKind]?
    /// `--tools`; nil means the config's list, else the default set.
    public var tools: [ToolName]?
    /// The project's `.sentinel.yml` settings (include/exclude, tools, rule directories).
    public var config: ScanConfig
    /// Which findings fail the scan (exit 1).
    public var gate: Gate
    /// `--baseline`: findings it lists are hidden and counted; nil for none.
    public var baseline: Baseline?
    /// `--since REV`: only findings on these lines are kept; nil keeps all.
    public var changedLines: ChangedLines?
    /// `--severity`: findings below it are not shown (nor gated), only counted.
    public var minimumSeverity: Severity?
    /// `--min-confidence`: findings below it are not shown (nor gated), only counted; nil shows
    /// every confidence (a re-scan that verifies a fix must see them all). The CLI resolves the
    /// flag, then the config's `minConfidence`, then `Confidence.defaultMinimum`.
    public var minimumConfidence: Confidence?
    /// Files and directories to scan (absolute, under `root`); nil means `root` itself.
    public var targets: [String]?
    /// `--max-file-size` in bytes; nil means `FileWalker.defaultMaxFileBytes`.
    public var maxFileBytes: Int?
    /// `--max-file-work`: the work units the native engine may spend on one file; nil means
    /// the engine's default (`SASTEngine.defaultMaxFileWork`).
    public var maxFileWork: Int?
    /// `--max-file-work` when not given (the native engine's).
    public static let defaultMaxFileWork = SASTEngine.defaultMaxFileWork
    /// False (`--no-inline-suppressions`): no comment in the code hides a finding.
    public var inlineSuppressions = true
    /// Findings about a pull request's change itself (`ChangeReview`), from `ScanPlan`.
    public var changeFindings: [Finding] = []

    /// Makes a request for `root`; everything else defaults to the config's or built-in choices.
    public init(
        root: String, kinds: [ScannerKind]? = nil, tools: [ToolName]? = nil, config: ScanConfig = ScanConfig(),
        gate: Gate = Gate(), baseline: Baseline? = nil, changedLines: ChangedLines? = nil,
        targets: [String]? = nil, maxFileBytes: Int? = nil
    ) {
        self.root = root
        self.kinds = kinds
        self.tools = tools
        self.config = config
        self.gate = gate
        self.baseline = baseline
        self.changedLines = changedLines
        self.targets = targets
        self.maxFileBytes = maxFileBytes
    }
}

/// The finished scan: the report to render and the exit status (DESIGN §3: 0, 1, 3).
public struct ScanOutcome: Sendable {
    /// Everything the scan produced, after the pipeline.
    public var report: Report
    /// What the gate decided: the status the CLI exits with.
    public var exitStatus: ScanExitStatus
    /// Bad input the scan read past (also in the report's notices); the status is then 2.
    public var inputErrors: [Notice] = []
}

/// Selects the scanners a request asks for, runs them (in parallel), and passes their
/// findings through the pipeline: overrides, suppressions, dedupe, `--since`, baseline, gate.
public struct ScanRunner: Sendable {
    /// Every scanner the runner can choose from; the request selects among them.
    public let scanners: [any ScanCore.Scanner]

    /// Makes a runner over `scanners`.
    public init(scanners: [any ScanCore.Scanner]) {
        self.scanners = scanners
    }

    /// The kinds a scan runs when nothing narrows it.
    public static let defaultKinds: [ScannerKind] = [.sast, .secrets, .sca]

    /// Lists the files, runs the selected scanners in parallel and filters their findings. Throws `.invalidInput` for an
    /// unknown tool name or bad input a scanner reports; a scanner that fails otherwise becomes a failed `ToolRun`.
    public func run(_ request: ScanRequest, context: ScanContext) throws -> ScanOutcome {
        let started = DispatchTime.now()
        var context = context
        // In a pull request's scan the pipeline alone tells the base's suppressions from the head's.
        if !request.inlineSuppressions || request.changedLines != nil { context.toolsApplySuppressions = false }
        if let maxFileWork = request.maxFileWork { context.maxFileWork = maxFileWork }
        let plan = try select(request)
        // Rules load while the files are listed: neither needs the other.
        for (scanner, _) in plan { scanner.prepare(context: context) }
        let include = request.config.include.map(Glob.init)
        var walker = FileWalker(
            include: include, exclude: request.config.exclude.map(Glob.init),
            skippedDirectories: DefaultIgnores.neverScannedDirectories)
        if let maxFileBytes = request.maxFileBytes { walker.maxFileBytes = maxFileBytes }
        let targets = request.targets ?? [request.root]
        var selection = walker.select(targets: targets, root: request.root)
        let excluded = Self.applyDefaultIgnores(&selection, request: request, targets: targets, include: include)
        var target = ScanTarget(
            root: request.root, files: selection.files, oversizedFiles: selection.oversized,
            isFileList: targets != [request.root])
        target.defaultIgnoredFiles = excluded.files

        var tools: [ToolRun] = []
        var notices: [Notice] = []
        var runnable: [any ScanCore.Scanner] = []
        for (scanner, explicit) in plan {
            guard scanner.applies(to: target) else { continue }
            if let reason = scanner.unavailableReason(context: context) {
                if explicit || scanner.unavailableFailsScan(context: context) {
                    // The failed ToolRun carries the message; a notice too would print it twice.
                    tools.append(ToolRun(name: scanner.name, status: .failed, message: reason))
                } else {
                    tools.append(ToolRun(name: scanner.name, status: .skipped, message: reason))
                    notices.append(Notice(level: .info, message: "\(reason); skipped", tool: scanner.name))
                }
                continue
            }
            runnable.append(scanner)
        }

        let (outputs, inputError) = Self.runConcurrently(runnable, target: target, context: context)
        // Bad input (e.g. no lockfile could be read) is the user's to fix: exit 2, not 3.
        if let inputError { throw inputError }
        var report = Report(findings: [], rules: [], tools: tools, notices: notices, filesScanned: target.files.count)
        report.defaultExclusions = excluded.exclusions
        var inputErrors: [Notice] = []
        var equivalence: RuleEquivalence?
        var unread: [SkippedFile] = []
        for output in outputs {
            report.findings += TestCodeNoise.filter(output.findings).map(Self.redacted)
            inputErrors += output.inputErrors
            report.rules += output.rules
            report.tools.append(output.tool)
            report.notices += output.notices
            unread += output.skippedFiles
            equivalence = equivalence ?? output.equivalence
        }
        report.notices += inputErrors
        // What was asked for, whether or not it found input (the native rules skip a tree without
        // Python); Semgrep's rules read most languages: with it, nothing goes unanalysed for want of rules.
        let asked = Set(plan.map(\.0.name))
        let ran = Set(outputs.map(\.tool.name))
        let (unanalysed, unreadLockfiles) = LanguageCoverage.unanalysed(
            target.files, codeScanned: asked.contains(ToolName.native) && !ran.contains(ToolName.semgrep),
            dependenciesScanned: asked.contains(ToolName.osv), scripts: asked.contains(ToolName.native) ? target.scripts() : [])
        report.notices += LanguageCoverage.notices(
            sources: unanalysed, lockfiles: unreadLockfiles, secretsScanned: ran.contains(ToolName.secrets))
        report.filesScanned -= unanalysed.reduce(0) { $0 + $1.files.count }
        // A file over the size limit that the scan would analyse is a finding, not a note.
        let ranDependencies = outputs.contains { $0.tool.name == ToolName.osv }
        let notAnalysed = OversizedFiles.findings(
            selection.oversized.filter { !(ranDependencies && DependencyScanner.reads($0, root: target.root)) },
            target: target, walker: walker, code: plan.contains { $0.0.kind == .sast },
            secrets: plan.contains { $0.0.kind == .secrets })
        report.findings += notAnalysed
        if !notAnalysed.isEmpty && !report.rules.contains(where: { $0.id == ParserBoundFinding.descriptor.id }) {
            report.rules.append(ParserBoundFinding.descriptor)
        }
        let reported = Set(notAnalysed.compactMap(\.location.file))
        selection.oversized.removeAll { reported.contains($0) }
        report.skippedFiles = Self.skippedFiles(
            selection, target: target, walker: walker, unread: unread, ranDependencies: ranDependencies)
        report.durationSeconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        // An adapter's findings need the native rules' mapping even when the native engine did not run.
        if equivalence == nil, report.findings.contains(where: { !ToolName.builtIn.contains($0.tool) }) {
            equivalence = scanners.lazy.compactMap { ($0 as? NativeSASTScanner)?.equivalence(context: context) }.first
        }

        var pipeline = FindingsPipeline(
            gate: request.gate, baseline: request.baseline,
            severityOverrides: request.config.severity,
            changedLines: request.changedLines, minimumSeverity: request.minimumSeverity,
            minimumConfidence: request.minimumConfidence,
            equivalence: equivalence ?? RuleEquivalence(), suppressionSyntaxes: suppressionSyntaxes)
        pipeline.inlineSuppressions = request.inlineSuppressions
        pipeline.changeFindings = request.changeFindings
        pipeline.scannedFiles = Set(target.files)
        let sources = SourceCache(root: request.root, syntaxes: suppressionSyntaxes)
        let (final, status) = pipeline.process(report, sources: { sources.lines(of: $0) })
        // Bad input the scan could read past (a corrupt lockfile) still fails the run with 2.
        let exitStatus = !inputErrors.isEmpty && status != .scannerFailed ? .usage : status
        return ScanOutcome(report: final, exitStatus: exitStatus, inputErrors: inputErrors)
    }

    /// The suppression comments honoured: every registered scanner's, whether or not it runs
    /// here, then any other this runner's scanners declare.
    var suppressionSyntaxes: [SuppressionSyntax] {
        var syntaxes = ScannerRegistry.suppressionSyntaxes
        for case let syntax? in scanners.map(\.suppressionSyntax) where !syntaxes.contains(where: { $0.marker == syntax.marker }) {
            syntaxes.append(syntax)
        }
        return syntaxes
    }

    /// Leaves out what the default ignores cover (tests, environments, vendored and build output),
    /// except files named as targets: naming a file asks for it. Returns what was left out, by
    /// kind, and the files among it within the size limit (the secrets scan still reads them).
    static func applyDefaultIgnores(
        _ selection: inout FileWalker.Selection, request: ScanRequest, targets: [String],
        include: [Glob]
    ) -> (exclusions: [DefaultExclusion], files: [String]) {
        let ignores = DefaultIgnores(
            enabled: request.config.defaultExcludes,
            packageDirectories: DefaultIgnores.packageDirectories(selection.files + selection.oversized))
        let named = Set(
            targets.filter { target in
                FileWalker.status(ofTarget: target).map { $0.st_mode & S_IFMT != S_IFDIR } ?? false
            }.map { FileWalker.relative($0, to: request.root) })
        func excluded(_ files: [String]) -> Set<String> {
            Set(ignores.partition(files.filter { !named.contains($0) }, include: include).excluded)
        }
        let excludedFiles = excluded(selection.files)
        let secretsOnly = selection.files.filter { excludedFiles.contains($0) }
        selection.files.removeAll { excludedFiles.contains($0) }
        let excludedOversized = excluded(selection.oversized)
        selection.oversized.removeAll { excludedOversized.contains($0) }
        let excludedSkips = excluded(selection.skipped.map(\.file))
        selection.skipped.removeAll { excludedSkips.contains($0.file) }
        return (DefaultIgnores.exclusions(Array(excludedFiles) + Array(excludedOversized)), secretsOnly)
    }

    /// Files the scan was asked to cover and did not read, sorted by path: unreadable or special
    /// files from the walk, files over the size limit (except lockfiles dependency scanning
    /// read, and those `OversizedFiles` made findings of), and files a scanner failed to read.
    static func skippedFiles(
        _ selection: FileWalker.Selection, target: ScanTarget, walker: FileWalker,
        unread: [SkippedFile], ranDependencies: Bool
    ) -> [SkippedFile] {
        var skipped = selection.skipped + unread
        for file in selection.oversized where !(ranDependencies && DependencyScanner.reads(file, root: target.root)) {
            skipped.append(SkippedFile(file: file, reason: OversizedFiles.reason(file, target: target, walker: walker)))
        }
        var seen = Set<String>()
        return skipped.filter { seen.insert($0.file).inserted }.sorted { $0.file < $1.file }
    }

    /// A finding with any credential in its text redacted, whichever tool reported it.
    static func redacted(_ finding: Finding) -> Finding {
        var copy = finding
        copy.message = SecretsDetector.redactSecrets(in: finding.message)
        copy.snippet = finding.snippet.map(SecretsDetector.redactSecrets)
        copy.evidence = finding.evidence.map(SecretsDetector.redactSecrets)
        return copy
    }

    /// The scanners to run, each marked whether the user named it (`--tools`/config).
    func select(_ request: ScanRequest) throws -> [(any ScanCore.Scanner, Bool)] {
        let kinds = request.kinds ?? request.config.scanners ?? Self.defaultKinds
        if let named = request.tools ?? request.config.tools {
            let known = Set(scanners.map(\.name))
            for name in named where !known.contains(name) {
                throw SentinelError(
                    .invalidInput,
                    "unknown tool '\(name)' (known: \(scanners.map(\.name.rawValue).joined(separator: ", ")))")
            }
            return scanners.filter { named.contains($0.name) && kinds.contains($0.kind) }.map { ($0, true) }
        }
        return scanners.filter { $0.isDefault && kinds.contains($0.kind) }.map { ($0, false) }
    }

    /// Each scanner on its own thread; a failure becomes a failed `ToolRun` and a notice.
    static func runConcurrently(_ scanners: [any ScanCore.Scanner], target: ScanTarget, context: ScanContext)
        -> ([ScannerOutput], SentinelError?)
    {
        let results = Mutex<[Int: ScannerOutput]>([:])
        let inputError = Mutex<SentinelError?>(nil)
        ParallelFor.run(scanners.count) { index in
            let scanner = scanners[index]
            let started = DispatchTime.now()
            context.progress(.started(tool: scanner.name, files: target.files.count))
            var output: ScannerOutput
            do {
                output = try scanner.scan(target, context: context)
            } catch let error as SentinelError where error.code == .invalidInput {
                context.progress(.failed(tool: scanner.name))
                inputError.withLock { $0 = $0 ?? error }
                return
            } catch {
                // The failed ToolRun carries the message, printed once (not also as a notice).
                let message = (error as? SentinelError)?.message ?? "\(error)"
                output = ScannerOutput(tool: ToolRun(name: scanner.name, status: .failed, message: message))
            }
            output.tool.durationSeconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            context.progress(
                output.tool.status == .failed
                    ? .failed(tool: scanner.name) : .finished(tool: scanner.name, findings: output.findings.count))
            results.withLock { $0[index] = output }
        }
        let collected = results.withLock { $0 }
        return ((0..<scanners.count).compactMap { collected[$0] }, inputError.withLock { $0 })
    }
}

/// Reads each source file once, for suppression comments, through the tree's `TreeReader`: a
/// finding (a tool's output) that names a file outside the tree or behind a link reads nothing.
final class SourceCache: Sendable {
    private let root: String
    private let tree: TreeReader?
    private let syntaxes: [SuppressionSyntax]
    private let cache = Mutex<[String: LineIndex]>([:])

    init(root: String, syntaxes: [SuppressionSyntax] = []) {
        self.root = root
        self.tree = try? TreeReader(path: root)
        self.syntaxes = syntaxes
    }

    func lines(of file: String) -> LineIndex? {
        if let cached = cache.withLock({ $0[file] }) { return cached }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        let relative = file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
        guard let data = try? tree?.read(relative, limit: 1 << 30) else { return nil }
        // Splitting the decoded String on "\n" missed CRLF ("\r\n" is one Character), so a whole
        // CRLF file was one line and its suppressions never applied.
        var lines = LineIndex(data)
        // Comments as the language's tokenizer finds them: a marker in a string literal (a template,
        // a regular expression, JSX text) suppresses nothing. Only a file that mentions a marker is
        // tokenized for it.
        if Suppressions.mentionsMarker(lines, syntaxes: syntaxes) {
            if file.hasSuffix(".py") || file.hasSuffix(".pyi") {
                lines.commentStarts = PyComment.offsets(in: lines.bytes)
            } else {
                lines.commentStarts = JSComment.offsets(in: lines.bytes, fileName: file)
            }
        }
        cache.withLock { $0[file] = lines }
        return lines
    }
}
