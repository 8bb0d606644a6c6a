#if canImport(Glibc)
    import Glibc
#endif

/// How a run ended, in DESIGN §3's terms: the exit status `sandbox run` passes on, the reason
/// `--status-json` reports, and the signal that ended the payload. One function decides it, so
/// the exit-status rules live in one place (`RunEndingTests` checks them against the table).
public struct RunEnding: Sendable, Equatable {
    /// The status `sentinel sandbox run` exits with.
    public var exitCode: Int32
    /// Why the run ended.
    public var reason: RunResult.Reason
    /// The signal that ended the payload, when one did.
    public var signal: Int32?

    /// An ending; see the properties.
    public init(exitCode: Int32, reason: RunResult.Reason, signal: Int32? = nil) {
        self.exitCode = exitCode
        self.reason = reason
        self.signal = signal
    }

    /// The ending of a run whose payload started.
    /// - Parameters:
    ///   - waitStatus: the payload's wait status as the sandbox init reported it; nil when the
    ///     init died before reporting (killed from outside, or by the OOM killer).
    ///   - timedOut: the launcher killed the tree at the wall-clock limit.
    ///   - requestedSignal: a caller asked the run to stop with this signal (Ctrl-C, SIGTERM).
    ///   - oomKilled: the memory cgroup recorded an OOM kill.
    public static func of(waitStatus: Int32?, timedOut: Bool, requestedSignal: Int32?, oomKilled: Bool) -> RunEnding {
        // A stop the caller asked for wins unless the payload had already ended on its own.
        if let requested = requestedSignal, !timedOut, waitStatus == nil {
            return RunEnding(exitCode: 128 + requested, reason: .signaled, signal: requested)
        }
        if timedOut {
            return RunEnding(exitCode: 124, reason: .timeout, signal: SIGKILL)
        }
        guard let status = waitStatus else {
            return RunEnding(exitCode: 137, reason: oomKilled ? .oom : .signaled, signal: SIGKILL)
        }
        let termination = status & 0x7f
        if termination == 0 {
            return RunEnding(exitCode: (status >> 8) & 0xff, reason: .exited)
        }
        return RunEnding(
            exitCode: 128 + termination, reason: oomKilled && termination == SIGKILL ? .oom : .signaled,
            signal: termination)
    }
}
