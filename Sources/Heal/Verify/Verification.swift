import Foundation
import Sandbox
import Signals

/// One run of the verify command on a tree, as the evidence records it.
public struct Verification: Sendable, Hashable, Codable {
    /// The command as the user gave it.
    public var command: String
    /// Its exit status (the sandbox's: 124 on the wall-clock limit, 137 on OOM).
    public var exitCode: Int32
    /// How the run ended (the sandbox's `exited`, `signaled`, `timeout`, `oom`, `setup-failed`).
    public var reason: RunResult.Reason
    /// Wall time of the command inside the sandbox, ms.
    public var commandMilliseconds: Int
    /// Wall time of the whole sandboxed run, set-up and tear-down included, ms.
    public var totalMilliseconds: Int
    /// CPU time of the command's process tree, ms.
    public var cpuMilliseconds: Int
    /// Peak memory of the tree, when known.
    public var peakMemoryBytes: UInt64?
    /// Per-test outcomes when the command ran pytest, or printed the TAP report the verifier
    /// asked a JavaScript project's runner for (`reportFormat`).
    public var tests: PytestReport?
    /// `tap` when the run had to print a TAP report (``Verifier/readsTAP``): its exit status
    /// alone verifies nothing.
    public var reportFormat: String? = nil
    /// Why that report does not show a complete, passing run (none printed, no plan, no test
    /// ran, a bound hit); nil when it does or when no report was asked for.
    public var reportProblem: String? = nil
    /// The end of what the command printed (stdout then stderr), for people and lessons.
    public var outputTail: String
    /// For a dependency bump: the bumped version's installation and what the tests imported.
    public var dependency: InstalledDependency? = nil
    /// Set on a screen (``TestSelection``): the run was restricted to these tests, the ones that
    /// failed on the unchanged tree. Nil for a run of the whole command.
    public var selectedTests: [String]? = nil
    /// The CPU seconds each test could use in this run (``TestTimeLimit``); nil: unlimited.
    public var testCPUSeconds: Double? = nil

    /// The command exited 0 within its limits, and the report asked for (if any) shows a
    /// complete run with no failing test: a JavaScript run that forces its exit status proves nothing.
    public var succeeded: Bool {
        guard reason == .exited, exitCode == 0 else { return false }
        guard reportFormat != nil else { return true }
        return reportProblem == nil && (tests?.failing.isEmpty ?? false)
    }

    /// Sandbox set-up and tear-down: the run's time not spent in the command.
    public var overheadMilliseconds: Int {
        max(0, totalMilliseconds - commandMilliseconds - (dependency?.installMilliseconds ?? 0))
    }

    /// Tests seen passing (empty when the output was not pytest's).
    public var passedTests: Set<String> { Set(tests?.passed ?? []) }

    /// How many tests ran (passed + failed + errors), from pytest's closing counts.
    public var testCount: Int? {
        guard let counts = tests?.counts, !counts.isEmpty else { return nil }
        return (counts["passed"] ?? 0) + (counts["failed"] ?? 0) + (counts["error"] ?? 0)
    }

    /// One line: `exit 1 (3 passed, 1 failed) in 0.8 s`.
    public var summary: String {
        var text = reason == .exited ? "exit \(exitCode)" : "\(reason.rawValue) (exit \(exitCode))"
        if let counts = tests?.counts, !counts.isEmpty {
            text += " (" + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + ")"
        }
        return text + String(format: " in %.1f s", Double(totalMilliseconds) / 1000)
    }
}
