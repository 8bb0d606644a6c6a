import Foundation
import TestSupport
import Testing

@testable import Sandbox

/// `doctor`'s facts come back as values, in a fixed order, and none fails on a host that sandboxes.
struct HostSupportTests {
    @Test func probeNamesEveryCheckInOrder() {
        let checks = HostSupport.probe(environment: ["PATH": "/usr/bin:/bin"])
        #expect(
            checks.map(\.name)
                == ["kernel", "user", "user namespaces", "seccomp", "cgroups", "cgroup attach", "overlayfs"] + HostSupport.tools)
        #expect(checks.allSatisfy { !$0.detail.isEmpty })
    }

    /// The cgroup attach check reads the mount options where sandboxes use v2: one cgroup mount
    /// with `favordynmods` is enough (the lock is global); otherwise it names the cgroup2 mount,
    /// else the first cgroup one. On v1 the init moves itself, which takes no such lock.
    @Test func theCgroupAttachCheckReadsFavordynmods() {
        let hybrid = """
            proc /proc proc rw,nosuid 0 0
            cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0
            cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0
            """
        let slow = HostSupport.cgroupAttach(mounts: hybrid, version: .v2)
        #expect(slow.level == .warn)
        #expect(slow.detail.contains("`mount -o remount,favordynmods /sys/fs/cgroup/unified`"), "\(slow.detail)")
        let v1Only = HostSupport.cgroupAttach(mounts: "cgroup /sys/fs/cgroup/pids cgroup rw,pids 0 0\n", version: .v2)
        #expect(v1Only.detail.contains("favordynmods /sys/fs/cgroup/pids`"), "\(v1Only.detail)")
        let selfMoving = HostSupport.cgroupAttach(mounts: hybrid, version: .v1)
        #expect(selfMoving.level == .ok && selfMoving.detail.contains("the init moves itself"), "\(selfMoving.detail)")
        let fast = HostSupport.cgroupAttach(
            mounts: hybrid.replacingOccurrences(of: "cgroup2 rw,relatime", with: "cgroup2 rw,relatime,favordynmods"),
            version: .v2)
        #expect(fast.level == .ok && fast.detail.contains("favordynmods on /sys/fs/cgroup/unified"), "\(fast.detail)")
        #expect(HostSupport.cgroupAttach(mounts: "proc /proc proc rw 0 0\n", version: nil).level == .ok)
    }

    @Test func toolsAreFoundOnThePathGiven() {
        let checks = HostSupport.probe(environment: ["PATH": "/nonexistent-dir"])
        let tools = checks.suffix(HostSupport.tools.count)
        #expect(tools.allSatisfy { $0.level == .warn && $0.detail == "not found" })
        #expect(HostSupport.which("sh", path: "/nonexistent-dir:/bin") == "/bin/sh")
    }

    @Test(.enabled(if: TestHost.canSandbox, "needs root and user namespaces"))
    func nothingFailsWhereTheSandboxRuns() {
        let checks =
            HostSupport.probe(environment: ProcessInfo.processInfo.environment)
            + [HostSupport.sandboxRuns()]
        #expect(checks.filter { $0.level == .fail }.isEmpty, "\(checks.filter { $0.level == .fail })")
        #expect(checks.last?.level == .ok)
    }
}
