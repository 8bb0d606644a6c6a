import Testing

@testable import Sandbox

#if canImport(Glibc)
    import Glibc
#endif

/// The exit-status rules of DESIGN §3, as one table: the command's own status; 128+N when
/// killed by signal N; 124 on the wall-clock limit; 137 when the memory limit OOM-kills it.
struct RunEndingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var waitStatus: Int32?
        var timedOut = false
        var requestedSignal: Int32?
        var oomKilled = false
        var expected: RunEnding
        var testDescription: String { name }
    }

    /// A wait status for an exit with `code` / a death by `signal` (as `waitpid` encodes them).
    static func exited(_ code: Int32) -> Int32 { code << 8 }
    static func killed(_ signal: Int32, core: Bool = false) -> Int32 { signal | (core ? 0x80 : 0) }

    static let cases: [Case] = [
        Case(name: "exit 0", waitStatus: exited(0), expected: RunEnding(exitCode: 0, reason: .exited)),
        Case(name: "exit 3 is passed on", waitStatus: exited(3), expected: RunEnding(exitCode: 3, reason: .exited)),
        Case(name: "exit 255", waitStatus: exited(255), expected: RunEnding(exitCode: 255, reason: .exited)),
        Case(
            name: "SIGTERM is 128+15", waitStatus: killed(SIGTERM),
            expected: RunEnding(exitCode: 143, reason: .signaled, signal: SIGTERM)),
        Case(
            name: "SIGSEGV with a core dump is 128+11", waitStatus: killed(SIGSEGV, core: true),
            expected: RunEnding(exitCode: 139, reason: .signaled, signal: SIGSEGV)),
        Case(
            name: "SIGKILL without an OOM kill is a signal", waitStatus: killed(SIGKILL),
            expected: RunEnding(exitCode: 137, reason: .signaled, signal: SIGKILL)),
        Case(
            name: "SIGKILL by the memory cgroup is oom", waitStatus: killed(SIGKILL), oomKilled: true,
            expected: RunEnding(exitCode: 137, reason: .oom, signal: SIGKILL)),
        Case(
            name: "another signal with an OOM kill elsewhere in the tree stays a signal",
            waitStatus: killed(SIGABRT), oomKilled: true,
            expected: RunEnding(exitCode: 134, reason: .signaled, signal: SIGABRT)),
        Case(
            name: "a clean exit after an OOM kill of a child is the exit", waitStatus: exited(1), oomKilled: true,
            expected: RunEnding(exitCode: 1, reason: .exited)),
        Case(
            name: "wall-clock limit is 124", waitStatus: nil, timedOut: true,
            expected: RunEnding(exitCode: 124, reason: .timeout, signal: SIGKILL)),
        Case(
            name: "the limit wins over the status the kill produced", waitStatus: killed(SIGKILL), timedOut: true,
            expected: RunEnding(exitCode: 124, reason: .timeout, signal: SIGKILL)),
        Case(
            name: "a stop the caller asked for is 128+N", waitStatus: nil, requestedSignal: SIGINT,
            expected: RunEnding(exitCode: 130, reason: .signaled, signal: SIGINT)),
        Case(
            name: "a payload that ended before the stop keeps its status", waitStatus: exited(0),
            requestedSignal: SIGTERM, expected: RunEnding(exitCode: 0, reason: .exited)),
        Case(
            name: "the limit wins over a stop that came with it", waitStatus: nil, timedOut: true,
            requestedSignal: SIGTERM, expected: RunEnding(exitCode: 124, reason: .timeout, signal: SIGKILL)),
        Case(
            name: "an init that died unreported is 137", waitStatus: nil,
            expected: RunEnding(exitCode: 137, reason: .signaled, signal: SIGKILL)),
        Case(
            name: "an init the OOM killer took is oom", waitStatus: nil, oomKilled: true,
            expected: RunEnding(exitCode: 137, reason: .oom, signal: SIGKILL)),
    ]

    @Test(arguments: cases)
    func ending(_ test: Case) {
        let ending = RunEnding.of(
            waitStatus: test.waitStatus, timedOut: test.timedOut,
            requestedSignal: test.requestedSignal, oomKilled: test.oomKilled)
        #expect(ending == test.expected)
    }
}
