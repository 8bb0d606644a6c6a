import ArgumentParser
import Foundation
import Heal
import Sandbox
import Store
import Support

/// `sentinel heal`: a verified fix for an error signal, or an account of what was tried.
/// Exit 0 a verified candidate is in --out; 1 none; 2 bad input.
struct HealCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heal",
        abstract: "Propose fixes for an error signal and verify them in the sandbox.",
        discussion: """
            The signal (pytest output, JUnit XML, a Python traceback, a Sentinel SARIF or JSON report, or a JSON log \
            line) is read from FILE or standard input. Candidates run in overlay copies of the repository; the \
            repository itself is never modified. Exit status: 0 a verified candidate was written to --out; 1 no \
            verified candidate; 2 bad input.
            """)

    @Option(help: ArgumentHelp("The error signal: a file, or - for standard input.", valueName: "file|-"))
    var signal: String
    @Option(help: ArgumentHelp("The repository to fix (never modified).", valueName: "dir"))
    var repo: String
    @Option(help: ArgumentHelp("The project's own check, run by /bin/sh in the sandbox.", valueName: "command"))
    var verify: String
    @Option(name: .customLong("max-attempts"), help: "Most candidates judged (default: 100).")
    var maxAttempts: Int = 100
    @Option(name: .customLong("max-minutes"), help: "Wall-clock budget in minutes (default: 15).")
    var maxMinutes: Double = 15
    @Option(help: "Sandbox profile for verification (default: fix-verify).") var profile: String = "fix-verify"
    @Option(help: "What may happen to the repository: observer (nothing changes; the default).")
    var level: String = "observer"
    @Option(help: ArgumentHelp("Write patch.diff and evidence.json here.", valueName: "dir")) var out: String?
    @Option(help: "Candidates verified at once (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: ArgumentHelp("Output format: text or json.", valueName: "format")) var format: String = "text"
    @Option(help: ArgumentHelp("With a report: work on this finding (rule id or fingerprint).", valueName: "id"))
    var finding: String?

    func run() throws {
        guard !verify.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw SentinelError(.invalidInput, "--verify: the command is empty")
        }
        guard level == "observer" else {
            throw SentinelError(
                .invalidInput,
                "--level: '\(level)' is not available (expected observer; proposer and actor come with the autonomy controller)")
        }
        guard format == "text" || format == "json" else {
            throw SentinelError(.invalidInput, "--format: '\(format)' is not one of text, json")
        }
        guard maxAttempts >= 1 else { throw SentinelError(.invalidInput, "--max-attempts: must be at least 1") }
        guard maxMinutes > 0 else { throw SentinelError(.invalidInput, "--max-minutes: must be more than 0") }
        guard jobs >= 1 else { throw SentinelError(.invalidInput, "--jobs: must be at least 1") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: repo, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SentinelError(.invalidInput, "\(repo): repository not found or not a directory")
        }
        if let out { try HealOutput.checkReplaceable(URL(fileURLWithPath: out).standardizedFileURL.path) }
        let signals = try SignalReader.read(path: signal, finding: finding)
        let sandboxProfile = try OptionValue.naming("--profile") { try ProfileStore.standard().resolve(profile) }
        let memory = try HealMemory(state: StateDirectory.current)
        let request = HealRequest(
            repository: repo, signals: signals, verify: verify, profile: sandboxProfile,
            actors: try HealActors.standard(environment: ProcessInfo.processInfo.environment),
            maxAttempts: maxAttempts, maxSeconds: maxMinutes * 60, jobs: jobs)
        let progress = HealProgressLine(enabled: Console.stderrIsTerminal)
        let loop = HealLoop(memory: memory, progress: { progress.show($0) })
        let outcome = try loop.run(request)
        progress.clear()
        let evidence = Evidence(outcome: outcome, request: request)
        if let out { try HealOutput.write(to: out, patch: outcome.candidate?.patch, evidence: evidence) }
        if format == "json" {
            Console.write(1, String(decoding: try evidence.json(), as: UTF8.self) + "\n")
        } else {
            Console.write(1, HealSummary.text(evidence, out: out))
        }
        if outcome.candidate == nil { throw ExitCode(1) }
    }
}

/// One line on a terminal: attempt N/M, the actor, what it is doing, elapsed time.
final class HealProgressLine: Sendable {
    private let enabled: Bool
    private let started = Date()

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ event: HealProgress) {
        guard enabled else { return }
        let elapsed = Int(Date().timeIntervalSince(started))
        let text: String
        switch event {
        case .baseline: text = "baseline: running the verify command on the unchanged tree…"
        case .proposing(let actor): text = "\(actor.rawValue): proposing…"
        case .verifying(let first, let last, let limit, let actor):
            let range = first == last ? "\(first)" : "\(first)-\(last)"
            text = "attempt \(range)/\(limit) · \(actor.rawValue) · verifying…"
        }
        Console.write(2, "\r\u{1b}[2K\(text) \(elapsed)s")
    }

    func clear() {
        if enabled { Console.write(2, "\r\u{1b}[2K") }
    }
}
