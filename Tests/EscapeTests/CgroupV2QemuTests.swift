import Foundation
import Testing

/// The limit attempts on a real cgroup v2 kernel (this host runs v1, so the rest of the suite
/// sees v2 only through a fake cgroupfs): `bench/cgroup-v2-qemu.sh` boots Debian's kernel under
/// qemu with cgroup2 alone at /sys/fs/cgroup and runs them inside as root — OOM reported,
/// socket buffers charged to memory.max, pids, cpu quota, cleanup, a delegated subtree and a
/// container's cgroup namespace.
///
/// Opt-in with `SENTINEL_QEMU_V2=1`: it needs root, qemu-system-x86_64, debootstrap and a Debian
/// mirror, and minutes — once a debootstrap root (~10 min here) and the release build, then
/// 2-4 min a run under software emulation. The script's own timeout (QEMU_TIMEOUT, 900 s)
/// bounds the guest; the deadline here only covers a first run's setup as well.
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["SENTINEL_QEMU_V2"] == "1",
        "set SENTINEL_QEMU_V2=1 to boot a cgroup v2 kernel under qemu (root, qemu, debootstrap; minutes)"))
struct CgroupV2QemuTests {
    @Test func limitsHoldOnARealCgroupV2Kernel() throws {
        let run = try CommandRunner.run(PackagePaths.root + "/bench/cgroup-v2-qemu.sh", [], timeout: 6 * 3600)
        // Table rows are `check result detail`.
        let failed = run.stdout.split(separator: "\n").filter {
            $0.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).dropFirst().first == "FAIL"
        }
        #expect(failed.isEmpty, "\(failed.joined(separator: "\n"))")
        #expect(run.status == 0 && !run.signaled, "\(run.summary)")
        #expect(run.stdout.contains(" passed, 0 failed"), "\(run.summary)")
    }
}
