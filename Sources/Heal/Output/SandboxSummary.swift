import Sandbox

/// The sandbox a candidate was verified in, as a reviewer reads it: the profile and the limits
/// that bounded the project's own check.
public struct SandboxSummary: Sendable, Hashable, Codable {
    /// The profile's name.
    public var profile: String
    /// `none`, or `proxy` with its allow-list.
    public var network: String
    /// The workspace mode (`overlay` for candidates).
    public var workspace: String
    /// Memory limit in bytes, if any.
    public var memoryBytes: UInt64?
    /// Process limit, if any.
    public var pids: Int?
    /// CPU limit, if any.
    public var cpus: Double?
    /// Wall-clock limit in seconds, if any.
    public var timeoutSeconds: Double?

    /// The summary of `profile`.
    public init(_ profile: Profile) {
        self.profile = profile.name
        network =
            profile.network.mode == .none
            ? "none" : "proxy (allow: \(profile.network.allow.isEmpty ? "nothing" : profile.network.allow.joined(separator: ", ")))"
        workspace = profile.filesystem.workspace.rawValue
        memoryBytes = profile.limits.memoryBytes
        pids = profile.limits.pids
        cpus = profile.limits.cpus
        timeoutSeconds = profile.limits.timeoutSeconds
    }

    /// One line: `fix-verify: network none, workspace overlay, memory 1 GiB, 256 pids, timeout 600 s`.
    public var line: String {
        var parts = ["network \(network)", "workspace \(workspace)"]
        if let memoryBytes { parts.append("memory \(memoryBytes >> 20) MiB") }
        if let pids { parts.append("\(pids) pids") }
        if let cpus { parts.append("\(cpus) CPUs") }
        if let timeoutSeconds { parts.append("timeout \(Int(timeoutSeconds)) s") }
        return "\(profile): " + parts.joined(separator: ", ")
    }
}
