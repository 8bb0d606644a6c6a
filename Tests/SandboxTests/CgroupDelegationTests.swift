import Foundation
import Support
import Synchronization
import TestSupport
import Testing

@testable import Sandbox

#if canImport(Glibc)
    import Glibc
#endif

/// An unprivileged launcher's cgroup v2 delegation, against a fake cgroupfs (this host has no
/// v2 controllers), and the rlimit fallback when there is none.
@Suite struct CgroupDelegationTests {
    /// A fake v2 mount whose directory `ownPath` offers `controllers` (nil: no such cgroup).
    private func fakeMount(ownPath: String, controllers: String?) -> TemporaryDirectory {
        let mount = TemporaryDirectory("fake-cgroup2-mount")
        mount.write("cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n")
        guard let controllers else { return mount }
        let base = mount.path + (ownPath == "/" ? "" : ownPath)
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let directory = TemporaryDirectory.at(base)
        directory.write("cgroup.controllers", controllers)
        directory.write("cgroup.subtree_control", "")
        directory.write("cgroup.procs", "")
        return mount
    }

    private let userService = "/user.slice/user-1000.slice/user@1000.service"

    @Test func ownPathIsTheUnifiedLine() {
        let hybrid = "9:name=systemd:/\n4:memory:/x\n0::/user.slice/user-1000.slice/session-3.scope\n"
        #expect(CgroupDelegation.ownPath(fromProcCgroup: hybrid) == "/user.slice/user-1000.slice/session-3.scope")
        #expect(CgroupDelegation.ownPath(fromProcCgroup: "0::/\n") == "/")
        #expect(CgroupDelegation.ownPath(fromProcCgroup: "4:memory:/x\n1:cpu:/\n") == nil)
        #expect(CgroupDelegation.ownPath(fromProcCgroup: "0::/gone (deleted)\n") == nil)
    }

    @Test func mountPointIsTheCgroup2Mount() {
        let mountinfo = """
            25 30 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
            31 25 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755
            32 31 0:27 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw,nsdelegate
            33 31 0:28 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:11 - cgroup cgroup rw,memory
            """
        #expect(CgroupDelegation.mountPoint(fromMountInfo: mountinfo) == "/sys/fs/cgroup/unified")
        #expect(CgroupDelegation.mountPoint(fromMountInfo: "33 31 0:28 / /x rw - cgroup cgroup rw,memory") == nil)
    }

    @Test func aDelegatedSubtreeHoldsTheSandboxGroups() throws {
        let mount = fakeMount(ownPath: userService, controllers: "cpu memory pids\n")
        let base = mount.path + userService
        let hierarchy = try CgroupDelegation.hierarchy(
            mountPoint: mount.path, ownPath: userService,
            needed: ["memory", "pids", "cpu"])
        #expect(hierarchy.root == base)
        let subtree = try String(contentsOfFile: base + "/cgroup.subtree_control", encoding: .utf8)
        #expect(subtree == "+memory +pids +cpu")

        let group = try hierarchy.create(name: "sentinel-7-1", limits: CgroupLimits(memoryBytes: 64 << 20, pids: 32, cpus: 0.5))
        let read = { (file: String) in
            (try? String(contentsOfFile: "\(base)/sentinel-7-1/\(file)", encoding: .utf8)) ?? "<missing>"
        }
        #expect(read("memory.max") == "67108864")
        #expect(read("pids.max") == "32")
        #expect(read("cpu.max") == "50000 100000")
        #expect(group.attachFiles == ["\(base)/sentinel-7-1/cgroup.procs"])
        // Nothing is written at the mount's root: that is not the user's.
        #expect(!FileManager.default.fileExists(atPath: mount.path + "/cgroup.subtree_control"))
    }

    @Test func controllersAlreadyDelegatedAreLeftAlone() throws {
        let mount = fakeMount(ownPath: userService, controllers: "memory pids\n")
        let base = mount.path + userService
        TemporaryDirectory.at(base).write("cgroup.subtree_control", "memory pids\n")
        _ = try CgroupDelegation.hierarchy(mountPoint: mount.path, ownPath: userService, needed: ["memory", "pids"])
        #expect(try String(contentsOfFile: base + "/cgroup.subtree_control", encoding: .utf8) == "memory pids\n")
    }

    @Test func aMissingControllerIsNamed() {
        let mount = fakeMount(ownPath: userService, controllers: "memory\n")
        #expect(throws: CgroupDelegation.Unavailable(reason: "\(mount.path + userService) does not offer the pids controller")) {
            try CgroupDelegation.hierarchy(mountPoint: mount.path, ownPath: userService, needed: ["memory", "pids"])
        }
    }

    @Test func noCgroupDirectoryIsNamed() {
        let mount = fakeMount(ownPath: userService, controllers: nil)
        #expect(throws: CgroupDelegation.Unavailable(reason: "no cgroup v2 directory at \(mount.path + userService)")) {
            try CgroupDelegation.hierarchy(mountPoint: mount.path, ownPath: userService, needed: ["memory"])
        }
    }

    @Test func controllersFollowTheLimits() {
        #expect(CgroupDelegation.controllers(for: CgroupLimits()) == ["memory"])
        #expect(CgroupDelegation.controllers(for: CgroupLimits(memoryBytes: 1, pids: 2, cpus: 1)) == ["memory", "pids", "cpu"])
    }
}

