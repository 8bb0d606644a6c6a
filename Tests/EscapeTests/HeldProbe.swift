import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A sandboxed probe run in the background that holds what it took (a quota, a lease, a
/// listener) until the host removes its hold file, so the host and other sandboxes can look
/// meanwhile. The hold file lives in a directory of its own, bound read-only into the sandbox:
/// the probe sees the host's unlink.
final class HeldProbe: Sendable {
    /// The hold file's path, the same inside and outside.
    let holdPath: String
    private let holdDirectory: String
    private let verb: String
    private let outcome = Mutex<Result<SandboxRun, any Error>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `sentinel-probe ARGUMENTS HOLD` under `harness` with `flags`.
    convenience init(
        _ harness: SandboxHarness, _ arguments: [String], flags: [String] = [],
        environment: [String: String]? = nil
    ) throws {
        try self.init(
            harness, holding: arguments[0], command: { [SandboxHarness.probeInside] + arguments + [$0] },
            flags: flags, environment: environment)
    }

    /// Starts `command(HOLD)` under `harness`; it runs the probe's `verb` with HOLD last.
    init(
        _ harness: SandboxHarness, holding verb: String, command: (String) -> [String],
        flags: [String] = [], environment: [String: String]? = nil
    ) throws {
        holdDirectory = harness.scratch.path + "/hold-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: holdDirectory, withIntermediateDirectories: false)
        chmod(holdDirectory, 0o755)
        holdPath = holdDirectory + "/held"
        try "hold\n".write(toFile: holdPath, atomically: false, encoding: .utf8)
        self.verb = verb
        let command = command(holdPath)
        Thread.detachNewThread { [self] in
            let result = Result {
                try harness.command(
                    command, flags: flags + ["--bind-ro", holdDirectory], environment: environment, timeout: 600)
            }
            outcome.withLock { $0 = result }
            finished.signal()
        }
    }

    /// The probe's host pid once it sleeps holding what it took; nil when it ended first or
    /// did not get there by `deadline` (generous: this is not a speed bound).
    func waitUntilHolding(deadline: Date = Date().addingTimeInterval(300)) -> pid_t? {
        while Date() < deadline {
            if let pid = holdingPID() { return pid }
            if outcome.withLock({ $0 != nil }) { return nil }
            usleep(50_000)
        }
        return nil
    }

    /// Lets the probe go and returns its run.
    func release() throws -> SandboxRun {
        unlink(holdPath)
        finished.wait()
        finished.signal()
        try? FileManager.default.removeItem(atPath: holdDirectory)
        return try outcome.withLock { $0 }!.get()
    }

    /// The probe process sleeping on this hold file (it sleeps nowhere else).
    private func holdingPID() -> pid_t? {
        TestHost.processes().first { process in
            guard process.commandLine.hasPrefix(SandboxHarness.probeInside + " " + verb + " "),
                // The command line ends with the NUL after HOLD, turned into a space.
                process.commandLine.hasSuffix(" " + holdPath + " "),
                let text = TestHost.readProcFile("/proc/\(process.pid)/syscall"),
                let number = text.split(separator: " ").first.flatMap({ Int($0) })
            else { return false }
            return number == 35 || number == 230  // x86_64 nanosleep, clock_nanosleep
        }?.pid
    }
}

extension TestHost {
    /// The real uid and gid of host process `pid` (`/proc/PID/status`), as the host sees them.
    static func hostIDs(of pid: pid_t) -> (uid: UInt32, gid: UInt32)? {
        guard let text = readProcFile("/proc/\(pid)/status") else { return nil }
        func first(_ key: String) -> UInt32? {
            text.split(separator: "\n").first { $0.hasPrefix(key + ":") }?
                .split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first.flatMap { UInt32($0) }
        }
        guard let uid = first("Uid"), let gid = first("Gid") else { return nil }
        return (uid, gid)
    }

    /// The parent of host process `pid`.
    static func parent(of pid: pid_t) -> pid_t? {
        readProcFile("/proc/\(pid)/status")?.split(separator: "\n").first { $0.hasPrefix("PPid:") }?
            .split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first.flatMap { pid_t($0) }
    }
}
