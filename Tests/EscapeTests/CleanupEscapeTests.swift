import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// What a run leaves behind on the host: nothing. Checked after the hardest exit (OOM kill).
    @Suite struct Cleanup {
        static let controllers = ["memory", "pids", "cpu", "cpuacct", "unified"]

        /// `sentinel-*` cgroups under every v1 controller and the v2 mount.
        static func sentinelCgroups() -> Set<String> {
            var found: Set<String> = []
            for controller in controllers {
                let base = "/sys/fs/cgroup/\(controller)"
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
                for entry in entries where entry.hasPrefix("sentinel") { found.insert("\(base)/\(entry)") }
            }
            return found
        }

        @Test func noCgroupIsLeftAfterAnOOMKill() throws {
            let before = Self.sentinelCgroups()
            try SandboxHarness.with { harness in
                let run = try harness.probe(["memory-bomb", "1024"], flags: ["--memory", "64M"], timeout: 60)
                #expect(run.result.status == 137, "\(run.summary)")
            }
            var leaked = Self.sentinelCgroups().subtracting(before)
            for _ in 0..<300 where !leaked.isEmpty {  // up to 30 s: a poll, done when clean
                usleep(100_000)
                leaked = Self.sentinelCgroups().subtracting(before)
            }
            #expect(leaked.isEmpty, "cgroups left behind: \(leaked.sorted())")
        }

        /// `kill -9` of the launcher: PDEATHSIG ends the sandbox tree at once, and the groups,
        /// which only a live launcher removes, go at the start of the next run (the documented
        /// behaviour). The groups of another launcher that is still running are never touched.
        @Test func groupsOfAKilledLauncherGoAtTheNextRun() throws {
            try SandboxHarness.with { harness in
                let survivor = try Self.startLauncher(harness, ["/bin/sleep", "600"])
                defer { Self.stop(survivor) }
                let victim = try Self.startLauncher(harness, ["/bin/sleep", "600"])
                defer { Self.stop(victim) }
                let survivorGroups = Self.waitForGroups(of: survivor.processIdentifier)
                let victimGroups = Self.waitForGroups(of: victim.processIdentifier)
                try #require(!survivorGroups.isEmpty && !victimGroups.isEmpty, "the launchers made no cgroup")

                kill(victim.processIdentifier, SIGKILL)
                victim.waitUntilExit()
                // The tree dies with its init (PDEATHSIG); wait for the groups to empty.
                var emptied = false
                for _ in 0..<1200 where !emptied {
                    emptied = victimGroups.allSatisfy { Self.tasks(in: $0) == 0 }
                    if !emptied { usleep(50_000) }
                }
                #expect(emptied, "the killed launcher's sandbox outlived it: \(victimGroups)")

                let next = try harness.probe(["ps"])
                #expect(next.output?.kind == .info, "\(next.summary)")
                let left = victimGroups.filter { FileManager.default.fileExists(atPath: $0) }
                #expect(left.isEmpty, "groups of the killed launcher left after the next run: \(left)")
                let missing = survivorGroups.filter { !FileManager.default.fileExists(atPath: $0) }
                #expect(missing.isEmpty, "the next run removed a live launcher's groups: \(missing)")
                #expect(survivor.isRunning, "the live launcher's sandbox was killed")
                #expect(survivorGroups.contains { Self.tasks(in: $0) > 0 }, "the live sandbox lost its tasks")
            }
        }

        /// `kill -9` of the launcher used to leave its root directory
        /// (`/run/sentinel/sentinel-root-*`, which only a live launcher removed) behind until the
        /// next launch swept it. Every run now mounts its root on the one shared mount point, in
        /// its own mount namespace: a killed launcher leaves nothing, and the host sees the mount
        /// point empty even while sandboxes run on it.
        @Test func aKilledLauncherLeavesNoRootDirectory() throws {
            try SandboxHarness.with { harness in
                let survivor = try Self.startLauncher(harness, ["/bin/sleep", "600"])
                defer { Self.stop(survivor) }
                let victim = try Self.startLauncher(harness, ["/bin/sleep", "600"])
                defer { Self.stop(victim) }
                // Running once their groups hold the sandbox: the roots are mounted before that.
                let victimGroups = Self.waitForGroups(of: victim.processIdentifier)
                try #require(!Self.waitForGroups(of: survivor.processIdentifier).isEmpty && !victimGroups.isEmpty)
                for launcher in [survivor, victim] {
                    #expect(Self.rootDirectories(of: launcher.processIdentifier).isEmpty, "a per-run root directory")
                }
                #expect(Self.mountPointEntries() == [], "the host sees the sandboxes' roots")

                kill(victim.processIdentifier, SIGKILL)
                victim.waitUntilExit()
                var emptied = false
                for _ in 0..<1200 where !emptied {
                    emptied = victimGroups.allSatisfy { Self.tasks(in: $0) == 0 }
                    if !emptied { usleep(50_000) }
                }
                let next = try harness.probe(["ps"])
                #expect(next.output?.kind == .info, "\(next.summary)")
                #expect(Self.rootDirectories(of: victim.processIdentifier).isEmpty)
                #expect(Self.mountPointEntries() == [], "the killed sandbox's root is visible on the host")
                #expect(survivor.isRunning, "the live launcher's sandbox was killed")
            }
        }

        /// What the host sees in the shared mount point (nil when it is missing).
        static func mountPointEntries() -> [String]? {
            try? FileManager.default.contentsOfDirectory(atPath: runDirectory + "/root")
        }

        static let runDirectory = "/run/sentinel"

        /// The root directories of launcher `pid` (`sentinel-root-<pid>-*`), or all with nil.
        static func rootDirectories(of pid: pid_t?) -> [String] {
            let prefix = pid.map { "sentinel-root-\($0)-" } ?? "sentinel-root-"
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: runDirectory)) ?? []
            return entries.filter { $0.hasPrefix(prefix) }.sorted().map { runDirectory + "/" + $0 }
        }

        /// `sentinel sandbox run` in the background, its output discarded.
        static func startLauncher(_ harness: SandboxHarness, _ command: [String]) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: PackagePaths.sentinel)
            process.arguments = ["sandbox", "run", "--workspace", harness.path, "--"] + command
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }

        /// SIGTERM (the launcher forwards it and cleans up), then SIGKILL if it lingers.
        static func stop(_ process: Process) {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGTERM)
            for _ in 0..<600 where process.isRunning { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        /// The cgroup directories of launcher `pid` (`sentinel-<pid>-*`), once its sandbox is in them.
        static func waitForGroups(of pid: pid_t) -> [String] {
            for _ in 0..<1200 {
                let groups = sentinelCgroups().filter {
                    ($0 as NSString).lastPathComponent.hasPrefix("sentinel-\(pid)-")
                }.sorted()
                if !groups.isEmpty, groups.contains(where: { tasks(in: $0) > 0 }) { return groups }
                usleep(50_000)
            }
            return []
        }

        static func tasks(in group: String) -> Int {
            let text = (try? String(contentsOfFile: group + "/cgroup.procs", encoding: .utf8)) ?? ""
            return text.split(separator: "\n").count
        }

        /// The sandbox's mounts live in its own mount namespace: none shows up on the host.
        @Test func noMountOfTheWorkspaceReachesTheHost() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["ps"], flags: ["--rw"])
                #expect(run.output?.kind == .info, "\(run.summary)")
                let mounts = TestHost.readProcFile("/proc/self/mountinfo") ?? ""
                let leaked = mounts.split(separator: "\n").filter { $0.contains(harness.path) }
                #expect(leaked.isEmpty, "host mounts referencing the workspace: \(leaked)")
            }
        }
    }
}
