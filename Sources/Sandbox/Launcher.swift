#if canImport(Glibc)
import Glibc
#endif
import CSandbox
import CSystem
import Foundation
import Support

/// A running egress proxy the launcher stops when the sandbox tree has ended.
public protocol EgressService: AnyObject, Sendable {
    /// Stops serving and returns every decision made.
    func finish() -> [EgressSummary]
}

/// How to run a plan: output handling, limits, and the egress hook.
public struct LaunchOptions: Sendable {
    public enum Output: Sendable {
        /// stdout and stderr are relayed to the caller's as they arrive, through pipes (or the
        /// pty with `terminal`); stdin is /dev/null unless `interactive`. The payload never
        /// holds the caller's file descriptions, so it cannot seek, truncate or re-flag them.
        case inherit
        /// stdin is /dev/null; stdout and stderr are captured up to `outputLimit` bytes each.
        case capture
    }

    public var output: Output
    public var outputLimit: UInt64
    public var timeoutSeconds: Double?
    public var cgroupLimits: CgroupLimits
    public var seccomp: Profile.Seccomp
    /// Port of the proxy listener inside the sandbox; 0 for none.
    public var proxyPort: Int
    /// Serves the listening socket the sandbox hands back (called with its descriptor).
    public var startEgress: (@Sendable (Int32) throws -> any EgressService)?
    public var cgroupRoot: String
    public var onWarning: @Sendable (String) -> Void
    /// Stops the run from another thread.
    public var handle: LaunchHandle?
    /// Appended to the cgroup's name, so a caller (a test) can find exactly its groups.
    public var cgroupLabel: String?
    /// Fail the setup (stage `limits`) rather than approximate memory/pids/cpu with rlimits
    /// when no cgroup can be made (`--require-limits`).
    public var requireLimits = false
    /// Told, at every run that falls back to rlimits, what is approximated and what is not
    /// enforced; the CLI prints it once per command.
    public var onNotice: @Sendable (String) -> Void = { _ in }
    /// `.inherit` only: relay the caller's stdin to the payload (`-i`).
    public var interactive = false
    /// `.inherit` only: the payload's stdin, stdout and stderr are a pty of the sandbox's own
    /// devpts, its controlling terminal (`-t`); the plan must come from a `LaunchRequest`
    /// with `terminal` set. The caller's terminal is raw while `interactive` relays it.
    public var terminal = false

    public init(output: Output = .capture, outputLimit: UInt64 = 16 << 20, timeoutSeconds: Double? = nil,
                cgroupLimits: CgroupLimits = CgroupLimits(), seccomp: Profile.Seccomp = .default, proxyPort: Int = 0,
                startEgress: (@Sendable (Int32) throws -> any EgressService)? = nil,
                cgroupRoot: String = "/sys/fs/cgroup",
                onWarning: @escaping @Sendable (String) -> Void = { _ in }) {
        self.output = output
        self.outputLimit = outputLimit
        self.timeoutSeconds = timeoutSeconds
        self.cgroupLimits = cgroupLimits
        self.seccomp = seccomp
        self.proxyPort = proxyPort
        self.startEgress = startEgress
        self.cgroupRoot = cgroupRoot
        self.onWarning = onWarning
    }

    /// Options that enforce a profile's limits and seccomp setting.
    public init(profile: Profile, output: Output = .capture) {
        self.init(output: output, outputLimit: profile.limits.outputBytes ?? 16 << 20,
                  timeoutSeconds: profile.limits.timeoutSeconds,
                  cgroupLimits: CgroupLimits(memoryBytes: profile.limits.memoryBytes, pids: profile.limits.pids,
                                             cpus: profile.limits.cpus),
                  seccomp: profile.seccomp)
    }
}

