#if canImport(Glibc)
import Glibc
#endif
import Foundation
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

@Suite(.serialized, .enabled(if: CLI.canSandbox, "needs root and user namespaces"))
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