/// The choice between a cgroup and the rlimit fallback, as an unprivileged launcher would make it.
@Suite struct LimitEnforcementTests {
    private let limits = CgroupLimits(memoryBytes: 256 << 20, pids: 64, cpus: 1)

    /// This process's own cgroup path, under which a fake mount must offer the delegation.
    private var ownPath: String {
        let text = (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""
        return CgroupDelegation.ownPath(fromProcCgroup: text) ?? "/"
    }

    @Test func withoutDelegationTheLimitsBecomeRlimitsWithANotice() throws {
        var options = LaunchOptions(cgroupLimits: limits)
        options.cgroupRoot = TemporaryDirectory("no-cgroup2").path
        guard case .rlimits(let rlimits, let notice) = try LimitEnforcement.choose(options, euid: 65534) else {
            Issue.record("expected the rlimit fallback")
            return
        }
        #expect(
            rlimits == [
                .init(resource: Int32(RLIMIT_DATA.rawValue), soft: 256 << 20, hard: 256 << 20),
                .init(resource: Int32(__RLIMIT_NPROC.rawValue), soft: 64, hard: 64),
            ])
        #expect(notice == "cgroups unavailable without root: memory and pids limited by rlimits, cpu not limited")
    }

    @Test func aDelegatedFakeSubtreeIsUsed() throws {
        let mount = TemporaryDirectory("fake-cgroup2-own")
        let base = mount.path + (ownPath == "/" ? "" : ownPath)
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        for (file, text) in [("cgroup.controllers", "cpu memory pids\n"), ("cgroup.subtree_control", ""), ("cgroup.procs", "")] {
            try text.write(toFile: base + "/" + file, atomically: false, encoding: .utf8)
        }
        var options = LaunchOptions(cgroupLimits: limits)
        options.cgroupRoot = mount.path
        guard case .cgroup(let hierarchy) = try LimitEnforcement.choose(options, euid: 65534) else {
            Issue.record("expected the delegated cgroup")
            return
        }
        #expect((hierarchy as? CgroupV2)?.root == base)
    }

    @Test func requireLimitsRefusesTheFallback() {
        var options = LaunchOptions(cgroupLimits: limits)
        options.cgroupRoot = TemporaryDirectory("no-cgroup2").path
        options.requireLimits = true
        #expect(
            throws: SentinelError.sandboxSetup(
                stage: "limits", errno: nil,
                detail: "cgroups unavailable without root: memory, pids and cpu limits cannot be enforced, and --require-limits is set")
        ) {
            try LimitEnforcement.choose(options, euid: 65534)
        }
    }

    @Test func noLimitsNoNotice() throws {
        var options = LaunchOptions()
        options.cgroupRoot = TemporaryDirectory("no-cgroup2").path
        options.requireLimits = true
        guard case .rlimits(let rlimits, let notice) = try LimitEnforcement.choose(options, euid: 65534) else {
            Issue.record("expected no cgroup")
            return
        }
        #expect(rlimits.isEmpty)
        #expect(notice == nil)
    }

    @Test(arguments: [
        (CgroupLimits(memoryBytes: 1), "x: memory limited by rlimits"),
        (CgroupLimits(pids: 1, cpus: 2), "x: pids limited by rlimits, cpu not limited"),
        (CgroupLimits(cpus: 2), "x: cpu not limited"),
    ])
    func noticeNamesWhatIsAndIsNotEnforced(limits: CgroupLimits, expected: String) {
        #expect(LimitEnforcement.notice(for: limits, prefix: "x") == expected)
    }

    @Test func limitsAboveTheCallersHardLimitAreLowered() {
        var current = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &current)
        let asked = LaunchPlan.ResourceLimit(resource: Int32(RLIMIT_NOFILE.rawValue), soft: .max, hard: .max)
        let below = LaunchPlan.ResourceLimit(resource: Int32(RLIMIT_NOFILE.rawValue), soft: 8, hard: 16)
        #expect(
            LimitEnforcement.clamped([asked, below])
                == [.init(resource: asked.resource, soft: UInt64(current.rlim_max), hard: UInt64(current.rlim_max)), below])
    }
}

/// A root launcher on a host without cgroups takes the same fallback.
@Suite(.enabled(if: TestHost.canSandbox, "needs root and user namespaces"))
struct RlimitFallbackLauncherTests {
    @Test func thePayloadRunsUnderTheRlimitsAndTheNoticeIsGiven() throws {
        var profile = Profile.minimal
        profile.limits.memoryBytes = 96 << 20
        profile.limits.pids = 40
        profile.limits.cpus = nil
        var options = LaunchOptions(profile: profile)
        options.cgroupRoot = "/nonexistent"
        let notices = NoticeLog()
        options.onNotice = { notices.add($0) }
        let result = try NewRootDirectory.with { root in
            let request = LaunchRequest(profile: profile, command: ["grep", "-E", "^Max (data size|processes) ", "/proc/self/limits"])
            return try Launcher.run(try LaunchPlan.make(request, newRoot: root), options: options)
        }
        #expect(result.exitCode == 0)
        let rows = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.first { $0.starts(with: ["Max", "processes"]) }?.dropFirst(2).prefix(2) == ["40", "40"])
        #expect(
            rows.first { $0.starts(with: ["Max", "data", "size"]) }?.dropFirst(3).prefix(2)
                == ["\(96 << 20)", "\(96 << 20)"])
        #expect(notices.all == ["cgroups unavailable: memory and pids limited by rlimits"])
    }
}

final class NoticeLog: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
