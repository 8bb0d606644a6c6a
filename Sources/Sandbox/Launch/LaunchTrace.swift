#if canImport(Glibc)
    import Glibc
#endif
import Support
import Synchronization

/// Where one launch spends its time, phase by phase, for `bench/launch-overhead.sh`: with
/// `SENTINEL_LAUNCH_TRACE=1` in the launcher's environment, each phase's wall and CPU time go
/// to stderr as `sentinel: launch-trace: PHASE wall=MS cpu=MS` when the launch ends. Off (one
/// `getenv` per process) otherwise.
///
/// The CPU clock is the process's own since `execve` (`CLOCK_PROCESS_CPUTIME_ID`), so the first
/// phase, `start`, is what the process cost before `main` (loader, runtime, initialisers); its
/// wall time is unknown in-process and printed as the CPU time.
public enum LaunchTrace {
    /// The variable that turns the trace on.
    public static let environmentVariable = "SENTINEL_LAUNCH_TRACE"

    private struct Mark {
        var phase: StaticString
        var wall: UInt64
        var cpu: UInt64
    }

    private static let enabled: Bool = getenv(environmentVariable).map { String(cString: $0) == "1" } ?? false
    private static let marks = Mutex<[Mark]>([])

    /// Ends the phase called `phase` now (the first call ends `start`, named by it).
    public static func mark(_ phase: StaticString) {
        guard enabled else { return }
        let now = Mark(
            phase: phase, wall: MonotonicClock.nanoseconds(), cpu: MonotonicClock.nanoseconds(of: CLOCK_PROCESS_CPUTIME_ID))
        marks.withLock { $0.append(now) }
    }

    /// Prints the phases recorded so far to stderr and forgets them.
    public static func report() {
        guard enabled else { return }
        let recorded = marks.withLock { marks in
            defer { marks.removeAll() }
            return marks
        }
        guard let first = recorded.first else { return }
        var lines = [line(first.phase, wall: first.cpu, cpu: first.cpu)]
        for (previous, mark) in zip(recorded, recorded.dropFirst()) {
            lines.append(line(mark.phase, wall: mark.wall - previous.wall, cpu: mark.cpu - previous.cpu))
        }
        let last = recorded[recorded.count - 1]
        lines.append(line("total", wall: last.wall - first.wall + first.cpu, cpu: last.cpu))
        Array(lines.joined().utf8).withUnsafeBytes { _ = writeAll(2, $0) }
    }

    private static func line(_ phase: StaticString, wall: UInt64, cpu: UInt64) -> String {
        "sentinel: launch-trace: \(phase) wall=\(milliseconds(wall)) cpu=\(milliseconds(cpu))\n"
    }

    private static func milliseconds(_ nanoseconds: UInt64) -> String {
        let micros = nanoseconds / 1000
        let fraction = String(micros % 1000)
        return "\(micros / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
