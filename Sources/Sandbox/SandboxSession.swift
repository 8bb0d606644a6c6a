#if canImport(Glibc)
    import Glibc
#endif
import Egress
import Support

/// Everything one sandboxed run needs beyond the launcher's defaults: the profile (with any
/// command-line overrides already applied), the command, the workspace, and what to do with
/// output, egress decisions and notices.
public struct SandboxRequest: Sendable {
    /// The profile to enforce; its `filesystem.workspace` mode and `limits` apply as they are.
    public var profile: Profile
    /// The command and its arguments.
    public var command: [String]
    /// Host directory mounted at `/workspace` (the working directory), or nil for none.
    public var workspace: String?
    /// Where the workspace appears inside (`/workspace`; the analysis sandbox: its host path).
    public var workspaceMountPoint = LaunchPlan.workspaceMountPoint
    /// The command's working directory inside (nil: the workspace, else /tmp); made in the new
    /// root when it lies in no tree the profile mounts.
    public var workingDirectory: String?
    /// More host paths bound read-only at the same path (tool and rule directories).
    public var extraReadOnly: [String]
    /// Directories a root launcher lends at their own paths (`LentDirectory`); never brokered.
    public var lent: [LentDirectory] = []
    /// Variables the profile's `env` allow-list may pass through (the caller's own environment
    /// for `sandbox run`; empty for tools, which get only what the profile fixes).
    public var callerEnvironment: [String: String]
    /// Variables set inside on top of the filtered ones; they win over the proxy variables.
    public var environment: [String: String]
    /// Relay stdout/stderr to the caller's (`.inherit`) or capture them (`.capture`).
    public var output: LaunchOptions.Output
    /// `.inherit` only: relay the caller's stdin (`-i`).
    public var interactive = false
    /// `.capture` only: bytes the payload reads on stdin (nil: /dev/null).
    public var input: [UInt8]?
    /// `.inherit` only: give the payload a pty of the sandbox's own devpts (`-t`).
    public var terminal = false
    /// Fail the setup rather than approximate cgroup limits with rlimits (`--require-limits`).
    public var requireLimits = false
    /// Lets another thread stop the run (signal forwarding).
    public var handle: LaunchHandle?
    /// Told about every egress request the proxy denies, as it happens.
    public var onEgressDenied: @Sendable (EgressRecord) -> Void = { _ in }
    /// Told about problems that do not stop the run (special files skipped at commit-back).
    public var onWarning: @Sendable (String) -> Void = { _ in }
    /// Told, at each run that falls back to rlimits, what is approximated.
    public var onNotice: @Sendable (String) -> Void = { _ in }
    /// A root launcher's own network namespace, shared (the fleet worker's analysis, which
    /// talks to its queue and serves metrics). Never from a profile or the broker; refused
    /// beside a proxy, and for an unprivileged launcher.
    public var sharesHostNetwork = false
    /// The `NetworkPod` (by name) whose network namespace the run joins: its peers are the
    /// pod's other members only. Refused beside a proxy; the pod must be registered (by root).
    public var pod: String?

    /// A request to run `command` under `profile`; see the properties for the rest.
    public init(
        profile: Profile, command: [String], workspace: String? = nil, extraReadOnly: [String] = [],
        callerEnvironment: [String: String] = [:], environment: [String: String] = [:],
        output: LaunchOptions.Output = .capture
    ) {
        self.profile = profile
        self.command = command
        self.workspace = workspace
        self.extraReadOnly = extraReadOnly
        self.callerEnvironment = callerEnvironment
        self.environment = environment
        self.output = output
    }
}

/// The one way to run a command in the sandbox: profile → launch options → egress proxy →
/// network namespace (root: made on another thread meanwhile) → host id (root; the user
/// database is asked during the launch) → plan on the root's mount point (`NewRootDirectory`)
/// → launch. `sandbox run`, `doctor` and the scanners' adapters
/// all come through here.
public enum SandboxSession {
    /// Runs `request` to completion. Throws `SentinelError` when the sandbox cannot be set up or
    /// the command cannot be executed (the error names the stage); every other ending (exit,
    /// signal, timeout, OOM) is in the returned `RunResult`.
    public static func run(_ request: SandboxRequest) throws -> RunResult {
        // In the analysis sandbox every launch is the root launcher's (`LaunchBroker`).
        if let broker = LaunchBrokerClient.socketPath { return try LaunchBrokerClient.launch(request, socket: broker) }
        let profile = request.profile
        var options = LaunchOptions(profile: profile, output: request.output)
        options.interactive = request.interactive
        options.input = request.input
        options.terminal = request.terminal
        options.requireLimits = request.requireLimits
        options.handle = request.handle
        options.onWarning = request.onWarning
        options.onNotice = request.onNotice
        let proxyVariables = try EgressLaunch.configure(
            &options, network: profile.network,
            onDenied: request.onEgressDenied)
        // As root, the network namespace is made on another thread while the rest is planned.
        let networkSettings = NetworkNamespaceLimits.make()
        if request.sharesHostNetwork {
            guard profile.network.mode == .none, geteuid() == 0 else {
                throw SentinelError(.invalidInput, "the host's network is shared only by a root launcher, without a proxy")
            }
            options.preparedNetwork = try PreparedNetworkNamespace.host()
        } else if let name = request.pod {
            guard profile.network.mode == .none else {
                throw SentinelError(
                    .invalidInput, "a network pod's members reach each other only: profile \(profile.name) asks for a proxy")
            }
            guard let pod = NetworkPod.named(name) else { throw SentinelError(.invalidInput, "no network pod named \(name)") }
            options.preparedNetwork = try PreparedNetworkNamespace.joining(pod)
        } else {
            options.preparedNetwork = PreparedNetworkNamespace.start(
                loopbackMTU: NetworkNamespaceLimits.loopbackMTU, proxyPort: options.proxyPort, settings: networkSettings)
        }
        var launch = LaunchRequest(
            profile: profile, command: request.command, workspace: request.workspace,
            extraReadOnly: request.extraReadOnly,
            callerEnvironment: request.callerEnvironment,
            extraEnvironment: request.environment.merging(proxyVariables) { mine, _ in mine })
        launch.terminal = request.terminal
        launch.workspaceMountPoint = request.workspaceMountPoint
        launch.workingDirectory = request.workingDirectory
        launch.lent = request.lent
        LaunchTrace.mark("options")
        // A root launcher's payload runs as a host id of its own, held until the run ends.
        return try HostIDLease.with { lease in
            LaunchTrace.mark("host-id")
            return try NewRootDirectory.with { root in
                LaunchTrace.mark("root-directory")
                let plan = try LaunchPlan.make(
                    launch, newRoot: root, payloadHostID: lease?.id, networkSettings: networkSettings)
                LaunchTrace.mark("plan")
                var options = options
                options.hostIDLease = lease
                return try Launcher.run(plan, options: options)
            }
        }
    }
}
