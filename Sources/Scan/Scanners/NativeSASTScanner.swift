import Dispatch
import Findings
import Foundation
import SAST
import ScanCore
import Support
import Synchronization

/// The native rule engine over the tree's Python files: every file parsed once, files
/// spread across the cores, parse failures reported as one-line notices.
public struct NativeSASTScanner: ScanCore.Scanner {
    /// Selected by `--tools native`; findings carry it as their tool.
    public let name = ToolName.native
    /// Static analysis, selected by `--sast`.
    public let kind = ScannerKind.sast
    /// Rule directories besides those of the scan context (the shipped rules).
    public let builtInDirectories: [String]
    /// The engine `prepare` compiled, for the rule directories it was compiled from.
    private let prepared = PreparedEngine()

    /// Makes the scanner with the shipped rule directories (`RuleLocations.standard()` by default).
    public init(builtInDirectories: [String] = RuleLocations.standard()) {
        self.builtInDirectories = builtInDirectories
    }

    /// Whether the target has Python files (`.py`, `.pyw`).
    public func applies(to target: ScanTarget) -> Bool {
        !target.files(withExtensions: ["py", "pyw"]).isEmpty
    }

    /// Why it cannot run (no rule directory at all), or nil when it can.
    public func unavailableReason(context: ScanContext) -> String? {
        builtInDirectories.isEmpty && context.ruleDirectories.isEmpty
            ? "no rule directory found (set SENTINEL_RULES or add `rules:` to .sentinel.yml)" : nil
    }

    /// Always: the rules ship with the binary, so without them the install is broken and the
    /// Python files would go unchecked, not clean (exit 3, not "No findings").
    public func unavailableFailsScan(context: ScanContext) -> Bool { true }

    /// Starts loading and compiling the rules (while the files are listed).
    public func prepare(context: ScanContext) {
        let directories = builtInDirectories + context.ruleDirectories
        prepared.start(directories) { Result { SASTEngine(rules: try RuleSet.load(directories: directories)) } }
    }

    /// Runs the native rules over the Python files; a bad rule file is reported as bad input (exit 2).
    public func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        let directories = builtInDirectories + context.ruleDirectories
        let files = target.files(withExtensions: ["py", "pyw"])
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
            let (text, finding) = SourceEncodingCheck.read([UInt8](data), file: file)
            if let finding { hidden.withLock { $0[file] = finding } }
            return text
        }
        // One project: summaries of each module's functions follow flows into the modules that
        // import it. Its imports are noted while the rules may still be compiling.
        let rootName = target.root.split(separator: "/").last.map(String.init)
        let project = ProjectSummaries(files: files, rootName: rootName, read: read)
        let ready = prepared.take()
        // A bad rule file is bad input: exit 2 naming the file, not a tool failure.
        let engine =
            try ready.flatMap { $0.directories == directories ? $0.engine : nil }?.get()
            ?? SASTEngine(rules: try RuleSet.load(directories: directories))
        let rules = engine.rules
        let collected = engine.scanProject(
            files: files, project: project, read: read,
            progress: { index in
                let done = progress.add(1, ordering: .relaxed).newValue
                if done % 50 == 0 { context.progress(.file(tool: name, index: done, total: files.count, path: files[index])) }
            })
        var findings: [Finding] = []
        var notices: [Notice] = []
        let evasions = hidden.withLock { $0 }
        for index in files.indices {
            if let evasion = evasions[files[index]] { findings.append(evasion) }
            guard let result = collected[index] else { continue }
            findings += result.findings
            if let error = result.parseError {
                notices.append(Notice(level: .warning, message: error, file: files[index], tool: name))
            }
        }
        var output = ScannerOutput(
            findings: findings, rules: rules.descriptors + Self.ownDescriptors(of: findings),
            tool: ToolRun(name: name, version: nil, status: .succeeded), notices: notices)
        output.skippedFiles = unread.withLock { $0 }
        output.equivalence = rules.equivalence
        return output
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

/// The engine a scanner compiles in the background ahead of its scan, taken once.
private final class PreparedEngine: Sendable {
    private let slot = Mutex<(directories: [String], engine: Result<SASTEngine, any Error>)?>(nil)
    private let running = DispatchGroup()

    /// Runs `compile` on another thread; `take` waits for it.
    func start(_ directories: [String], _ compile: @escaping @Sendable () -> Result<SASTEngine, any Error>) {
        running.enter()
        DispatchQueue.global().async { [self] in
            let engine = compile()
            slot.withLock { $0 = (directories, engine) }
            running.leave()
        }
    }

    /// The compiled engine once it is ready (nil when none was started), and forgets it.
    func take() -> (directories: [String], engine: Result<SASTEngine, any Error>)? {
        running.wait()
        return slot.withLock { ready in
            defer { ready = nil }
            return ready
        }
    }
}
