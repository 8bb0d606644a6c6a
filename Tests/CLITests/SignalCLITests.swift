#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// Processes whose command line starts with `prefix` (words joined by spaces), from /proc.
private func processes(startingWith prefix: String) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { pid_t($0) }.filter { pid in
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\0", with: " ").hasPrefix(prefix)
    }
}

private func cgroups(of pid: pid_t) -> [String] {
    ["memory", "pids", "cpu"].flatMap { controller in
        ((try? FileManager.default.contentsOfDirectory(atPath: "/sys/fs/cgroup/\(controller)")) ?? [])
            .filter { $0.hasPrefix("sentinel-\(pid)-") }
    }
}

private func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

@Suite(.serialized, .enabled(if: TestHost.canSandbox, "needs root and user namespaces"))
struct SignalCLITests {
    /// Starts `sentinel sandbox run -- sleep <unique>` and waits until the sleep is running.
    private func startSleeping() throws -> (Process, String) {
        let marker = "\(Int.random(in: 1000...9999)).\(Int.random(in: 100...999))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["sandbox", "run", "--", "sleep", marker]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        #expect(waitUntil(60) { processes(startingWith: "sleep \(marker)").count >= 1 })
        return (process, marker)
    }

    @Test func interruptStopsTheSandboxAndCleansUp() throws {
        let (process, marker) = try startSleeping()
        let pid = process.processIdentifier
        kill(pid, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + SIGINT)
        #expect(waitUntil(30) { processes(startingWith: "sleep \(marker)").isEmpty })
        #expect(cgroups(of: pid).isEmpty)
    }

    /// The launcher blocks the stop signals it forwards; the payload must not inherit that mask,
    /// or Ctrl-C inside an interactive sandbox and a tool's own SIGTERM handling would break.
    @Test func payloadStartsWithNoSignalBlocked() throws {
        let result = try CLI.run(["sandbox", "run", "--", "grep", "^SigBlk", "/proc/self/status"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "SigBlk:\t0000000000000000\n")
    }

    @Test func terminateEndsTheLauncherWith143() throws {
        let (process, marker) = try startSleeping()
        kill(process.processIdentifier, SIGTERM)
        #expect(waitUntil(60) { !process.isRunning })
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + SIGTERM)
        #expect(waitUntil(3) { processes(startingWith: "sleep \(marker)").isEmpty })
    }

    /// Starts `sentinel sandbox run ARGS` with stdout and stderr on pipes this test never
    /// reads, and a first-signal grace longer than any test, so that only the launcher's own
    /// handling (not its watchdog) can end it.
    private func startStuck(_ arguments: [String], grace: String = "1000") throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["sandbox", "run"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_SIGNAL_GRACE"] = grace
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, out, err)
    }

    /// write(2)'s number, as /proc/PID/task/*/syscall shows it.
    #if arch(arm64)
        private static let writeSyscall = "64"
    #else
        private static let writeSyscall = "1"
    #endif

    /// Whether a SIGTERM waits in `pid`'s shared pending set (`ShdPnd` in its status).
    private func sigtermPending(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("ShdPnd:") }),
            let mask = UInt64(line.dropFirst("ShdPnd:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(SIGTERM - 1)) != 0
    }

    /// True when some thread of `pid` sits in write(2) on `fd`.
    private func blockedInWrite(_ pid: pid_t, fd: Int) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.contains { task in
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/syscall", encoding: .utf8)
            else { return false }
            let fields = text.split(separator: " ")
            return fields.count > 1 && fields[0] == Self.writeSyscall && fields[1] == "0x\(String(fd, radix: 16))"
        }
    }

    /// The relay waits for a reader that never comes; one SIGTERM still ends the run with 143
    /// (the relay gives up on a stopped run) and the sandbox is gone.
    @Test func stuckOutputDoesNotKeepAStoppedLauncherAlive() throws {
        let marker = "\(Int.random(in: 1000...9999))"
        let (process, out, err) = try startStuck(["--", "sh", "-c", "exec yes \(marker)"])
        defer { _ = (out, err) }
        #expect(waitUntil(10) { processes(startingWith: "yes \(marker)").count == 1 })
        usleep(300_000)  // the pipe to this test fills in microseconds
        kill(process.processIdentifier, SIGTERM)
        #expect(waitUntil(60) { !process.isRunning })
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGTERM)
        #expect(waitUntil(3) { processes(startingWith: "yes \(marker)").isEmpty })
    }

    /// A launcher blocked in write(2) (its timeout message onto a stderr nobody reads) is
    /// not freed by the first signal while its grace lasts; the second ends it at once.
    @Test func secondSignalEndsABlockedLauncher() throws {
        let (process, out, err) = try startStuck(
            ["--timeout", "1", "--", "sh", "-c", "head -c 200000 /dev/zero >&2; sleep 1000"])
        defer { _ = (out, err) }
        let pid = process.processIdentifier
        #expect(waitUntil(60) { blockedInWrite(pid, fd: 2) })
        kill(pid, SIGTERM)
        // Taken (no longer pending) before the second is sent: two pending at once are one.
        #expect(waitUntil(60) { !sigtermPending(pid) })
        usleep(500_000)
        #expect(process.isRunning, "the first signal must leave a grace, here longer than the test")
        kill(pid, SIGTERM)
        #expect(waitUntil(60) { !process.isRunning })
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + SIGTERM)
    }

    /// With the ordinary grace, one signal ends even a blocked launcher: after the grace it
    /// kills the sandbox tree and exits with 128+N.
    @Test func firstSignalEndsABlockedLauncherAfterTheGrace() throws {
        let (process, out, err) = try startStuck(
            ["--timeout", "1", "--", "sh", "-c", "head -c 200000 /dev/zero >&2; sleep 1000"], grace: "1")
        defer { _ = (out, err) }
        let pid = process.processIdentifier
        #expect(waitUntil(60) { blockedInWrite(pid, fd: 2) })
        kill(pid, SIGHUP)
        #expect(waitUntil(60) { !process.isRunning })
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGHUP)
    }

    @Test func killedLauncherTakesTheSandboxWithItAndALaterRunCleansUp() throws {
        let (process, marker) = try startSleeping()
        let pid = process.processIdentifier
        kill(pid, SIGKILL)
        process.waitUntilExit()
        // PR_SET_PDEATHSIG on the init: the whole pid namespace dies with the launcher.
        #expect(waitUntil(30) { processes(startingWith: "sleep \(marker)").isEmpty })
        // Its cgroups are stale now; the next run removes them.
        _ = try CLI.run(["sandbox", "run", "--", "true"])
        #expect(cgroups(of: pid).isEmpty)
    }
}
