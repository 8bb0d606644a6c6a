import Findings
import Foundation
import Sandbox
import Support

/// Turns how an external tool's sandboxed run ended into `SentinelError(.toolFailed, ...)`
/// messages: one line naming the tool and the problem. Pure, so every failure mode is testable
/// with a recorded `RunResult`.
public enum ToolFailure {
    /// Exit statuses after which a tool's stdout is read as its report (Bandit and Semgrep exit
    /// 1 when they find issues).
    public static let reportingExitCodes: Set<Int32> = [0, 1]

    /// Throws when the run did not end by the tool exiting on its own: a timeout, the memory
    /// limit, a signal, a sandbox setup failure, or output cut at the profile's `outputBytes`.
    /// - Parameter timeout: the limit that was asked for, named in the message when it fired.
    public static func checkTermination(_ result: RunResult, tool: ToolName, timeout: Double?) throws {
        switch result.reason {
        case .exited:
            break
        case .timeout:
            let seconds = timeout ?? Double(result.wallMilliseconds) / 1000
            throw SentinelError(.toolFailed, "\(tool) timed out after \(formatSeconds(seconds))s")
        case .oom:
            let peak = result.peakMemoryBytes.map { " (peak \($0 / 1_048_576) MiB)" } ?? ""
            throw SentinelError(.toolFailed, "\(tool) was killed by the sandbox memory limit\(peak)")
        case .signaled:
            let signal = result.signal.map { "signal \($0)" } ?? "a signal"
            throw SentinelError(.toolFailed, "\(tool) was killed by \(signal)\(stderrSuffix(result))")
        case .setupFailed:
            let stage = result.stage ?? "an unknown stage"
            let errno = result.errno.map { ": \(Errno(rawValue: $0))" } ?? ""
            throw SentinelError(.toolFailed, "\(tool) failed: sandbox setup failed at \(stage)\(errno)")
        }
        if result.stdoutTruncated {
            throw SentinelError(
                .toolFailed,
                "\(tool) failed: its output was cut at \(result.stdout.count) bytes (the profile's outputBytes limit)")
        }
    }

    /// The error for a run that exited with `result.exitCode` but left no usable report.
    /// - Parameter detail: what was wrong with the report (e.g. the JSON error), used when
    ///   the tool wrote nothing to stderr.
    public static func failed(_ result: RunResult, tool: ToolName, detail: String?) -> SentinelError {
        if let line = reasonLine(of: result.stderr) {
            return SentinelError(.toolFailed, "\(tool) failed: \(line)")
        }
        var message = "\(tool) failed: exit status \(result.exitCode)"
        if let detail { message += ", \(detail)" }
        return SentinelError(.toolFailed, message)
    }

    /// Wraps an error thrown while starting the run (a failed sandbox stage, an unknown profile).
    public static func launchFailed(_ error: any Error, tool: ToolName) -> SentinelError {
        if let error = error as? SentinelError, error.code == .toolFailed { return error }
        return SentinelError(.toolFailed, "\(tool) failed: \(oneLine(String(describing: error)))")
    }

    /// The line of `data` that says why a tool failed, trimmed and at most 200 characters; `nil`
    /// when there is none: the first non-blank line, except after a Python traceback's header,
    /// where the reason is the last line (`ValueError: ...`), not the header.
    public static func reasonLine(of data: Data) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let first = lines.first else { return nil }
        if first.hasPrefix("Traceback (most recent call last)"), let last = lines.last, last != first {
            return oneLine(last)
        }
        return oneLine(first)
    }

    static func oneLine(_ text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > 200 ? String(flat.prefix(199)) + "…" : flat
    }

    private static func stderrSuffix(_ result: RunResult) -> String {
        reasonLine(of: result.stderr).map { ": \($0)" } ?? ""
    }

    private static func formatSeconds(_ seconds: Double) -> String {
        seconds.rounded() == seconds ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}
