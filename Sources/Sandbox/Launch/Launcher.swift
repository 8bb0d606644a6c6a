import CSandbox
import CSystem
import FoundationEssentials
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a `LaunchPlan` through the C launcher and waits for the whole tree to end.
///
/// The order: prepare everything the child reads (workspace tree, upper layer, seccomp
/// program, limits, pipes, the C config; then the network namespace a root launcher's thread
/// made meanwhile), start the init (phase one), make and open the cgroup while the init builds
/// its root, release it (phase two), serve egress and stdio until
/// the tree ends, then measure, decide the ending (`RunEnding`) and commit an `rw` workspace back.
public enum Launcher {
    /// Runs the plan. Throws `SentinelError` when the sandbox cannot be set up or the command
    /// cannot be executed; every other outcome (exit, signal, timeout, OOM) is a `RunResult`.
    public static func run(_ plan: LaunchPlan, options: LaunchOptions) throws -> RunResult {
        let started = MonotonicClock.nanoseconds()
        let workspaceTree = try makeWorkspaceTree(plan.workspace)
        defer { if workspaceTree >= 0 { close(workspaceTree) } }
        var lentTrees: [Int32] = []
        defer { lentTrees.forEach { close($0) } }
        for lent in plan.lent {
            lentTrees.append(try makeTree(lent.directory, readOnly: !lent.writable, shift: lent.idShift))
        }
        let upperLayer = try plan.workspace.flatMap {
            $0.commitsBack ? try WorkspaceUpperLayer(sizeLimit: $0.sizeLimit) : nil
        }
        LaunchTrace.mark("workspace")
        let seccomp = try SeccompProgram.forProfile(options.seccomp)
        LaunchTrace.mark("seccomp")
        let enforcement = try LimitEnforcement.choose(options)
        var rlimits = plan.rlimits
        if case .rlimits(let fallback, let notice) = enforcement {
            rlimits += fallback
            notice.map(options.onNotice)
        }

        let relay = options.output == .inherit
        let terminal = relay && options.terminal
        let stdio = try StdioPipes(
            needed: !terminal, stdin: relay && options.interactive, input: relay ? nil : options.input)
        let callerTerminal = terminal ? CallerTerminal(fd: 0) ?? CallerTerminal(fd: 1) : nil

        // Everything the child reads lives in the arena until the launch has exec'd.
        let arena = CStringArena()
        let descriptors = LaunchConfig.Descriptors(
            stdin: stdio.payloadStdin, stdout: stdio.payloadStdout, stderr: stdio.payloadStderr,
            workspaceTree: workspaceTree, upperTree: upperLayer?.tree ?? -1, lentTrees: lentTrees)
        let configPointer = arena.buffer([
            LaunchConfig.make(
                plan, options: options, rlimits: LimitEnforcement.clamped(rlimits),
                seccomp: seccomp?.pointer, descriptors: descriptors, terminal: terminal,
                windowSize: callerTerminal?.windowSize, networkPrepared: options.preparedNetwork != nil, arena: arena)
        ])
        LaunchTrace.mark("prepare")
        // The network namespace's thread has had all of the preparation to finish in.
        if let network = options.preparedNetwork {
            configPointer.pointee.netns_fd = try network.descriptors().namespace
        }
        LaunchTrace.mark("network")
        var launch = sbx_launch()
        var failure = sbx_failure()
        guard sbx_spawn_begin(configPointer, &launch, &failure) == 0 else {
            throw setupError(failure, plan: plan, networkPrepared: options.preparedNetwork != nil)
        }
        options.preparedNetwork?.closeNamespace()
        LaunchTrace.mark("clone")
        // The init is building its root now; prepare the cgroup meanwhile.
        let cgroup: AttachedCgroup
        do {
            cgroup = try AttachedCgroup(enforcement, options: options)
        } catch {
            sbx_spawn_abort(&launch)
            throw error
        }
        defer { cgroup.destroy() }
        LaunchTrace.mark("cgroup")
        // The user database's answer, asked on a thread since the id was held (its NSS modules
        // loaded, ~0.7 ms); no payload is released as a host id the database names.
        do {
            try options.hostIDLease?.confirmUnassigned()
        } catch {
            sbx_spawn_abort(&launch)
            throw error
        }
        LaunchTrace.mark("host-id-check")

        var process = sbx_process()
        let finished = cgroup.attachFDs.withUnsafeBufferPointer { files in
            sbx_spawn_finish(
                &launch, files.baseAddress, files.count, cgroup.group?.initMovesItself == true ? 1 : 0, &process, &failure)
        }
        withExtendedLifetime((arena, seccomp)) {}
        cgroup.closeAttachFiles()
        upperLayer?.closeTree()
        if finished != 0 {
            throw setupError(failure, plan: plan, networkPrepared: options.preparedNetwork != nil)
        }
        LaunchTrace.mark("root-and-exec")
        // The payload's ends live on in the sandbox only.
        stdio.closePayloadEnds()
        let master = process.tty_fd
        defer { if master >= 0 { close(master) } }

        options.handle?.started(process.pid)
        defer { options.handle?.ended() }
        let proxyListener = options.preparedNetwork?.takeProxyListener() ?? process.proxy_fd
        let egress = try startEgress(listener: proxyListener, process, options: options)

        let streams = stdio.streams(
            relay: relay, master: master, interactive: options.interactive,
            outputLimit: options.outputLimit)
        let terminalRelay =
            master >= 0
            ? TerminalRelay(master: master, caller: callerTerminal, raw: options.interactive, handle: options.handle)
            : nil
        defer { terminalRelay?.finish() }
        var waiter = Waiter(pid: process.pid, statusFD: process.status_fd, streams: streams)
        waiter.wait(
            until: options.timeoutSeconds.map { started + UInt64($0 * 1e9) },
            stopRequested: { options.handle?.requestedSignal != nil })
        close(process.status_fd)
        LaunchTrace.mark("payload")
        // The payload has ended and its init is leaving: what the cgroup counted is read while the
        // init's namespaces are torn down (~0.3 ms), not after.
        let counted = cgroup.group.map {
            (oomKilled: $0.oomKilled(), cpuNanoseconds: $0.cpuNanoseconds(), peakMemoryBytes: $0.peakMemoryBytes())
        }
        // Forgotten before it is reaped: a stop or a passed-on signal from here on must not reach
        // a process that has taken the init's pid since (the payload has ended; the init is leaving).
        options.handle?.ended()
        let usage = reap(process.pid)
        let summaries = egress?.finish() ?? []

        let wall = Int((MonotonicClock.nanoseconds() - started) / 1_000_000)
        let cpuFromUsage =
            (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
            + (Int(usage.ru_utime.tv_usec) + Int(usage.ru_stime.tv_usec)) / 1000
        let ending = RunEnding.of(
            waitStatus: waiter.payloadStatus, timedOut: waiter.timedOut,
            requestedSignal: options.handle?.requestedSignal,
            oomKilled: counted?.oomKilled ?? false)
        var result = RunResult(
            exitCode: ending.exitCode, signal: ending.signal, reason: ending.reason,
            wallMilliseconds: wall,
            cpuMilliseconds: counted?.cpuNanoseconds.map { Int($0 / 1_000_000) } ?? cpuFromUsage,
            peakMemoryBytes: counted?.peakMemoryBytes ?? UInt64(max(0, usage.ru_maxrss)) * 1024,
            stdout: relay ? Data() : waiter.captured(0).data,
            stderr: relay ? Data() : waiter.captured(1).data,
            stdoutTruncated: !relay && waiter.captured(0).truncated,
            stderrTruncated: !relay && waiter.captured(1).truncated,
            egress: summaries)
        if !waiter.timedOut, options.handle?.requestedSignal == nil {
            result.commandMicroseconds = waiter.payloadRun.map { Int($0 / 1000) }
        }
        // After every run whose payload started, however it ended (a run killed at its timeout
        // keeps what it wrote, as a direct bind did); never after a setup failure.
        if let upperLayer, let workspace = plan.workspace {
            try commitBack(upperLayer, to: workspace, options: options, result: &result)
        }
        return result
    }

    /// As root: the workspace's mount cloned into a detached tree (idmapped when the plan asks)
    /// that the init attaches. Unprivileged: -1, and the init re-opens and checks the directory.
    private static func makeWorkspaceTree(_ workspace: WorkspaceMount?) throws -> Int32 {
        guard let workspace, geteuid() == 0 else { return -1 }
        return try makeTree(workspace.directory, readOnly: workspace.readOnlyTree, shift: workspace.idShift)
    }

    /// As root: `directory`'s mount cloned (without submounts) into a detached `nosuid,nodev`
    /// tree, read-only when asked and idmapped by `shift`.
    private static func makeTree(
        _ directory: WorkspaceDirectory, readOnly: Bool, shift: WorkspaceMount.IDShift?
    ) throws -> Int32 {
        var tree: Int32 = -1
        var failure = sbx_failure()
        guard
            sbx_workspace_tree(
                directory.fd, readOnly ? 1 : 0, shift == nil ? 0 : 1,
                shift?.diskUID ?? 0, shift?.shownUID ?? 0, shift?.diskGID ?? 0,
                shift?.shownGID ?? 0, &tree, &failure) == 0
        else {
            throw SentinelError.sandboxSetup(failure, detail: directory.path)
        }
        return tree
    }

    /// Serves the proxy's listening socket (made ahead with the network namespace, or passed
    /// back by the init), if the profile uses the proxy. On a failure to start the proxy the
    /// tree is killed and reaped before the error propagates.
    private static func startEgress(
        listener: Int32, _ process: sbx_process, options: LaunchOptions
    ) throws -> (any EgressService)? {
        guard listener >= 0 else { return nil }
        guard let start = options.startEgress else {
            close(listener)
            return nil
        }
        do {
            return try start(listener)
        } catch {
            kill(process.pid, SIGKILL)
            _ = reap(process.pid)
            close(process.status_fd)
            throw error
        }
    }

    /// Commits the run's upper layer into the `rw` workspace; a failure becomes the result's
    /// `workspaceCommitFailure` and its exit status, special files skipped become warnings.
    private static func commitBack(
        _ upperLayer: WorkspaceUpperLayer, to workspace: WorkspaceMount,
        options: LaunchOptions, result: inout RunResult
    ) throws {
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

    private static func reap(_ pid: pid_t) -> rusage {
        var usage = rusage()
        var status: Int32 = 0
        _ = retryingOnInterrupt { wait4(pid, &status, __WALL, &usage) }
        return usage
    }

    private static func setupError(_ failure: sbx_failure, plan: LaunchPlan, networkPrepared: Bool) -> SentinelError {
        if failure.stage == Int32(SBX_STAGE_EXECVE.rawValue) {
            return .commandFailed(
                stage: String(cString: sbx_stage_name(failure.stage)),
                errno: failure.err != 0 ? Errno(rawValue: failure.err) : nil, detail: plan.argv.first)
        }
        var detail: String?
        if failure.stage == Int32(SBX_STAGE_SYSCTLS.rawValue) {
            let sysctls = LaunchConfig.initSysctls(plan, networkPrepared: networkPrepared)
            detail = failure.index >= 0 && Int(failure.index) < sysctls.count ? sysctls[Int(failure.index)].path : nil
        } else if failure.index >= 0, Int(failure.index) < plan.filesystem.count {
            detail = plan.filesystem[Int(failure.index)].path
        }
        return .sandboxSetup(failure, detail: detail)
    }
}
