#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing

@testable import Sandbox

/// A root fleet worker passes its stop signals to the payload (`LaunchHandle.deliver`). One sent
/// before the payload was there was dropped, and the launcher waited out its whole grace (the
/// chaos run of db11cefd: a worker SIGTERMed just after it started ran past 120 s). With nothing
/// to drain yet, the run is now stopped as `terminate` stops it.
@Suite("A launch handle's delivered signal")
struct LaunchHandleDeliveryTests {
    @Test("a signal passed on before the run has started stops it as it starts")
    func beforeTheRunStarted() throws {
        let handle = LaunchHandle()
        handle.deliver(signal: SIGTERM)
        #expect(handle.requestedSignal == SIGTERM)
        // The init that starts now is killed at once.
        let launched = try Self.spawn("exec sleep 600")
        handle.started(launched)
        #expect(Self.ended(launched) == "signal 9")
    }

    @Test("a signal passed on while the init has no payload yet stops the run; one with a payload reaches the payload alone")
    func initWithAndWithoutPayload() throws {
        // An init with no child yet: nothing takes the signal, so the run is stopped.
        let bare = try Self.spawn("exec sleep 600")
        let first = LaunchHandle()
        first.started(bare)
        first.deliver(signal: SIGTERM)
        #expect(first.requestedSignal == SIGTERM)
        #expect(Self.ended(bare) == "signal 9")

        // An init whose payload is there: the payload gets it, the run is not stopped by the handle.
        let parent = try Self.spawn("sleep 600 & wait $!; exit $?")
        let second = LaunchHandle()
        second.started(parent)
        let children = "/proc/\(parent)/task/\(parent)/children"
        #expect(eventuallyTrue(seconds: 60) { ((try? String(contentsOfFile: children, encoding: .utf8)) ?? "").contains { $0.isNumber } })
        second.deliver(signal: SIGTERM)
        #expect(second.requestedSignal == nil)
        // The shell reports its child's SIGTERM as 128 + 15.
        #expect(Self.ended(parent) == "exit 143")
    }

    struct SpawnFailed: Error { let code: Int32 }

    /// `/bin/sh -c script`, with no signal blocked and SIGTERM at its default (a test thread may
    /// block signals, and a child would inherit that: SIGTERM would never reach it).
    static func spawn(_ script: String) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ["/bin/sh", "-c", script].map { (text: String) in strdup(text) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ)
        guard code == 0 else { throw SpawnFailed(code: code) }
        return pid
    }

    /// How `pid` ended ("exit N", "signal N"), waiting up to 60 s (a loaded machine's headroom).
    static func ended(_ pid: pid_t) -> String {
        var status: Int32 = 0
        guard eventuallyTrue(seconds: 60, { waitpid(pid, &status, WNOHANG) == pid }) else {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
            return "still running after 60 s"
        }
        let signal = status & 0x7f
        return signal == 0 ? "exit \((status >> 8) & 0xff)" : "signal \(signal)"
    }
}
