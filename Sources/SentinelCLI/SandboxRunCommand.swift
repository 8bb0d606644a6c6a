import ArgumentParser
import Egress
import Foundation
import Sandbox
import Support

enum WorkspaceModeFlag: String, EnumerableFlag {
    case ro, rw, overlay

    static func help(for value: WorkspaceModeFlag) -> ArgumentHelp? {
        switch value {
        case .ro: return "Mount the workspace read-only."
        case .rw: return "Mount the workspace writable (writes land as its owner, committed when the run ends)."
        case .overlay: return "Mount the workspace copy-on-write; the host tree never changes."
        }
    }
}

/// `sentinel sandbox run`: runs one command in a fresh sandbox and exits with its status.
struct SandboxRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a command in a fresh sandbox.",
        discussion: """
            Exit status: the command's own; 128+N when killed by signal N; 124 on the wall-clock \
            limit; 137 when the memory limit OOM-kills it; 125 when the sandbox could not be set up; \
            126/127 when the command cannot be executed / is not found.
            """
    )

    @Option(name: .long, help: "Profile name or path.")
    var profile: String = "minimal"

    @Option(name: .long, help: "Host directory mounted at /workspace and used as the working directory.")
    var workspace: String?

    @Flag(exclusivity: .exclusive, help: "Workspace mode (default: the profile's).")
    var mode: WorkspaceModeFlag?

    @Option(name: .customLong("bind-ro"), help: "Also bind this host path read-only (repeatable).")
    var bindReadOnly: [String] = []

    @Option(name: .long, help: "Allow egress to HOST[:PORT] through the proxy (repeatable).")
    var allow: [String] = []

    @Option(name: .long, help: "Memory limit, e.g. 512M.")
    var memory: SizeArgument?

    @Option(
        name: .customLong("workspace-size"),
        help: "Most bytes a run may add to an rw or overlay workspace, e.g. 256M (ENOSPC inside past it).")
    var workspaceSize: SizeArgument?

    @Option(name: .long, help: "Most processes and threads.")
    var pids: Int?

    @Option(name: .long, help: "CPU quota in cores, e.g. 0.5.")
    var cpus: Double?

    @Option(name: .long, help: "Wall-clock limit, e.g. 30s or 5m.")
    var timeout: DurationArgument?

    @Flag(
        name: .customLong("require-limits"),
        help: "Fail (exit 125) instead of approximating memory/pids/cpu with rlimits when no cgroup can be made.")
    var requireLimits = false

    @Option(name: .customLong("status-json"), help: "Write the run's status object to this file.")
    var statusJSON: String?

    @Flag(name: .shortAndLong, help: "Relay stdin to the command (default: it reads /dev/null).")
    var interactive = false

    @Flag(name: .shortAndLong, help: "Give the command a terminal (a pty inside the sandbox).")
    var tty = false

    @Argument(parsing: .postTerminator, help: "The command and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
        guard !command.isEmpty else { throw ValidationError("missing command: sentinel sandbox run [options] -- COMMAND [ARG...]") }
        if let pids, pids <= 0 { throw ValidationError("--pids must be above 0") }
        if let cpus, cpus <= 0 { throw ValidationError("--cpus must be above 0") }
        // A tmpfs of size 0 has no limit at all.
        if let workspaceSize, workspaceSize.bytes < 1 << 20 { throw ValidationError("--workspace-size must be at least 1M") }
        if let workspace, !FileManager.default.fileExists(atPath: workspace) {
            throw ValidationError("\(workspace): workspace not found")
        }
    }

    func run() throws {
        LaunchTrace.mark("arguments")
        var selected = try ProfileStore.standard().resolve(profile)
        LaunchTrace.mark("profile")
        if let mode { selected.filesystem.workspace = Profile.WorkspaceMode(rawValue: mode.rawValue)! }
        if let memory { selected.limits.memoryBytes = memory.bytes }
        if let workspaceSize { selected.limits.workspaceSizeBytes = workspaceSize.bytes }
        if let pids { selected.limits.pids = pids }
        if let cpus { selected.limits.cpus = cpus }
        if let timeout { selected.limits.timeoutSeconds = timeout.seconds }
        if !allow.isEmpty {
            selected.network.mode = .proxy
            selected.network.allow += allow
        }

        let workspacePath = workspace.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        // Resolved before the payload runs; refused where the payload could plant a link.
        let workspaceTree = workspacePath.flatMap(OutputPlacement.realPath)
        let status = try statusJSON.map {
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
                profile: selected, command: command, workspace: workspacePath,
                extraReadOnly: bindReadOnly.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
                callerEnvironment: ProcessInfo.processInfo.environment, output: .inherit)
            request.interactive = interactive
            request.terminal = tty
            request.requireLimits = requireLimits
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
        throw ExitCode(result.exitCode)
    }

    private func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }
}
