import Foundation
import Sandbox
import Signals
import Support

/// Runs the project's own check (`--verify`) on a candidate tree in the sandbox: the tree is
/// the overlay workspace's lower layer, the profile bounds time, memory and processes, and the
/// network is whatever the profile allows (none for `fix-verify`). pytest is asked for every
/// outcome (`-rA`) through `PYTEST_ADDOPTS`, so the regression guard knows which tests pass
/// whatever options the command line gives.
public struct Verifier: Sendable {
    /// The profile each run uses; its workspace mode is forced to `overlay`.
    public var profile: Profile
    /// The command, run by `/bin/sh -c` in the workspace.
    public var command: String
    /// Extra read-only directory holding the coverage tracer plugin and its user base
    /// (``CoverageTracer/installUserSite(in:module:)``; SBFL runs only).
    public var tracerDirectory: String?
    /// The tracer plugin's module name, for `pytest -p`.
    public var tracerModule: String?
    /// Variables set for every run, on top of the profile's.
    public var environment: [String: String]
    /// Where a bump's verification installs the bumped version from; nil: nowhere (not exercised).
    public var packageIndex: PackageIndex?
    /// Whether each run must print a TAP report (``readsTAP(command:files:)``): Node's test
    /// runner is asked for one on stdout through `NODE_OPTIONS`, and a run without a complete,
    /// passing one is not verified whatever its exit status.
    public var readsTAP = false
    /// The CPU seconds one test may use in a pytest run (``TestTimeLimit``, loaded from
    /// ``tracerDirectory``); nil: unlimited. Set only where the plugins' directory is known to be
    /// importable by the command's Python (`-p` of a module it cannot import fails the run).
    public var testCPUSeconds: Double?
    /// Tests with a longer limit of their own (set with ``testCPUSeconds`` only).
    public var longerTests: TestTimeLimit.Longer?

    /// This verifier with each test limited to `seconds` of CPU time (nil: unlimited), and the
    /// tests `longer` names to its seconds; where they are too many to name, every test gets the
    /// longer limit.
    public func limitingTests(to seconds: Double?, longer: TestTimeLimit.Longer? = nil) -> Verifier {
        var limited = self
        limited.testCPUSeconds = seconds
        limited.longerTests = nil
        if let seconds, let longer, longer.seconds > seconds, !longer.tests.isEmpty {
            if longer.environmentValue != nil {
                limited.longerTests = longer
            } else {
                limited.testCPUSeconds = longer.seconds
            }
        }
        return limited
    }

    /// A verifier for `command` under `profile`.
    public init(
        profile: Profile, command: String, tracerDirectory: String? = nil, tracerModule: String? = nil,
        environment: [String: String] = [:], packageIndex: PackageIndex? = nil
    ) {
        var profile = profile
        profile.filesystem.workspace = .overlay
        self.profile = profile
        self.command = command
        self.tracerDirectory = tracerDirectory
        self.tracerModule = tracerModule
        self.environment = environment
        self.packageIndex = packageIndex
    }

    /// What `NODE_OPTIONS` asks of Node's test runner: a TAP report on stdout.
    static let tapOptions = "--test-reporter=tap --test-reporter-destination=stdout"

    /// Whether runs of `command` over a tree holding `files` (the snapshot's, before any
    /// candidate: a candidate cannot opt out) must print a TAP report: a JavaScript project (a
    /// `package.json` at the top) whose command names a JavaScript tool, or names no Python one.
    public static func readsTAP(command: String, files: [String]) -> Bool {
        guard files.contains("package.json") else { return false }
        let words = Set(
            command.split { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }.map { $0.lowercased() })
        let javaScript: Set = ["npm", "npx", "node", "yarn", "pnpm", "bun", "jest", "mocha", "vitest", "ava"]
        let python: Set = ["pytest", "python", "python3", "tox", "nox"]
        return !words.isDisjoint(with: javaScript) || words.isDisjoint(with: python)
    }

    /// The most of the command's output kept in the evidence.
    static let tailBytes = 4096

