#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import FoundationEssentials
import Support

/// What the root launcher lets the analysis sandbox launch. The analysis reads hostile input
/// (a repository, a tool's report) and may be subverted by it, so everything a call says is
/// checked here, and the sandbox it asks for may never be more than the analysis could do
/// itself plus what this command needs:
/// - the built-in seccomp filter, always; the default hidden files, always;
/// - a workspace only inside the repository the command was started on, opened beneath the
///   launcher's own descriptor of it (no link, no mount crossed), and never written;
/// - egress only to hosts the command line named (`allowedEgress`);
/// - limits no larger than the analysis sandbox's own (`ceiling`);
/// - no terminal, no caller stdin: output is captured and returned.
/// The payload then runs as any brokered sandbox does: a leased host uid, no capability, in a
/// cgroup under the launcher's.
public struct BrokerPolicy: Sendable {
    /// The repository, resolved and held by the launcher.
    public var repository: WorkspaceDirectory
    /// Where the analysis sees the repository (its host path).
    public var shownAt: String
    /// `host:port` entries a launch's proxy may allow.
    public var allowedEgress: Set<String>
    /// The most any launch may use; a limit the call leaves unset takes this one.
    public var ceiling: Profile.Limits

    /// A policy over `repository`, seen by the analysis at `shownAt`.
    public init(repository: WorkspaceDirectory, shownAt: String, allowedEgress: Set<String> = [], ceiling: Profile.Limits) {
        self.repository = repository
        self.shownAt = shownAt
        self.allowedEgress = allowedEgress
        self.ceiling = ceiling
    }

    /// Trees no brokered launch binds: the kernel's views of processes and devices.
    static let refusedTrees = ["/proc", "/sys", "/dev"]

    /// The request to run for `launch`, with its workspace opened (the caller closes `held`
    /// after the run). Throws `SentinelError(.invalidInput)` naming what was refused.
    func request(for launch: BrokeredLaunch, input: Data?) throws -> (request: SandboxRequest, held: Int32?) {
        guard let first = launch.command.first, !first.isEmpty else { throw refused("a launch without a command") }
        var profile = launch.profile
        guard profile.seccomp == .default else {
            throw refused("profile \(profile.name): only the built-in seccomp filter may be used")
        }
        for path in profile.filesystem.readOnly + launch.extraReadOnly {
            guard path.hasPrefix("/") else { throw refused("a read-only path that is not absolute: \(path)") }
            let normalized = PathText.lexicallyNormalized(path)
            if let tree = Self.refusedTrees.first(where: {
                normalized == $0 || normalized.hasPrefix($0 + "/") || $0.hasPrefix(normalized + "/") || normalized == "/"
            }) {
                throw refused("binding \(path) (it is or holds \(tree))")
            }
        }
        profile.filesystem.hidden = Array(Set(profile.filesystem.hidden).union(Profile.defaultHidden)).sorted()
        if profile.network.mode == .proxy {
            if let entry = profile.network.allow.first(where: { !allowedEgress.contains($0) }) {
                throw refused("egress to \(entry), which the command line did not name")
            }
        }
        profile.limits = clamped(profile.limits)
        var held: Int32?
        var workspace: String?
        if let path = launch.workspace {
            guard profile.filesystem.workspace != .rw else {
                throw refused("a writable workspace: the repository is read-only to the analysis")
            }
            let fd = try openInRepository(path)
            held = fd
            workspace = "/proc/self/fd/\(fd)"
        }
        var request = SandboxRequest(
            profile: profile, command: launch.command, workspace: workspace, extraReadOnly: launch.extraReadOnly,
            callerEnvironment: launch.callerEnvironment, environment: launch.environment, output: .capture)
        request.workspaceMountPoint = launch.workspaceMountPoint
        request.workingDirectory = launch.workingDirectory
        request.requireLimits = launch.requireLimits
        request.input = input.map { [UInt8]($0) }
        return (request, held)
    }

    /// A directory of the repository, named as the analysis sees it, opened beneath the held
    /// descriptor (`O_PATH`, no symbolic link, no other mount).
    func openInRepository(_ path: String) throws -> Int32 {
        let normalized = PathText.lexicallyNormalized(path)
        let relative: String
        if normalized == shownAt {
            relative = "."
        } else if normalized.hasPrefix(shownAt + "/") {
            relative = String(normalized.dropFirst(shownAt.count + 1))
        } else {
            throw refused("a workspace outside the repository: \(path)")
        }
        let fd = csys_openat_beneath(repository.fd, relative, LinuxFlags.openPathOnly | O_DIRECTORY)
        guard fd >= 0 else {
            throw SentinelError(.invalidInput, "\(path): cannot open in the repository: \(Errno.current)", errno: .current)
        }
        return fd
    }

    private func clamped(_ limits: Profile.Limits) -> Profile.Limits {
        func least<T: Comparable>(_ asked: T?, _ most: T?) -> T? {
            guard let most else { return asked }
            return asked.map { min($0, most) } ?? most
        }
        var limits = limits
        limits.memoryBytes = least(limits.memoryBytes, ceiling.memoryBytes)
        limits.pids = least(limits.pids, ceiling.pids)
        limits.cpus = least(limits.cpus, ceiling.cpus)
        limits.timeoutSeconds = least(limits.timeoutSeconds, ceiling.timeoutSeconds)
        limits.fileSizeBytes = least(limits.fileSizeBytes, ceiling.fileSizeBytes)
        limits.openFiles = least(limits.openFiles, ceiling.openFiles)
        limits.outputBytes = least(limits.outputBytes, ceiling.outputBytes)
        limits.workspaceSizeBytes = least(limits.workspaceSizeBytes, ceiling.workspaceSizeBytes)
        limits.inotifyInstances = min(limits.inotifyInstances, ceiling.inotifyInstances)
        limits.inotifyWatches = min(limits.inotifyWatches, ceiling.inotifyWatches)
        return limits
    }

    private func refused(_ what: String) -> SentinelError {
        SentinelError(.invalidInput, "launch broker: refused \(what)")
    }
}
