#if canImport(Glibc)
    import Glibc
#endif
import Egress
import FoundationEssentials
import Sandbox
import Support

/// Runs `sentinel sandbox run`'s options in a fresh sandbox, for both executables.
public enum SandboxRunner {
    /// Runs `options` (already checked by `usageError()`), reading profiles with `syntax`, and
    /// returns the status to exit with: the command's own, or what `RunResult` maps its ending
    /// to. Throws `SentinelError` when the sandbox cannot be set up, after writing the status
    /// object that says which stage failed, and `ProfileSyntax.Unsupported`, before anything
    /// else is done, when `syntax` cannot read the profile.
    public static func run(_ options: SandboxRunOptions, syntax: ProfileSyntax) throws -> Int32 {
        LaunchTrace.mark("arguments")
        var selected = try ProfileStore.standard(syntax: syntax).resolve(options.profile)
        LaunchTrace.mark("profile")
        if let mode = options.mode { selected.filesystem.workspace = mode }
        if let memory = options.memoryBytes { selected.limits.memoryBytes = memory }
        if let size = options.workspaceSizeBytes { selected.limits.workspaceSizeBytes = size }
        if let pids = options.pids { selected.limits.pids = pids }
        if let cpus = options.cpus { selected.limits.cpus = cpus }
        if let timeout = options.timeoutSeconds { selected.limits.timeoutSeconds = timeout }
        if !options.allow.isEmpty {
            selected.network.mode = .proxy
            selected.network.allow += options.allow
        }

        let workspacePath = options.workspace.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        // Resolved before the payload runs; refused where the payload could plant a link.
        let workspaceTree = workspacePath.flatMap(OutputPlacement.realPath)
        let status = try options.statusJSON.map {
            try PreparedOutputFile(path: $0, refusingLinksInside: workspaceTree.map { [$0] } ?? [])
        }
        if let status, let workspacePath, selected.filesystem.workspace == .rw, status.isInside(workspacePath) {
            throw SentinelError(
                .invalidInput, "--status-json \(status.path): inside the writable workspace \(workspacePath); the payload could replace it")
        }
        // Ctrl-C, SIGTERM and SIGHUP stop the sandbox and still clean up its cgroups; a
        // launcher that cannot finish (a stuck write) exits anyway, at once on a second signal.
        let handle = LaunchHandle()
        let forwarding = SignalForwarding(
            signals: [SIGINT, SIGTERM, SIGHUP],
            forward: { handle.terminate(signal: $0) },
            abandon: { handle.abandon(signal: $0) })
        defer { forwarding.cancel() }
        // A few lines per refused destination, the rest counted at the end: a payload hammering
        // a denied host must not flood the caller's log.
        let denials = EgressDenialLog()
        let result: RunResult
        do {
            var request = SandboxRequest(
                profile: selected, command: options.command, workspace: workspacePath,
                extraReadOnly: options.bindReadOnly.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
                callerEnvironment: ProcessEnvironment.all(), output: .inherit)
            request.interactive = options.interactive
            request.terminal = options.tty
            request.requireLimits = options.requireLimits
            request.handle = handle
            request.onEgressDenied = { record in denials.line(for: record).map(Console.error) }
            request.onWarning = { Console.error("sentinel: warning: \($0)") }
            request.onNotice = { Console.noticeOnce($0) }
            result = try SandboxSession.run(request)
            LaunchTrace.mark("cleanup")
            LaunchTrace.report()
        } catch let error as SentinelError where error.stage != nil {
            // A failed sandbox stage (setup, execve): the status object still says which one.
            try status?.write(
                RunResult(
                    exitCode: error.exitStatus, reason: .setupFailed, stage: error.stage,
                    errno: error.errno?.rawValue
                ).statusJSON())
            throw error
        }
        denials.summary().forEach(Console.error)
        try status?.write(result.statusJSON())
        if let failure = result.workspaceCommitFailure {
            Console.error("sentinel: \(failure); the workspace holds the changes applied before it")
        }
        if result.reason == .timeout {
            Console.error("sentinel: timed out after \(formatSeconds(selected.limits.timeoutSeconds ?? 0))")
        } else if result.reason == .oom {
            Console.error("sentinel: killed: memory limit exceeded")
        }
        return result.exitCode
    }

    private static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }
}