    /// Runs the command on `tree`; with `trace`, pytest also loads the coverage tracer.
    /// `timeout` (seconds) lowers the profile's wall-clock limit, e.g. to what the budget has left.
    /// With `install`, the command runs in a fresh virtual environment holding that version
    /// (`BumpInstaller`), and the verification records what was installed and imported.
    /// With `only` (pytest node ids), pytest runs just those tests, in that order, and stops at
    /// the first that fails (``TestSelection``, a screen; needs ``tracerDirectory``, where the
    /// plugin sits beside the tracer).
    /// With ``testCPUSeconds``, each test is limited to that much CPU time.
    /// Returns the verification and the whole output (for the tracer's block).
    public func run(
        tree: String, trace: Bool = false, timeout: Double? = nil, install: PackagePin? = nil, only: [String]? = nil
    ) throws -> (Verification, String) {
        var profile = self.profile
        if let timeout {
            profile.limits.timeoutSeconds = min(profile.limits.timeoutSeconds ?? timeout, max(1, timeout))
        }
        var options = "-rA -p no:cacheprovider"
        var environment = self.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        var extra: [String] = []
        let selection = only.flatMap { $0.isEmpty ? nil : $0 }
        let tracing = trace && tracerModule != nil
        let limit = tracerDirectory == nil ? nil : testCPUSeconds
        if let tracerDirectory, tracing || selection != nil || limit != nil {
            if tracing, let tracerModule { options += " -p \(tracerModule)" }
            if let limit {
                // A test that loops fails where it loops; the run goes on to the next test.
                options += " " + TestTimeLimit.pytestOption
                environment[TestTimeLimit.environmentVariable] = TestTimeLimit.environmentValue(limit)
                if let value = longerTests?.environmentValue { environment[TestTimeLimit.longerVariable] = value }
            }
            if let selection {
                // In the order given, stopping at the first failure: one still failing rejects it.
                options += " -x " + TestSelection.pytestOption
                environment[TestSelection.environmentVariable] = TestSelection.environmentValue(selection)
            }
            // The plugins sit in that directory: on PYTHONPATH, and in a user site a command's
            // own PYTHONPATH does not replace.
            environment = CoverageTracer.environment(directory: tracerDirectory, workspace: "/workspace", merging: environment)
            extra.append(tracerDirectory)
        }
        environment["PYTEST_ADDOPTS"] = options + (environment["PYTEST_ADDOPTS"].map { " " + $0 } ?? "")
        if readsTAP {
            // Node's runner (`node --test`, `node:test` run by node) reports in TAP on stdout. A
            // project's `.npmrc` `node-options` replaces this variable; Node still prints TAP when
            // stdout is no terminal, and a run that prints no report is not verified.
            environment["NODE_OPTIONS"] =
                Self.tapOptions + (environment["NODE_OPTIONS"].map { " " + $0 } ?? "")
        }
        // The launcher times the command from its execve to its exit: no timing shell around it
        // (two `date` processes and a shell per run were most of heal's sandbox overhead).
        var wrapper = ["/bin/sh", "-c", command]
        if let install {
            wrapper =
                ["/bin/sh", "-c", BumpInstaller.wrapper, "sentinel-verify", command]
                + BumpInstaller.arguments(install, index: packageIndex)
            if case .directory(let path) = packageIndex { extra.append(path) }
        }
        let request = SandboxRequest(
            profile: profile, command: wrapper, workspace: tree,
            extraReadOnly: extra,
            environment: environment, output: .capture)
        let started = DispatchTime.now()
        let result = try SandboxSession.run(request)
        let total = Int((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000)
        var errors = String(decoding: result.stderr, as: UTF8.self)
        // A bump's wrapper installs first and times the command itself.
        let inside = install == nil ? nil : Self.takeTiming(&errors)
        let installed = install.map { BumpInstaller.record(for: $0, index: packageIndex, stderr: &errors) }
        let output = String(decoding: result.stdout, as: UTF8.self) + errors
        let report = PytestReport(output: output)
        let tap = readsTAP ? TAPReport.read(String(decoding: result.stdout, as: UTF8.self)) : nil
        let commandMilliseconds = inside ?? result.commandMicroseconds.map { $0 / 1000 } ?? result.wallMilliseconds
        var verification = Verification(
            command: command, exitCode: result.exitCode, reason: result.reason,
            commandMilliseconds: commandMilliseconds, totalMilliseconds: max(total, commandMilliseconds),
            cpuMilliseconds: result.cpuMilliseconds, peakMemoryBytes: result.peakMemoryBytes,
            tests: tap.map(\.report) ?? (report.recognized ? report : nil), outputTail: Self.tail(output))
        verification.dependency = installed
        if tracerDirectory != nil { verification.selectedTests = selection }
        verification.testCPUSeconds = limit
        if let tap {
            verification.reportFormat = "tap"
            verification.reportProblem = tap.problem
        }
        return (verification, output)
    }

    /// The marked last line of stderr on which a bump's wrapper (`BumpInstaller`) prints the
    /// nanoseconds the command took, which `takeTiming` removes.
    static let timingMarker = "@@sentinel-verify-ns"

    /// The command's own milliseconds from the marked line, removed from `stderr`; nil when absent
    /// (killed before it printed).
    static func takeTiming(_ stderr: inout String) -> Int? {
        guard let marker = stderr.range(of: "\n" + timingMarker + " ", options: .backwards) else { return nil }
        let digits = stderr[marker.upperBound...].prefix { $0.isNumber }
        stderr.removeSubrange(marker.lowerBound..<stderr.endIndex)
        return Int(digits).map { $0 / 1_000_000 }
    }

    /// The last `tailBytes` of `text`, cut at a line start.
    static func tail(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count > tailBytes else { return text }
        var cut = String(decoding: bytes.suffix(tailBytes), as: UTF8.self)
        if let newline = cut.firstIndex(of: "\n") { cut = String(cut[cut.index(after: newline)...]) }
        return cut
    }
}
