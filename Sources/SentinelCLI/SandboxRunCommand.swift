import ArgumentParser
import CLICore
import Sandbox
import ScanCore

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
public struct SandboxRunCommand: ParsableCommand {
    /// The subcommand's name, abstract and exit statuses.
    public static let configuration = CommandConfiguration(
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

    /// Makes the command; ArgumentParser fills it from the command line.
    public init() {}

    /// The parsed options as `SandboxRunner` takes them.
    public var options: SandboxRunOptions {
        var options = SandboxRunOptions()
        options.profile = profile
        options.workspace = workspace
        options.mode = mode.map { Profile.WorkspaceMode(rawValue: $0.rawValue)! }
        options.bindReadOnly = bindReadOnly
        options.allow = allow
        options.memoryBytes = memory?.bytes
        options.workspaceSizeBytes = workspaceSize?.bytes
        options.pids = pids
        options.cpus = cpus
        options.timeoutSeconds = timeout?.seconds
        options.requireLimits = requireLimits
        options.statusJSON = statusJSON
        options.interactive = interactive
        options.tty = tty
        options.command = command
        return options
    }

    /// Refuses what cannot run: no command, non-positive limits, a missing workspace.
    public func validate() throws {
        if let message = options.usageError() { throw ValidationError(message) }
    }

    /// Runs the command in a fresh sandbox; throws `ExitCode` with the command's status.
    public func run() throws {
        throw ExitCode(try SandboxRunner.run(options, syntax: .yaml))
    }
}
