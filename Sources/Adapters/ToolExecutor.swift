import Sandbox
import ScanCore
import Support

/// One run of an external tool inside the sandbox: the arguments of `SandboxRunner.run`.
public struct ToolInvocation: Sendable, Hashable {
    /// The sandbox profile (`scan-bandit`, `scan-semgrep`).
    public var profile: String
    /// The command and its arguments; the first element is an absolute path.
    public var command: [String]
    /// Host directory mounted read-only at `/workspace`, the command's working directory.
    public var workspace: String
    /// Host paths bound read-only at the same path (tool directories, rule directories).
    public var extraReadOnly: [String]
    /// Variables set inside the sandbox on top of the profile's.
    public var environment: [String: String]
    /// Wall-clock limit in seconds; `nil` keeps the profile's.
    public var timeout: Double?
    /// Replaces the profile's `network.allow` for this run (a DAST tool's target alone);
    /// `nil` keeps the profile's list. The profile's mode and deny entries still apply.
    public var networkAllow: [String]?
    /// The `NetworkPod` the run joins, which replaces the profile's network; nil for its own.
    public var pod: String?

    /// An invocation; see the properties.
    public init(
        profile: String, command: [String], workspace: String, extraReadOnly: [String] = [],
        environment: [String: String] = [:], timeout: Double? = nil, networkAllow: [String]? = nil
    ) {
        self.profile = profile
        self.command = command
        self.workspace = workspace
        self.extraReadOnly = extraReadOnly
        self.environment = environment
        self.timeout = timeout
        self.networkAllow = networkAllow
    }
}

/// Runs tool invocations. Adapters take one so that tests can replay recorded results; the
/// default, `SandboxToolExecutor`, runs them in the Sentinel sandbox.
public protocol ToolExecutor: Sendable {
    /// Runs `invocation` to completion and returns what happened. Throws when the run could not
    /// start (e.g. `SentinelError` for a failed setup stage).
    func execute(_ invocation: ToolInvocation) throws -> RunResult
}

/// Runs tool invocations through a `SandboxRunner` (the scan context's).
public struct SandboxToolExecutor: ToolExecutor {
    /// The runner that launches the sandbox.
    public var runner: SandboxRunner
    /// Lets another thread stop the runs (a proof's worker once its application has ended).
    public var handle: LaunchHandle?

    /// Runs invocations with `runner`.
    public init(runner: SandboxRunner, handle: LaunchHandle? = nil) {
        self.runner = runner
        self.handle = handle
    }

    /// Runs `invocation` with its profile (its `network.allow` replaced when the invocation
    /// names one), output captured. Refuses, before launching, extra binds the profile's tmpfs
    /// or hidden paths would cover (they would be missing inside).
    public func execute(_ invocation: ToolInvocation) throws -> RunResult {
        var profile = try runner.profiles.resolve(invocation.profile)
        if let allow = invocation.networkAllow { profile.network.allow = allow }
        // A pod's members reach each other only: the pod is the run's whole network.
        if invocation.pod != nil { profile.network = Profile.Network(mode: .none) }
        if let (path, mount) = AdapterBinds.shadowed(invocation.extraReadOnly, by: profile.filesystem) {
            throw SentinelError(
                .invalidInput,
                "\(path) would be hidden in the sandbox by profile \(profile.name)'s mount at \(mount); move it elsewhere")
        }
        return try runner.run(
            profile: profile, command: invocation.command, workspace: invocation.workspace,
            extraReadOnly: invocation.extraReadOnly, environment: invocation.environment,
            timeout: invocation.timeout, pod: invocation.pod, handle: handle)
    }
}
