import CSandbox

#if canImport(Glibc)
    import Glibc
#endif

/// Marshals a plan into the C launcher's `sbx_config`. Every string and array the child reads
/// is copied into `arena`, which must outlive the launch (until `sbx_spawn_finish` returns):
/// the child may not allocate, so it reads only memory the parent prepared.
enum LaunchConfig {
    /// The descriptors the parent opened for this run: the payload's stdio pipe ends (-1 for
    /// /dev/null or, with a pty, unused), the workspace's detached tree and the overlay's upper
    /// layer (-1 for none).
    struct Descriptors {
        var stdin: Int32 = -1
        var stdout: Int32 = -1
        var stderr: Int32 = -1
        var workspaceTree: Int32 = -1
        var upperTree: Int32 = -1
        /// The detached trees of the plan's lent directories, in order.
        var lentTrees: [Int32] = []
    }

    /// The settings the init writes: the user namespace's, and the network namespace's when
    /// the clone makes it (not `networkPrepared`); a failure's index counts in this list.
    static func initSysctls(_ plan: LaunchPlan, networkPrepared: Bool) -> [NamespaceSysctl] {
        networkPrepared ? plan.sysctls : plan.sysctls + plan.networkSysctls
    }

    /// The C view of `plan` with `rlimits` (the plan's plus any fallback, clamped), `seccomp`,
    /// the proxy port and pty settings of `options`, and `descriptors`. `networkPrepared`: a
    /// root launcher makes the network namespace ahead (its loopback, settings and proxy
    /// listener), and the caller sets `netns_fd` once it is made; otherwise (`netns_fd` -1) the
    /// clone and the init make and set it up.
    static func make(
        _ plan: LaunchPlan, options: LaunchOptions, rlimits: [LaunchPlan.ResourceLimit],
        seccomp: UnsafePointer<sock_fprog>?, descriptors: Descriptors, terminal: Bool,
        windowSize: winsize?, networkPrepared: Bool, arena: CStringArena
    ) -> sbx_config {
        var config = sbx_config()
        config.argv = UnsafePointer(arena.array(plan.argv))
        config.envp = UnsafePointer(arena.array(plan.environment))
        config.search_path = arena.copy(plan.searchPath)
        config.workdir = arena.copy(plan.workdir)
        config.hostname = arena.copy(plan.hostname)
        config.uid_map = arena.copy(plan.uidMap)
        config.gid_map = arena.copy(plan.gidMap)
        config.deny_setgroups = plan.denySetgroups ? 1 : 0
        config.uid = plan.uid
        config.gid = plan.gid
        config.new_root = arena.copy(plan.newRoot)
        config.new_root_data = arena.copy("mode=0755,size=16m")
        config.read_only_root = 1
        config.fs_ops = UnsafePointer(
            arena.buffer(
                plan.filesystem.map {
                    fsOp($0, arena, workspace: plan.workspace, descriptors: descriptors)
                }))
        config.fs_op_count = plan.filesystem.count
        config.rlimits = UnsafePointer(
            arena.buffer(
                rlimits.map {
                    sbx_rlimit(resource: $0.resource, soft: rlim_t($0.soft), hard: rlim_t($0.hard))
                }))
        config.rlimit_count = rlimits.count
        config.seccomp = seccomp
        config.stdin_fd = descriptors.stdin
        config.stdout_fd = descriptors.stdout
        config.stderr_fd = descriptors.stderr
        config.proxy_port = networkPrepared ? 0 : Int32(options.proxyPort)
        config.tty = terminal ? 1 : 0
        if let windowSize {
            config.tty_rows = windowSize.ws_row
            config.tty_cols = windowSize.ws_col
        }
        let sysctls = initSysctls(plan, networkPrepared: networkPrepared)
        config.sysctls = UnsafePointer(
            arena.buffer(sysctls.map { sbx_sysctl(path: arena.copy($0.path), value: arena.copy($0.value)) }))
        config.sysctl_count = sysctls.count
        config.loopback_mtu = plan.loopbackMTU
        config.netns_fd = -1
        if let areas = LauncherStringAreas.current {
            config.argument_area = areas.arguments.lowerBound
            config.argument_area_length = UInt(areas.arguments.count)
            config.environment_area = areas.environment.lowerBound
            config.environment_area_length = UInt(areas.environment.count)
        }
        return config
    }

    /// One filesystem step in the C form.
    private static func fsOp(
        _ op: FilesystemOp, _ arena: CStringArena, workspace: WorkspaceMount?,
        descriptors: Descriptors
    ) -> sbx_fs_op {
        var result = sbx_fs_op()
        result.fd = -1
        switch op {
        case .chown(let path, let uid, let gid, let mode):
            result.kind = Int32(SBX_FS_CHOWN.rawValue)
            result.path = arena.copy(path)
            result.uid = uid
            result.gid = gid
            result.mode = mode
        case .attachWorkspace(let path):
            result.path = arena.copy(path)
            if descriptors.workspaceTree >= 0 {
                result.kind = Int32(SBX_FS_ATTACH_TREE.rawValue)
                result.fd = descriptors.workspaceTree
            } else {
                // Without a workspace in the plan the C side fails on a NULL source: never reached.
                result.kind = Int32(SBX_FS_BIND_VERIFIED.rawValue)
                result.source = arena.copy(workspace?.directory.path)
                result.dev = workspace?.directory.device ?? 0
                result.ino = workspace?.directory.inode ?? 0
            }
        case .attachUpperLayer(let path):
            // Without the parent's layer (never planned then) the C side fails on fd -1.
            result.kind = Int32(SBX_FS_ATTACH_TREE.rawValue)
            result.path = arena.copy(path)
            result.fd = descriptors.upperTree
        case .attachLent(let path, let index):
            // An index the plan did not lend leaves fd -1, on which the C side fails: never planned.
            result.kind = Int32(SBX_FS_ATTACH_TREE.rawValue)
            result.path = arena.copy(path)
            result.fd = descriptors.lentTrees.indices.contains(index) ? descriptors.lentTrees[index] : -1
        case .mkdir(let path, let mode):
            result.kind = Int32(SBX_FS_MKDIR.rawValue)
            result.path = arena.copy(path)
            result.mode = mode
        case .mkfile(let path, let mode):
            result.kind = Int32(SBX_FS_MKFILE.rawValue)
            result.path = arena.copy(path)
            result.mode = mode
        case .symlink(let target, let path):
            result.kind = Int32(SBX_FS_SYMLINK.rawValue)
            result.path = arena.copy(path)
            result.source = arena.copy(target)
        case .mount(let source, let path, let fstype, let flags, let data, let optional):
            result.kind = Int32(SBX_FS_MOUNT.rawValue)
            result.path = arena.copy(path)
            result.source = arena.copy(source)
            result.fstype = arena.copy(fstype)
            result.flags = flags.rawValue
            result.data = arena.copy(data)
            result.optional = optional ? 1 : 0
        case .remountBind(let path, let flags, let optional):
            result.kind = Int32(SBX_FS_REMOUNT_BIND.rawValue)
            result.path = arena.copy(path)
            result.flags = flags.rawValue
            result.optional = optional ? 1 : 0
        }
        return result
    }
}
