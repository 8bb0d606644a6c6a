import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Red team R14: a sandbox started from a cgroup limited to 200 MiB / 40 processes used 500 MiB /
/// 100 processes, because its groups were made at the hierarchy's root. They are made under the
/// launcher's own group now, so the launcher's limits bound every sandbox it starts.
@Suite(
    "cgroups: a sandbox stays within its launcher's cgroup",
    .enabled(if: TestHost.isRoot && TestHost.cgroupV1, "needs root and cgroup v1 controllers"))
struct NestedCgroupEscapeTests {
    @Test("a launcher in a pids group of 12: its sandbox (pids 128 by profile) cannot fork past the launcher's limit")
    func launcherLimitsHoldForItsSandboxes() throws {
        let group = "/sys/fs/cgroup/pids/sentinel-test-r14-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkdir(group, 0o755) == 0)
        defer { rmdir(group) }
        try "12".write(toFile: group + "/pids.max", atomically: false, encoding: .utf8)
        // The payload forks 40 sleepers and counts those the kernel let it make.
        let payload = """
            import os, time
            made = 0
            for _ in range(40):
                try:
                    if os.fork() == 0:
                        time.sleep(2)
                        os._exit(0)
                    made += 1
                except OSError:
                    pass
            print("made", made)
            """
        // The shell moves itself into the group, then becomes the launcher.
        let script = "echo $$ > \(group)/cgroup.procs && exec \"$0\" sandbox run --profile minimal -- /usr/bin/python3 -c \"$1\""
        let result = try CommandRunner.run(
            "/bin/sh", ["-c", script, PackagePaths.sentinel, payload],
            environment: ["PATH": "/usr/bin:/bin"], timeout: 300)
        let made = result.stdout.split(separator: "\n").first { $0.hasPrefix("made ") }.flatMap { Int($0.dropFirst(5)) }
        #expect(made != nil, "\(result.summary)")
        // The launcher, the init and the payload count too: fewer than 12 sleepers fit.
        #expect((made ?? 40) < 12, "the sandbox forked \(made ?? -1) processes past its launcher's limit of 12")
    }
}
