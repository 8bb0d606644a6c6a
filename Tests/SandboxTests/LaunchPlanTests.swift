import Foundation
import Support
import Testing
@testable import Sandbox

@Suite struct LaunchPlanTests {
    let root = "/tmp/.plan-root"

    private func plan(_ profile: Profile = .minimal, workspace: String? = nil, hostUID: UInt32 = 0,
                      environment: [String: String] = [:]) throws -> LaunchPlan {
        try LaunchPlan.make(LaunchRequest(profile: profile, command: ["sh", "-c", "true"], workspace: workspace,
                                          callerEnvironment: environment),
                            newRoot: root, hostUID: hostUID, hostGID: hostUID)
    }

    @Test func bindsHostDirectoriesReadOnlyAndRecreatesSymlinks() throws {
        let ops = try plan().filesystem
        #expect(ops.contains(.mount(source: "/usr", path: root + "/usr", fstype: nil, flags: [.bind], data: nil,
                                    optional: true)))
        #expect(ops.contains(.remountBind(path: root + "/usr", flags: [.readOnly, .noSuid, .noDev], optional: true)))
        // Debian 12 is merged-/usr: /bin is a symlink and must stay one.
        var info = stat()
        if lstat("/bin", &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            #expect(ops.contains(.symlink(target: "usr/bin", path: root + "/bin")))
        }
    }

    @Test func hidesSecretsBehindAnUnreadableEmptyFile() throws {
        let ops = try plan().filesystem
        #expect(ops.contains(.mkfile(path: root + "/.sentinel/empty", mode: 0)))
        #expect(ops.contains(.mount(source: root + "/.sentinel/empty", path: root + "/etc/shadow", fstype: nil,
                                    flags: [.bind], data: nil, optional: true)))
        // The mask is placed after /etc itself is bound, or it would be hidden by the bind.
        let etcIndex = ops.firstIndex { $0.path == root + "/etc" && { if case .mount = $0 { return true }; return false }($0) }
        let maskIndex = ops.firstIndex { $0.path == root + "/etc/shadow" }
        #expect(etcIndex != nil && maskIndex != nil && etcIndex! < maskIndex!)
    }

    @Test func procIsFreshWithReadOnlyKernelKnobs() throws {
        let ops = try plan().filesystem
        #expect(ops.contains(.mount(source: "proc", path: root + "/proc", fstype: "proc",
                                    flags: [.noSuid, .noDev, .noExec], data: nil, optional: false)))
        #expect(ops.contains(.remountBind(path: root + "/proc/sys", flags: [.readOnly, .noSuid, .noDev, .noExec],
                                          optional: true)))
        #expect(ops.contains(.remountBind(path: root + "/proc/sysrq-trigger",
                                          flags: [.readOnly, .noSuid, .noDev, .noExec], optional: true)))
    }

    @Test func devHasOnlyTheHarmlessNodesAndEndsReadOnly() throws {
        let ops = try plan().filesystem
        let bound = ops.compactMap { op -> String? in
            if case .mount(let source?, let path, nil, _, _, _) = op, path.hasPrefix(root + "/dev/") { return source }
            return nil
        }
        #expect(bound == ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"])
        #expect(ops.last { $0.path == root + "/dev" } == .remountBind(path: root + "/dev", flags: [.readOnly, .noSuid, .noExec], optional: false))
    }

    @Test func workspaceModes() throws {
        let workspace = TemporaryDirectory()
        var profile = Profile.minimal
        let ro = try plan(profile, workspace: workspace.path)
        #expect(ro.workdir == "/workspace")
        #expect(ro.filesystem.contains(.remountBind(path: root + "/workspace", flags: [.readOnly, .noSuid, .noDev],
                                                    optional: false)))
        profile.filesystem.workspace = .rw
        let rw = try plan(profile, workspace: workspace.path)
        #expect(rw.filesystem.contains(.remountBind(path: root + "/workspace", flags: [.noSuid, .noDev], optional: false)))
        profile.filesystem.workspace = .overlay
        let overlay = try plan(profile, workspace: workspace.path)
        let mount = overlay.filesystem.first { $0.path == root + "/workspace" && $0.description.contains("overlay") }
        #expect(mount?.description.contains("lowerdir=\(workspace.path),upperdir=") == true)
    }

    @Test func overlayRefusesPathsItCannotQuote() {
        var profile = Profile.minimal
        profile.filesystem.workspace = .overlay
        let workspace = TemporaryDirectory("with,comma")
        #expect(throws: SentinelError.self) { try plan(profile, workspace: workspace.path) }
    }

    @Test func missingWorkspaceIsAnInputError() {
        #expect(throws: SentinelError.self) { try plan(workspace: "/nonexistent/workspace") }
    }

    @Test(arguments: [
        // host uid, owner uid → uid map, payload uid
        (UInt32(0), UInt32(65534), "0 0 1\n65534 65534 1\n", UInt32(65534), false),
        (UInt32(0), UInt32(1000), "0 0 1\n65534 1000 1\n", UInt32(65534), false),
        (UInt32(0), UInt32(0), "0 0 1\n", UInt32(0), false),
        (UInt32(1000), UInt32(1000), "65534 1000 1\n", UInt32(65534), true),
    ])
    func identityMaps(hostUID: UInt32, ownerUID: UInt32, uidMap: String, payloadUID: UInt32, deny: Bool) {
        let maps = IdentityMaps.make(hostUID: hostUID, hostGID: hostUID, insideUID: 65534, insideGID: 65534,
                                     ownerUID: ownerUID, ownerGID: ownerUID)
        #expect(maps.uidMap == uidMap)
        #expect(maps.uid == payloadUID)
        #expect(maps.denySetgroups == deny)
    }

    @Test func environmentKeepsOnlyTheAllowList() throws {
        let caller = ["TERM": "xterm", "LC_ALL": "C", "AWS_SECRET_ACCESS_KEY": "k", "GITHUB_TOKEN": "t",
                      "PATH": "/evil", "HOME": "/root"]
        let environment = try plan(environment: caller).environment
        #expect(environment.contains("TERM=xterm"))
        #expect(environment.contains("LC_ALL=C"))
        #expect(environment.contains("PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"))
        #expect(environment.contains("HOME=/tmp"))
        #expect(!environment.contains { $0.hasPrefix("AWS_") || $0.hasPrefix("GITHUB_") })
    }

    @Test func rlimitsAlwaysDisableCoreDumps() {
        let limits = LaunchPlan.resourceLimits(Profile.Limits(fileSizeBytes: 1024, openFiles: 32))
        #expect(limits.count == 3)
        #expect(limits[0].soft == 0 && limits[0].hard == 0)
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
        let made = UserNamespaceLimits.make(limits) { host[$0] }
        #expect(made == [
            UserNamespaceLimit(name: "max_inotify_instances", value: 16),
            UserNamespaceLimit(name: "max_inotify_watches", value: 50000),
            UserNamespaceLimit(name: "max_fanotify_groups", value: 0),
            UserNamespaceLimit(name: "max_user_namespaces", value: 0),
            UserNamespaceLimit(name: "max_net_namespaces", value: 0),
            UserNamespaceLimit(name: "max_cgroup_namespaces", value: 0),
        ])
        #expect(made.first?.path == "/proc/sys/user/max_inotify_instances")
    }

    /// Every `max_*` file this kernel has is in the plan (the init opens at most 16).
    @Test func planCarriesEveryUserLimitThisKernelHas() throws {
        let names = try plan().userLimits.map(\.name)
        let present = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/sys/user")) ?? [])
            .filter { $0.hasPrefix("max_") }
        #expect(Set(names) == Set(present), "\(names) vs \(present)")
        #expect(names.count <= 16)
    }

    @Test func emptyCommandIsRejected() {
        #expect(throws: SentinelError.self) {
            try LaunchPlan.make(LaunchRequest(profile: .minimal, command: []), newRoot: root)
        }
    }
}