/// Runs a `LaunchPlan` through the C launcher and waits for the whole tree to end.
public enum Launcher {
    /// Runs the plan. Throws `SentinelError` when the sandbox cannot be set up or the command
    /// cannot be executed; every other outcome (exit, signal, timeout, OOM) is a `RunResult`.
    public static func run(_ plan: LaunchPlan, options: LaunchOptions) throws -> RunResult {
        let started = DispatchTime.now()
        let workspaceTree = try makeWorkspaceTree(plan.workspace)
        defer { if workspaceTree >= 0 { close(workspaceTree) } }
        let upperLayer = try plan.workspace.flatMap { $0.commitsBack ? try WorkspaceUpperLayer(sizeLimit: $0.sizeLimit) : nil }
        let seccomp = try SeccompProgram.forProfile(options.seccomp)
        let enforcement = try LimitEnforcement.choose(options)
        var rlimits = plan.rlimits
        if case .rlimits(let fallback, let notice) = enforcement {
            rlimits += fallback
            notice.map(options.onNotice)
        }
        rlimits = LimitEnforcement.clamped(rlimits)

        let relay = options.output == .inherit
        let terminal = relay && options.terminal
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        var stdinPipe: [Int32] = [-1, -1]
        defer { (stdoutPipe + stderrPipe + stdinPipe).filter { $0 >= 0 }.forEach { close($0) } }
        if !terminal {
            guard csys_pipe2(&stdoutPipe, O_CLOEXEC) == 0, csys_pipe2(&stderrPipe, O_CLOEXEC) == 0,
                  !(relay && options.interactive) || csys_pipe2(&stdinPipe, O_CLOEXEC) == 0 else {
                throw SentinelError.sandboxSetup(stage: "pipe2", errno: .current)
            }
        }
        let callerTerminal = terminal ? CallerTerminal(fd: 0) ?? CallerTerminal(fd: 1) : nil

        // Everything the child reads lives in the arena until the launch has exec'd.
        let arena = CStringArena()
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
        config.fs_ops = UnsafePointer(arena.buffer(plan.filesystem.map {
            cOp($0, arena, workspace: plan.workspace, tree: workspaceTree, upperTree: upperLayer?.tree ?? -1)
        }))
        config.fs_op_count = plan.filesystem.count
        config.rlimits = UnsafePointer(arena.buffer(rlimits.map {
            sbx_rlimit(resource: $0.resource, soft: rlim_t($0.soft), hard: rlim_t($0.hard))
        }))
        config.rlimit_count = rlimits.count
        config.seccomp = seccomp?.pointer
        config.stdin_fd = stdinPipe[0]
        config.stdout_fd = stdoutPipe[1]
        config.stderr_fd = stderrPipe[1]
        config.proxy_port = Int32(options.proxyPort)
        config.tty = terminal ? 1 : 0
        if let size = callerTerminal?.windowSize {
            config.tty_rows = size.ws_row
            config.tty_cols = size.ws_col
        }
        config.user_limits = UnsafePointer(arena.buffer(plan.userLimits.map { (limit) -> sbx_sysctl in
            let value: String = String(limit.value)
            return sbx_sysctl(path: arena.copy(limit.path), value: arena.copy(value))
        }))
        config.user_limit_count = plan.userLimits.count
        let configPointer = arena.buffer([config])

        var launch = sbx_launch()
        var failure = sbx_failure()
        guard sbx_spawn_begin(configPointer, &launch, &failure) == 0 else {
            throw setupError(failure, plan: plan)
        }
        // The init is building its root now; prepare the cgroups meanwhile.
        var group: (any CgroupGroup)?
        var procsFDs: [Int32] = []
        defer { procsFDs.forEach { close($0) } }
        do {
            if case .cgroup(let hierarchy) = enforcement {
                Cgroups.removeStale(in: hierarchy)
                group = try hierarchy.create(name: Cgroups.nextName(label: options.cgroupLabel), limits: options.cgroupLimits)
            }
            for path in group?.procsFiles ?? [] {
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else {
                    throw SentinelError.sandboxSetup(stage: "cgroup attach", errno: .current, detail: path)
                }
                procsFDs.append(fd)
            }
        } catch {
            sbx_spawn_abort(&launch)
            group?.destroy()
            throw error
        }
        defer { group?.destroy() }

        var process = sbx_process()
        let finished = procsFDs.withUnsafeBufferPointer { procs in
            sbx_spawn_finish(&launch, procs.baseAddress, procs.count, &process, &failure)
        }
        withExtendedLifetime((arena, seccomp)) {}
        upperLayer?.closeTree()
        if finished != 0 {
            throw setupError(failure, plan: plan)
        }
        // The payload's ends live on in the sandbox only.
        for fd in [stdoutPipe[1], stderrPipe[1], stdinPipe[0]] where fd >= 0 { close(fd) }
        stdoutPipe[1] = -1
        stderrPipe[1] = -1
        stdinPipe[0] = -1
        let master = process.tty_fd
        defer { if master >= 0 { close(master) } }

        options.handle?.started(process.pid)
        defer { options.handle?.ended() }

        var egress: (any EgressService)?
        if process.proxy_fd >= 0 {
            if let start = options.startEgress {
                do {
                    egress = try start(process.proxy_fd)
                } catch {
                    kill(process.pid, SIGKILL)
                    _ = reap(process.pid)
                    close(process.status_fd)
                    throw error
                }
            } else {
                close(process.proxy_fd)
            }
        }

        var streams: [ByteStream]
        if !relay {
            streams = [stdoutPipe[0], stderrPipe[0]].map {
                ByteStream(source: $0, sink: .capture(limit: options.outputLimit), isOutput: true, ownsSource: true)
            }
        } else if master >= 0 {
            streams = TerminalRelay.streams(master: master, interactive: options.interactive)
        } else {
            streams = [ByteStream(source: stdoutPipe[0], sink: .descriptor(1), isOutput: true, ownsSource: true),
                       ByteStream(source: stderrPipe[0], sink: .descriptor(2), isOutput: true, ownsSource: true)]
            if stdinPipe[1] >= 0 {
                // Our own pipe end: non-blocking so a payload that never reads cannot stall us.
                _ = fcntl(stdinPipe[1], F_SETFL, fcntl(stdinPipe[1], F_GETFL) | O_NONBLOCK)
                streams.append(ByteStream(source: 0, sink: .descriptor(stdinPipe[1]), isOutput: false,
                                          ownsSource: false, endAction: .closeSink))
            }
        }
        // The waiter owns (and closes) these from here on.
        stdoutPipe[0] = -1
        stderrPipe[0] = -1
        stdinPipe[1] = -1

        let terminalRelay = master >= 0
            ? TerminalRelay(master: master, caller: callerTerminal, raw: options.interactive, handle: options.handle)
            : nil
        defer { terminalRelay?.finish() }
        var waiter = Waiter(pid: process.pid, statusFD: process.status_fd, streams: streams)
        waiter.wait(until: options.timeoutSeconds.map { started.uptimeNanoseconds + UInt64($0 * 1e9) },
                    stopRequested: { options.handle?.requestedSignal != nil })
        close(process.status_fd)
        let usage = reap(process.pid)
        let summaries = egress?.finish() ?? []

        let wall = Int((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000)
        let cpuFromUsage = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
            + (Int(usage.ru_utime.tv_usec) + Int(usage.ru_stime.tv_usec)) / 1000
        let cpu = group?.cpuNanoseconds().map { Int($0 / 1_000_000) } ?? cpuFromUsage
        let peak = group?.peakMemoryBytes() ?? UInt64(max(0, usage.ru_maxrss)) * 1024
        let oom = group?.oomKilled() ?? false

        var result = RunResult(exitCode: 0, reason: .exited, wallMilliseconds: wall, cpuMilliseconds: cpu,
                               peakMemoryBytes: peak, stdout: relay ? Data() : waiter.captured(0).data,
                               stderr: relay ? Data() : waiter.captured(1).data,
                               stdoutTruncated: !relay && waiter.captured(0).truncated,
                               stderrTruncated: !relay && waiter.captured(1).truncated,
                               egress: summaries)
        if let requested = options.handle?.requestedSignal, !waiter.timedOut, waiter.payloadStatus == nil {
            result.reason = .signaled
            result.signal = requested
            result.exitCode = 128 + requested
        } else if waiter.timedOut {
            result.reason = .timeout
            result.exitCode = 124
            result.signal = SIGKILL
        } else if let status = waiter.payloadStatus {
            if status & 0x7f == 0 {
                result.exitCode = (status >> 8) & 0xff
            } else {
                let signal = status & 0x7f
                result.signal = signal
                result.reason = oom && signal == SIGKILL ? .oom : .signaled
                result.exitCode = 128 + signal
            }
        } else {
            // The init itself died without reporting: killed from outside, or by the OOM killer.
            result.reason = oom ? .oom : .signaled
            result.signal = SIGKILL
            result.exitCode = 137
        }
        // After every run whose payload started, however it ended (a run killed at its timeout
        // keeps what it wrote, as a direct bind did); never after a setup failure.
        if let upperLayer, let workspace = plan.workspace {
            do {
                let summary = try upperLayer.commit(to: workspace.directory)
                for path in summary.skipped.prefix(10) {
                    options.onWarning("workspace commit: \(path) is a special file; not created in the workspace")
                }
                if summary.skipped.count > 10 {
                    options.onWarning("workspace commit: \(summary.skipped.count - 10) more special files not created")
                }
            } catch let error as SentinelError where error.code == .workspaceCommitFailed {
                result.workspaceCommitFailure = error
                result.exitCode = error.exitStatus
            }
        }
        return result
    }

    /// As root: the workspace's mount cloned into a detached tree (idmapped when the plan asks)
    /// that the init attaches. Unprivileged: -1, and the init re-opens and checks the directory.
    private static func makeWorkspaceTree(_ workspace: WorkspaceMount?) throws -> Int32 {
        guard let workspace, geteuid() == 0 else { return -1 }
        let shift = workspace.idShift
        var tree: Int32 = -1
        var failure = sbx_failure()
        guard sbx_workspace_tree(workspace.directory.fd, workspace.readOnlyTree ? 1 : 0, shift == nil ? 0 : 1,
                                 shift?.diskUID ?? 0, shift?.shownUID ?? 0, shift?.diskGID ?? 0,
                                 shift?.shownGID ?? 0, &tree, &failure) == 0
        else {
            throw SentinelError.sandboxSetup(stage: String(cString: sbx_stage_name(failure.stage)),
                                              errno: Errno(rawValue: failure.err), detail: workspace.directory.path)
        }
        return tree
    }

    private static func reap(_ pid: pid_t) -> rusage {
        var usage = rusage()
        var status: Int32 = 0
        _ = retryingOnInterrupt { wait4(pid, &status, __WALL, &usage) }
        return usage
    }

    private static func setupError(_ failure: sbx_failure, plan: LaunchPlan) -> SentinelError {
        let stage = String(cString: sbx_stage_name(failure.stage))
        let errno = failure.err != 0 ? Errno(rawValue: failure.err) : nil
        if failure.stage == Int32(SBX_STAGE_EXECVE.rawValue) {
            return .commandFailed(stage: stage, errno: errno, detail: plan.argv.first)
        }
        var detail: String?
        if failure.stage == Int32(SBX_STAGE_USER_LIMITS.rawValue) {
            detail = failure.index >= 0 && Int(failure.index) < plan.userLimits.count
                ? plan.userLimits[Int(failure.index)].path : nil
        } else if failure.index >= 0, Int(failure.index) < plan.filesystem.count {
            detail = plan.filesystem[Int(failure.index)].path
        }
        return .sandboxSetup(stage: stage, errno: errno, detail: detail)
    }

    private static func cOp(_ op: FilesystemOp, _ arena: CStringArena, workspace: WorkspaceMount?,
                            tree: Int32, upperTree: Int32) -> sbx_fs_op {
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
            if tree >= 0 {
                result.kind = Int32(SBX_FS_ATTACH_TREE.rawValue)
                result.fd = tree
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
            result.fd = upperTree
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

extension LaunchOptions.Output: Equatable {}
