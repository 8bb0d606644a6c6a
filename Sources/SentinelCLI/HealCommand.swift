import ArgumentParser
import Autonomy
import CLICore
import Digest
import Foundation
import Git
import Heal
import SAST
import Sandbox
import ScanCore
import Signals
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
            line) is read from FILE or standard input. Candidates run in overlay copies of the repository. What \
            happens to a verified candidate is decided by --level and the policy (.sentinel/policy.yml): observer \
            only reports it, proposer queues a proposal for `sentinel proposals approve`, actor commits it on a new \
            branch when the policy allows. Exit status: 0 a verified candidate was written to --out; 1 no verified \
            candidate; 2 bad input.
            """)

    @Option(help: ArgumentHelp("The error signal: a file, or - for standard input.", valueName: "file|-"))
    var signal: String
    @Option(help: ArgumentHelp("The repository to fix (its files are never changed; actor adds a branch).", valueName: "dir"))
    var repo: String
    @Option(help: ArgumentHelp("The project's own check, run by /bin/sh in the sandbox.", valueName: "command"))
    var verify: String
    @Option(name: .customLong("max-attempts"), help: "Most candidates judged (default: as many as --max-minutes allows).")
    var maxAttempts: Int?
    @Option(name: .customLong("max-minutes"), help: "Wall-clock budget in minutes.")
    var maxMinutes: Double = 15
    @Option(
        name: .customLong("test-timeout"),
        help: ArgumentHelp(
            "Most CPU seconds one test may use in heal's pytest runs; a test past it fails where it runs (default: a sixth of the unchanged tree's budget, at least 10; for candidates ten times the slowest test, at least 5).",
            valueName: "seconds"))
    var testTimeout: Double?
    @Option(help: "Sandbox profile for verification.") var profile: String = "fix-verify"
    @Option(
        help: ArgumentHelp(
            "observer (report only), proposer (queue a proposal) or actor (commit on a branch when the policy allows); default: the policy's level, else observer.",
            valueName: "level"))
    var level: AutonomyLevel?
    @Option(help: ArgumentHelp("The autonomy policy (default: REPO/.sentinel/policy.yml when it exists).", valueName: "file"))
    var policy: String?
    @Option(help: ArgumentHelp("Write patch.diff and evidence.json here.", valueName: "dir")) var out: String?
    // Optional: a default computed here would print this machine's core count in `--help`.
    @Option(help: "Candidates verified at once (default: the number of cores).")
    var jobs: Int?
    @Option(help: "Output format.") var format: TextOrJSON = .text
    @Option(help: ArgumentHelp("With a report: work on this finding (rule id or fingerprint).", valueName: "id"))
    var finding: String?
    @Option(
        name: .customLong("package-index"),
        help: ArgumentHelp(
            "Where a dependency bump's verification installs the bumped version from: a directory of wheels (bound read-only) or an http(s) index URL the profile's egress allows. Without it a bump is 'not exercised'.",
            valueName: "dir|url"))
    var packageIndex: String?
    @Option(
        name: .customLong("repository-id"),
        help: ArgumentHelp(
            "What heal memory files this repository under: fixes are replayed only on the repository they were learnt on (default: file:// and the real path of --repo; fleet workers give the job's repository URL).",
            valueName: "id"))
    var repositoryID: String?
    @Option(
        help: ArgumentHelp(
            "Who an actor-level commit says wrote the change, as 'Name <email>' (default: GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL when both are set, else git's user.name and user.email for the repository, else sentinel).",
            valueName: "identity"))
    var author: String?

    func run() throws {
        guard !verify.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw SentinelError(.invalidInput, "--verify: the command is empty")
        }
        let requested = level
        guard (maxAttempts ?? 1) >= 1 else { throw SentinelError(.invalidInput, "--max-attempts: must be at least 1") }
        guard maxMinutes > 0 else { throw SentinelError(.invalidInput, "--max-minutes: must be more than 0") }
        if let testTimeout, !(testTimeout > 0 && testTimeout <= TestTimeLimit.maximum) {
            throw SentinelError(.invalidInput, "--test-timeout: must be more than 0 and at most \(Int(TestTimeLimit.maximum)) seconds")
        }
        let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        guard jobs >= 1 else { throw SentinelError(.invalidInput, "--jobs: must be at least 1") }
        let index = try packageIndex.map { try PackageIndex(parsing: $0) }
        // A malformed identity is a usage error before anything runs.
        _ = try OptionValue.author(author)
        if let repositoryID, repositoryID.isEmpty || repositoryID.count > 4096 || repositoryID.contains(where: \.isNewline) {
            throw SentinelError(.invalidInput, "--repository-id: one line of at most 4096 characters")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: repo, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SentinelError(.invalidInput, "\(repo): repository not found or not a directory")
        }
        let tree = OutputPlacement.realPath(repo)
        // In the analysis, root prepared --out and receives its files through the broker.
        let output =
            LaunchBrokerClient.servesThisCommand
            ? nil : try out.map { try HealOutput.prepare($0, refusingLinksInside: tree.map { [$0] } ?? []) }
        if let output, let tree, output.isInside(tree), !LaunchBrokerClient.servesThisCommand {
            Console.error("sentinel: warning: \(OutputPlacement.insideWarning(option: "--out", path: output.path, tree: tree))")
        }
        if AnalysisSandbox.applies {
            do {
                throw ExitCode(try separatedHeal(output: output, requested: requested))
            } catch let unavailable as AnalysisSandbox.Unavailable {
                unavailable.warnRootGoesOn("healing")
            }
        }
        try AnalysisSandbox.enterStartDirectory()
        let autonomyPolicy = try loadPolicy()
        let controller = AutonomyController(state: try StateLocation.current(), environment: ProcessInfo.processInfo.environment)
        // One redactor for everything this heal writes, sends or prints (the signal is hostile text).
        let redactor = controller.redactor(policy: autonomyPolicy)
        Console.redact(redactor)
        let opened = (requested ?? autonomyPolicy.level) > .observer ? try GitRepository(containing: repo) : nil
        let signals = try readSignal()
        let sandboxProfile = try OptionValue.naming("--profile") { try ProfileStore.standard(syntax: .yaml).resolve(profile) }
        let environment = try actorEnvironment()
        let memory = try HealMemory(
            state: StateLocation.current(), redactor: redactor, embedder: try SignalEmbedders.configured(environment: environment))
        var request = HealRequest(
            repository: repo, signals: signals, verify: verify, profile: sandboxProfile,
            actors: try HealActors.standard(
                environment: environment,
                osvDatabase: LaunchBrokerClient.servesThisCommand ? AnalysisResources.osvDatabase() : StateLocation.current().osvDatabase),
            maxAttempts: maxAttempts ?? Int.max, maxSeconds: maxMinutes * 60, jobs: jobs, packageIndex: index,
            repositoryID: repositoryID)
        request.testCPUSeconds = testTimeout
        // In an analysis (heal's own, a fleet worker's job), `TMPDIR` is root's scratch directory,
        // which root removes and its launches may mount; run directly, the state's own (never a
        // shared `$TMPDIR`: the snapshot holds the repository).
        if !LaunchBrokerClient.isActive {
            request.scratchBase = try ScratchDirectory.privateBase(StateLocation.current().scratchPath)
        }
        let progress = HealProgressLine(
            mode: ProgressReporter.Mode.forStderr(quiet: false, environment: ProcessInfo.processInfo.environment))
        var loop = HealLoop(memory: memory, progress: { progress.show($0) })
        loop.warn = { progress.warn($0) }
        let outcome = try loop.run(request)
        progress.clear()
        let evidence = Evidence(outcome: outcome, request: request)
        if let out {
            let (files, patchWritten) = try HealOutput.contents(patch: outcome.candidate?.patch, evidence: evidence, redactor: redactor)
            if LaunchBrokerClient.servesThisCommand {
                for file in files { try LaunchBrokerClient.write(slot: Self.outputSlot + file.name, file.data) }
            } else if let output {
                try output.write(files)
            }
            if !patchWritten {
                Console.error("sentinel: warning: \(out)/patch.diff not written: the patch contains the value of a credential")
            }
        }
        var autonomy: AutonomyOutcome?
        if let candidate = outcome.candidate {
            var autonomyRequest = AutonomyRequest(
                candidate: candidate, repository: repo, requested: requested, policy: autonomyPolicy,
                ruleCWEs: RuleSet.shippedCWEs(of: candidate.signal.ruleId),
                actorSuccessRate: try memory.successShare(of: candidate.actor),
                evidenceSHA256: SHA256.hex(Array(try HealOutput.evidenceJSON(evidence, redactor: redactor))))
            autonomyRequest.opened = opened
            // Only an Actor-level heal commits: as --author, git's variables, or git's identity for the repository.
            if (requested ?? autonomyPolicy.level) == .actor {
                autonomyRequest.author = try GitIdentity.resolve(
                    option: author, environment: ProcessInfo.processInfo.environment, repository: repo)
            }
            autonomy = try controller.act(autonomyRequest)
        }
        if format == .json {
            Console.write(1, try evidence.json(with: autonomy) + "\n")
        } else {
            Console.text(HealSummary.text(evidence, out: out))
            if let autonomy { Console.text(AutonomySummary.text(autonomy)) }
        }
        for warning in autonomy?.warnings ?? [] { Console.error("sentinel: warning: \(warning)") }
        if outcome.candidate == nil { throw ExitCode(1) }
    }
}

extension HealCommand {
    /// `--policy`, else REPO/.sentinel/policy.yml when it exists, else the safe default.
    func loadPolicy() throws -> Policy {
        if let policy { return try AnalysisSandbox.loadOperatorPolicy(policy) }
        return try Policy.load(repository: repo)
    }

    /// The signal: standard input, the file, or (in the analysis) root's descriptor of the file.
    func readSignal() throws -> [Signal] {
        if signal != "-", let data = try AnalysisSandbox.lentBytes(Self.signalResource, name: signal, limit: SignalReader.maxBytes) {
            return try SignalReader.read(data, name: signal, finding: finding)
        }
        return try SignalReader.read(path: signal, finding: finding)
    }

    /// The environment the actors read (the LLM's settings): in the analysis, the key is read
    /// from root's descriptor of the key file.
    func actorEnvironment() throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        let name = "SENTINEL_LLM_KEY_FILE"
        if let key = try AnalysisSandbox.lentBytes(Self.llmKeyResource, name: name, limit: 16_384) {
            environment["SENTINEL_LLM_KEY"] = String(decoding: key, as: UTF8.self)
            environment[name] = nil
        }
        return environment
    }
}
