import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// What a run leaves behind on the host: nothing. Checked after the hardest exit (OOM kill).
    @Suite struct Cleanup {
        static let controllers = ["memory", "pids", "cpu", "unified"]

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

        /// The sandbox's mounts live in its own mount namespace: none shows up on the host.
        @Test func noMountOfTheWorkspaceReachesTheHost() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["ps"], flags: ["--rw"])
                #expect(run.output?.kind == .info, "\(run.summary)")
                let mounts = Host.readProcFile("/proc/self/mountinfo") ?? ""
                let leaked = mounts.split(separator: "\n").filter { $0.contains(harness.path) }
                #expect(leaked.isEmpty, "host mounts referencing the workspace: \(leaked)")
            }
        }
    }
}
