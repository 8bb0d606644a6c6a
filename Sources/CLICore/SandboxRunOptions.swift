import FoundationEssentials
import Sandbox

/// What `sentinel sandbox run` was asked to do, as typed values: `SandboxRunCommand` (the full
/// command line's parser) and `SandboxRunArguments` (the lean launcher's) both produce it, and
/// `SandboxRunner` runs it.
public struct SandboxRunOptions: Sendable, Equatable {
    /// Profile name or path.
    public var profile = "minimal"
    /// Host directory mounted at /workspace.
    public var workspace: String?
    /// The workspace mode, when given (else the profile's).
    public var mode: Profile.WorkspaceMode?
    /// More host paths bound read-only.
    public var bindReadOnly: [String] = []
    /// Egress destinations allowed through the proxy.
    public var allow: [String] = []
    /// The memory limit, bytes.
    public var memoryBytes: UInt64?
    /// The most bytes a run may add to an rw or overlay workspace.
    public var workspaceSizeBytes: UInt64?
    /// The most processes and threads.
    public var pids: Int?
    /// The CPU quota in cores.
    public var cpus: Double?
    /// The wall-clock limit, seconds.
    public var timeoutSeconds: Double?
    /// Fail instead of approximating limits with rlimits.
    public var requireLimits = false
    /// Where the run's status object is written.
    public var statusJSON: String?
    /// Relay stdin.
    public var interactive = false
    /// Give the command a pty.
    public var tty = false
    /// The command and its arguments.
    public var command: [String] = []

    /// Options with every default.
    public init() {}

    /// The usage error these options make, or nil when they can run: the text ArgumentParser
    /// shows after `Error: `.
    public func usageError() -> String? {
        if command.isEmpty { return "missing command: sentinel sandbox run [options] -- COMMAND [ARG...]" }
        if let pids, pids <= 0 { return "--pids must be above 0" }
        // NaN and infinity fail both comparisons.
        if let cpus, !(cpus > 0 && cpus <= CgroupLimits.maximumCPUs) { return "--cpus must be above 0 and at most 1024" }
        // A tmpfs of size 0 has no limit at all.
        if let workspaceSizeBytes, workspaceSizeBytes < 1 << 20 { return "--workspace-size must be at least 1M" }
        if let workspace, !FileManager.default.fileExists(atPath: workspace) { return "\(workspace): workspace not found" }
        return nil
    }
}
