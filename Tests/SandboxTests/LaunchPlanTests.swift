import Foundation
import Support
import Testing
@testable import Sandbox

@Suite struct LaunchPlanTests {
    let root = "/tmp/.plan-root"

    private func plan(
        _ profile: Profile = .minimal, workspace: String? = nil, hostUID: UInt32 = 0,
        environment: [String: String] = [:]
    ) throws -> LaunchPlan {
        try LaunchPlan.make(
            LaunchRequest(
                profile: profile, command: ["sh", "-c", "true"], workspace: workspace,
                callerEnvironment: environment),
            newRoot: root, hostUID: hostUID, hostGID: hostUID)
    }

    @Test func bindsHostDirectoriesReadOnlyAndRecreatesSymlinks() throws {
        let ops = try plan().filesystem
        #expect(
            ops.contains(
                .mount(
                    source: "/usr", path: root + "/usr", fstype: nil, flags: [.bind, .recursive], data: nil,
                    optional: true)))
        #expect(
            ops.contains(.remountBind(path: root + "/usr", flags: [.readOnly, .noSuid, .noDev, .recursive], optional: true)))
        // Debian 12 is merged-/usr: /bin is a symlink and must stay one.
        var info = stat()
        if lstat("/bin", &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            #expect(ops.contains(.symlink(target: "usr/bin", path: root + "/bin")))
        }
    }

    @Test func hidesSecretsBehindAnUnreadableEmptyFile() throws {
        let ops = try plan().filesystem
        #expect(ops.contains(.mkfile(path: root + "/.sentinel/empty", mode: 0)))
        #expect(
            ops.contains(
                .mount(
                    source: root + "/.sentinel/empty", path: root + "/etc/shadow", fstype: nil,
                    flags: [.bind], data: nil, optional: true)))
        // The mask is placed after /etc itself is bound, or it would be hidden by the bind.
        let etcIndex = ops.firstIndex {
            $0.path == root + "/etc"
                && {
                    if case .mount = $0 { return true }; return false
                }($0)
        }
        let maskIndex = ops.firstIndex { $0.path == root + "/etc/shadow" }
        #expect(etcIndex != nil && maskIndex != nil && etcIndex! < maskIndex!)
    }

    @Test func procIsFreshWithReadOnlyKernelKnobs() throws {
        let ops = try plan().filesystem
        #expect(
            ops.contains(
                .mount(
                    source: "proc", path: root + "/proc", fstype: "proc",
                    flags: [.noSuid, .noDev, .noExec], data: nil, optional: false)))
        #expect(
            ops.contains(
                .remountBind(
                    path: root + "/proc/sys", flags: [.readOnly, .noSuid, .noDev, .noExec],
                    optional: true)))
        #expect(
            ops.contains(
                .remountBind(
                    path: root + "/proc/sysrq-trigger",
                    flags: [.readOnly, .noSuid, .noDev, .noExec], optional: true)))
    }

    /// Every mask is read-only: none is a writable alias of the empty file the others share.
    @Test func everyMaskIsReadOnly() throws {
        var profile = Profile.minimal
        profile.filesystem.hidden = ["/etc/shadow", "/etc/machine-id"]
        let ops = try plan(profile).filesystem
        let maskedFiles = ops.compactMap { op -> String? in
            if case .mount(let source?, let path, nil, _, _, _) = op, source == root + "/.sentinel/empty" { return path }
            return nil
        }
        #expect(maskedFiles.contains(root + "/proc/kallsyms") && maskedFiles.contains(root + "/etc/shadow"))
        // Each mask binds the empty file's own mount, made read-only before the first mask
        // (a bind copies its source mount's flags; `LauncherTests` reads them back from inside).
        let empty = root + "/.sentinel/empty"
        let readOnly = ops.firstIndex(of: .remountBind(path: empty, flags: [.readOnly, .noSuid, .noDev, .noExec], optional: false))
        let firstMask = ops.firstIndex {
            if case .mount(let source?, let path, nil, _, _, _) = $0 { return source == empty && path != empty }
            return false
        }
        #expect(ops.contains(.mount(source: empty, path: empty, fstype: nil, flags: [.bind], data: nil, optional: false)))
        #expect(readOnly != nil && firstMask != nil && readOnly! < firstMask!, "a mask precedes the empty file's read-only mount")
        for entry in [
            "kcore", "keys", "timer_list", "sched_debug", "slabinfo", "pagetypeinfo", "vmallocinfo",
            "config.gz", "iomem", "ioports", "acpi", "asound", "scsi", "latency_stats", "timer_stats",
        ] {
            #expect(RootBuilder.maskedProcEntries.contains(entry), "/proc/\(entry) is not masked")
        }
    }

    @Test func devHasOnlyTheHarmlessNodesAndEndsReadOnly() throws {
        let ops = try plan().filesystem
        let bound = ops.compactMap { op -> String? in
            if case .mount(let source?, let path, nil, _, _, _) = op, path.hasPrefix(root + "/dev/") { return source }
            return nil
        }
        #expect(bound == ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"])
        #expect(
            ops.last { $0.path == root + "/dev" }
                == .remountBind(path: root + "/dev", flags: [.readOnly, .noSuid, .noExec], optional: false))
    }

    @Test func workspaceModes() throws {
        let workspace = TemporaryDirectory()
        var profile = Profile.minimal
        let ro = try plan(profile, workspace: workspace.path)
        #expect(ro.workdir == "/workspace")
        // ro: a read-only overlay with two lower layers (the tree and an empty directory), no upper.
        #expect(
            ro.filesystem.contains(
                .mount(
                    source: "overlay", path: root + "/workspace", fstype: "overlay",
                    flags: [.readOnly, .noSuid, .noDev],
                    data: "lowerdir=\(root)/.sentinel/overlay/lower:\(root)/.sentinel/overlay/empty", optional: false)))
        #expect(
            ro.filesystem.contains(
                .remountBind(
                    path: root + "/.sentinel/overlay/lower", flags: [.readOnly, .noSuid, .noDev], optional: false)))
        profile.filesystem.workspace = .rw
        let rw = try plan(profile, workspace: workspace.path)
        // As root, rw is an overlay whose upper layer the parent commits back (see workspaceSizeBoundsTheUpperLayer).
        #expect(rw.filesystem.contains(.attachUpperLayer(path: root + "/.sentinel/overlay")))
        profile.filesystem.workspace = .overlay
        let overlay = try plan(profile, workspace: workspace.path)
        let mount = overlay.filesystem.first { $0.path == root + "/workspace" && $0.description.contains("overlay") }
        #expect(mount?.description.contains("lowerdir=\(root)/.sentinel/overlay/lower,upperdir=") == true)
        #expect(overlay.filesystem.contains(.attachWorkspace(path: root + "/.sentinel/overlay/lower")))
        #expect(ro.filesystem.contains(.attachWorkspace(path: root + "/.sentinel/overlay/lower")))
        #expect(!ro.filesystem.contains(.attachWorkspace(path: root + "/workspace")))
        // Never a bind by path: the directory resolved once is what gets mounted.
        #expect(!(ro.filesystem + rw.filesystem + overlay.filesystem).contains { $0.description.contains(workspace.path) })
    }

    /// A root launcher gives the payload its owner's access to a tree someone else owns through
    /// an idmapped mount, not through the owner's ids: read access in every mode (a scanner must
    /// read a root-only checkout), write access only where the mode allows.
    @Test func workspaceOfAnotherOwnerIsIdShifted() throws {
        let workspace = TemporaryDirectory()
        #expect(chown(workspace.path, 1234, 4321) == 0)
        var profile = Profile.minimal
        for mode in [Profile.WorkspaceMode.ro, .rw, .overlay] {
            profile.filesystem.workspace = mode
            let shift = try plan(profile, workspace: workspace.path).workspace?.idShift
            #expect(shift == .init(diskUID: 1234, diskGID: 4321, shownUID: 65534, shownGID: 65534))
        }
        #expect(chown(workspace.path, 65534, 65534) == 0)
        #expect(try plan(profile, workspace: workspace.path).workspace?.idShift == nil)
    }

    /// The payload's leased host id is what the workspace's owner is shown as, and what the maps give.
    @Test func leasedHostIDIsThePayloadsOnTheHost() throws {
        let workspace = TemporaryDirectory()
        #expect(chown(workspace.path, 0, 0) == 0)
        let leased = try LaunchPlan.make(
            LaunchRequest(profile: .minimal, command: ["true"], workspace: workspace.path), newRoot: root,
            hostUID: 0, hostGID: 0, payloadHostID: 0x7000_0042)
        #expect(leased.uidMap == "0 0 1\n65534 1879048258 1\n" && leased.gidMap == "0 0 1\n65534 1879048258 1\n")
        #expect(leased.workspace?.idShift == .init(diskUID: 0, diskGID: 0, shownUID: 0x7000_0042, shownGID: 0x7000_0042))
        // A workspace the leased id owns is not shifted; an unprivileged launcher ignores the lease.
        #expect(chown(workspace.path, 0x7000_0042, 0x7000_0042) == 0)
        let owned = try LaunchPlan.make(
            LaunchRequest(profile: .minimal, command: ["true"], workspace: workspace.path), newRoot: root,
            hostUID: 0, hostGID: 0, payloadHostID: 0x7000_0042)
        #expect(owned.workspace?.idShift == nil)
        let unprivileged = try IdentityMaps.make(
            hostUID: 1000, hostGID: 1000, insideUID: 65534, insideGID: 65534, payloadHostID: 0x7000_0042)
        #expect(unprivileged.uidMap == "65534 1000 1\n" && unprivileged.hostUID == 1000)
        #expect(throws: SentinelError.self) {
            try IdentityMaps.make(hostUID: 0, hostGID: 0, insideUID: 65534, insideGID: 65534, payloadHostID: 0)
        }
    }

    /// `limits.workspaceSize` bounds the overlay's upper tmpfs (bytes and inodes); under a root
    /// launcher an `rw` workspace is an overlay over the read-only tree whose upper layer is the
    /// parent's (committed back after the run); an unprivileged launcher keeps the writable bind.
    @Test func workspaceSizeBoundsTheUpperLayer() throws {
        let workspace = TemporaryDirectory()
        var profile = Profile.minimal
        profile.limits.workspaceSizeBytes = 64 << 20
        profile.filesystem.workspace = .overlay
        let overlay = try plan(profile, workspace: workspace.path)
        #expect(
            overlay.filesystem.contains(
                .mount(
                    source: "tmpfs", path: root + "/.sentinel/overlay", fstype: "tmpfs",
                    flags: [.noSuid, .noDev],
                    data: "mode=0700,size=67108864,nr_inodes=16384", optional: false)))
        #expect(overlay.workspace?.sizeLimit == 64 << 20 && overlay.workspace?.commitsBack == false)

        profile.filesystem.workspace = .rw
        let rw = try plan(profile, workspace: workspace.path)
        #expect(rw.workspace?.commitsBack == true && rw.workspace?.readOnlyTree == true)
        #expect(rw.workspace?.sizeLimit == 64 << 20)
        #expect(rw.filesystem.contains(.attachUpperLayer(path: root + "/.sentinel/overlay")))
        #expect(rw.filesystem.contains(.attachWorkspace(path: root + "/.sentinel/overlay/lower")))
        #expect(
            !rw.filesystem.contains {
                if case .mount(_, root + "/.sentinel/overlay", _, _, _, _) = $0 { return true }; return false
            })
        #expect(rw.filesystem.contains { $0.path == root + "/workspace" && $0.description.contains("overlay") })

        let unprivileged = try plan(profile, workspace: workspace.path, hostUID: getuid() == 0 ? 1000 : getuid())
        #expect(unprivileged.workspace?.commitsBack == false && unprivileged.workspace?.readOnlyTree == false)
        #expect(unprivileged.filesystem.contains(.attachWorkspace(path: root + "/workspace")))

        profile.filesystem.workspace = .ro
        #expect(try plan(profile, workspace: workspace.path).workspace?.sizeLimit == nil)
    }

    @Test(arguments: [(UInt64(1 << 20), UInt64(1024)), (256 << 20, 65536), (64 << 30, 1 << 20)])
    func inodeLimitFollowsTheSize(size: UInt64, inodes: UInt64) {
        #expect(RootBuilder.inodeLimit(forSize: size) == inodes)
    }

    /// Through the id shift the payload acts as the owner (root). Its rw writes reach the host
    /// only through the commit (which drops setuid/setgid bits), so any seccomp setting is
    /// accepted: an id-shifted rw workspace always commits back, never binds writable directly.
    @Test func idShiftedRwWorkspaceAlwaysCommitsBack() throws {
        let workspace = TemporaryDirectory()
        #expect(chown(workspace.path, 0, 0) == 0)
        var profile = Profile.minimal
        profile.filesystem.workspace = .rw
        for setting in [Profile.Seccomp.default, .disabled, .oci(path: "/dev/null")] {
            profile.seccomp = setting
            let rw = try plan(profile, workspace: workspace.path, hostUID: 0)
            #expect(rw.workspace?.idShift != nil && rw.workspace?.commitsBack == true && rw.workspace?.readOnlyTree == true)
        }
        // An unprivileged launcher binds rw directly, but never shifted: the payload is the caller.
        let unprivileged = try plan(profile, workspace: workspace.path, hostUID: 1000)
        #expect(unprivileged.workspace?.idShift == nil && unprivileged.workspace?.commitsBack == false)
    }

    /// Overlay options are built from paths inside the new root, so any host path works.
    @Test func overlayAcceptsPathsOverlayfsCannotQuote() throws {
        var profile = Profile.minimal
        profile.filesystem.workspace = .overlay
        let workspace = TemporaryDirectory("with,comma:colon")
        #expect(try plan(profile, workspace: workspace.path).workspace != nil)
    }

    @Test func symlinkedWorkspaceIsAnInputError() throws {
        let parent = TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: parent.path + "/src", withDestinationPath: "/etc")
        #expect(throws: SentinelError.self) { try plan(workspace: parent.path + "/src") }
        try FileManager.default.createDirectory(atPath: parent.path + "/real/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: parent.path + "/link", withDestinationPath: "real")
        #expect(throws: SentinelError.self) { try plan(workspace: parent.path + "/link/sub") }
        #expect(try plan(workspace: parent.path + "/real/sub").workspace?.directory.path == parent.path + "/real/sub")
    }

    @Test(arguments: ["/", "/etc", "/usr", "/var", "/proc/self/fd/..", "/dev/shm", "/sys/kernel", "/usr/.."])
    func systemDirectoryIsAnInputError(path: String) {
        #expect(throws: SentinelError.self) { try plan(workspace: path) }
    }

    @Test func missingWorkspaceIsAnInputError() {
        #expect(throws: SentinelError.self) { try plan(workspace: "/nonexistent/workspace") }
    }

    @Test(arguments: [
        // launcher uid, payload uid inside → uid map, payload uid on the host, setgroups denied
        (UInt32(0), UInt32(65534), "0 0 1\n65534 65534 1\n", UInt32(65534), false),
        (UInt32(0), UInt32(1000), "0 0 1\n1000 65534 1\n", UInt32(65534), false),
        (UInt32(1000), UInt32(65534), "65534 1000 1\n", UInt32(1000), true),
        (UInt32(1000), UInt32(0), "0 1000 1\n", UInt32(1000), true),
    ])
    func identityMaps(hostUID: UInt32, insideUID: UInt32, uidMap: String, payloadHostUID: UInt32, deny: Bool) throws {
        let maps = try IdentityMaps.make(hostUID: hostUID, hostGID: hostUID, insideUID: insideUID, insideGID: insideUID)
        #expect(maps.uidMap == uidMap)
        #expect(maps.uid == insideUID)
        #expect(maps.hostUID == payloadHostUID)
        #expect(maps.denySetgroups == deny)
    }

    /// Inside id 0 is the init's (host root) under a root launcher: no payload may have it.
    @Test func rootLauncherRefusesPayloadIDZero() {
        #expect(throws: SentinelError.self) {
            try IdentityMaps.make(hostUID: 0, hostGID: 0, insideUID: 0, insideGID: 65534)
        }
    }

    @Test func environmentKeepsOnlyTheAllowList() throws {
        let caller = [
            "TERM": "xterm", "LC_ALL": "C", "AWS_SECRET_ACCESS_KEY": "k", "GITHUB_TOKEN": "t",
            "PATH": "/evil", "HOME": "/root",
        ]
        let environment = try plan(environment: caller).environment
        #expect(environment.contains("TERM=xterm"))
        #expect(environment.contains("LC_ALL=C"))
        #expect(environment.contains("PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"))
        #expect(environment.contains("HOME=/tmp"))
        #expect(!environment.contains { $0.hasPrefix("AWS_") || $0.hasPrefix("GITHUB_") })
    }

    @Test func rlimitsAlwaysDisableCoreDumps() {
        let limits = LaunchPlan.resourceLimits(Profile.Limits(fileSizeBytes: 1024, openFiles: 32))
        #expect(limits.count == 5)
        #expect(limits[0].soft == 0 && limits[0].hard == 0)
        #expect(limits.contains { $0.resource == Int32(__RLIMIT_SIGPENDING.rawValue) && $0.hard == LaunchPlan.pendingSignals })
        #expect(limits.contains { $0.resource == Int32(__RLIMIT_MSGQUEUE.rawValue) && $0.hard == LaunchPlan.messageQueueBytes })
        #expect(limits.contains { $0.soft == 1024 })
        #expect(limits.contains { $0.soft == 32 })
    }

    /// inotify limits come from the profile, cut to half the host's; fanotify and every
    /// namespace kind get 0; a limit this kernel lacks is left out.
    @Test func userNamespaceLimitsFollowTheProfileWithinHalfTheHosts() {
        var limits = Profile.Limits()
        limits.inotifyWatches = 60000
        let host: [String: Int] = [
            "max_inotify_instances": 128, "max_inotify_watches": 100_000, "max_fanotify_groups": 128,
            "max_user_namespaces": 9000, "max_net_namespaces": 9000, "max_cgroup_namespaces": 9000,
        ]
        let made = UserNamespaceLimits.make(limits, present: { host[$0] != nil }) { host[$0] }
        #expect(
            made == [
                NamespaceSysctl(name: "user/max_inotify_instances", value: "16"),
                NamespaceSysctl(name: "user/max_inotify_watches", value: "50000"),
                NamespaceSysctl(name: "user/max_fanotify_groups", value: "0"),
                NamespaceSysctl(name: "user/max_user_namespaces", value: "0"),
                NamespaceSysctl(name: "user/max_net_namespaces", value: "0"),
                NamespaceSysctl(name: "user/max_cgroup_namespaces", value: "0"),
            ])
        #expect(made.first?.path == "/proc/sys/user/max_inotify_instances")
    }

    /// The network settings lower the host's values and never raise them; files the kernel
    /// lacks are left out.
    @Test func networkLimitsNeverRaiseTheHosts() {
        let host = ["net/core/somaxconn": "4096", "net/ipv4/tcp_wmem": "4096\t16384\t4194304"]
        #expect(
            NetworkNamespaceLimits.make { host[$0] } == [
                NamespaceSysctl(name: "net/core/somaxconn", value: "16"),
                NamespaceSysctl(name: "net/ipv4/tcp_wmem", value: "1024 16384 4194304"),
            ])
        let tight = ["net/core/somaxconn": "8", "net/ipv4/tcp_wmem": "512 8192 65536"]
        #expect(
            NetworkNamespaceLimits.make { tight[$0] } == [
                NamespaceSysctl(name: "net/core/somaxconn", value: "8"),
                NamespaceSysctl(name: "net/ipv4/tcp_wmem", value: "512 8192 65536"),
            ])
        #expect(NetworkNamespaceLimits.make { _ in nil }.isEmpty)
        #expect(NetworkNamespaceLimits.make { $0.hasSuffix("tcp_wmem") ? "garbage" : nil }.isEmpty)
    }

    /// Every `max_*` file this kernel has is in the plan, and the network settings apart (the
    /// init opens at most 24, both lists when it makes the network namespace itself).
    @Test func planCarriesEverySettingThisKernelHas() throws {
        let names = try plan().sysctls.map(\.name)
        let present = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/sys/user")) ?? [])
            .filter { $0.hasPrefix("max_") }.map { "user/" + $0 }
        #expect(Set(names) == Set(present), "\(names) vs \(present)")
        let network = try plan().networkSysctls.map(\.name)
        #expect(network == ["net/core/somaxconn", "net/ipv4/tcp_wmem"], "\(network)")
        #expect(names.count + network.count <= 24)
        #expect(try plan().loopbackMTU == 1500)
    }

    @Test func emptyCommandIsRejected() {
        #expect(throws: SentinelError.self) {
            try LaunchPlan.make(LaunchRequest(profile: .minimal, command: []), newRoot: root)
        }
    }
}
