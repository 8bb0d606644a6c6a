#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import FoundationEssentials
import Support

/// What the root launcher lets the analysis sandbox launch. The analysis reads hostile input
/// (a repository, a tool's report) and may be subverted by it, so everything a call says is
/// checked here, and the sandbox it asks for may never be more than the analysis could do
/// itself plus what this command needs. The launcher builds a new root by path, as root, before
/// it pivots: so no path a call names reaches it unless root chose it.
/// - the built-in seccomp filter, always; root's hidden files, always; no granted secrets;
/// - read-only binds only of paths root allows (`readOnlyRoots`: the system trees, the shipped
///   profiles' own, root's install and tools): exactly one of them, or a path beneath one with no
///   symbolic link in it (walked from `/` without following any), naming a regular file or a
///   directory (no socket: a bound socket is a way out of a sandbox without network);
/// - tmpfs mounts only where root's profiles put them;
/// - a workspace only inside the repository, opened beneath the launcher's own descriptor of it
///   (no link, no mount crossed), never written unless root allows it (`writableRepository`: a
///   commit root's command line asked for), shown at `/workspace`, and a working directory only
///   there or in `/tmp`;
/// - in the `trees` root lent the analysis (its writable scratch directory, a fleet worker's
///   read-only repository roots): workspaces (writable only in a writable tree) and read-only
///   directories, opened the same way and lent by descriptor, never bound by a path the analysis
///   could swap for a link;
/// - egress only to hosts the command line named (`allowedEgress`), unless the analysis shares
///   the host's network itself (`allowsAnyEgress`);
/// - a network pod only of those root made for this command (`pods`), and then no proxy;
/// - limits that are positive, finite and no larger than the analysis sandbox's own (`ceiling`);
/// - no terminal, no caller stdin: output is captured and returned.
/// The payload then runs as any brokered sandbox does: a leased host uid, no capability, in a
/// cgroup under the launcher's.
public struct BrokerPolicy: Sendable {
    /// The repository, resolved and held by the launcher, and where the analysis sees it (its
    /// host path); nil when the analysis has none (a fleet worker: its repositories are `trees`).
    public var repository: HeldTree?
    /// `host:port` entries a launch's proxy may allow.
    public var allowedEgress: Set<String>
    /// Whether a launch's proxy may allow any host: for an analysis that shares the host's
    /// network itself (a fleet worker), which its launches could not exceed.
    public var allowsAnyEgress = false
    /// The most any launch may use; a limit the call leaves unset takes this one.
    public var ceiling: Profile.Limits
    /// Host paths a launch may bind read-only (exactly, or beneath with no link on the way).
    public var readOnlyRoots: Set<String>
    /// Where a launch may mount a tmpfs.
    public var tmpfsPlaces: Set<String>
    /// What every launch hides, whatever it asks.
    public var hidden: [String]
    /// Whether a launch may write the repository (through the launcher's commit).
    public var writableRepository = false
    /// Directories root lent the analysis beside the repository, held by the launcher: its
    /// scratch directory (writable: heal's candidate trees, a worker's clones) and a fleet
    /// worker's repository roots (read-only).
    public var trees: [HeldTree] = []
    /// The `NetworkPod`s root made for this command, by name, that a launch may join (with no
    /// proxy: a member's peers are the pod's other members).
    public var pods: Set<String> = []

    /// A directory the launcher holds and the analysis sees at `shownAt` (its host path).
    public struct HeldTree: Sendable {
        /// The directory, resolved and held.
        public var directory: WorkspaceDirectory
        /// Where the analysis sees it.
        public var shownAt: String
        /// Whether a launch may mount a directory of it as a writable workspace.
        public var writable: Bool

        /// `directory`, seen by the analysis at `shownAt`.
        public init(directory: WorkspaceDirectory, shownAt: String, writable: Bool) {
            self.directory = directory
            self.shownAt = shownAt
            self.writable = writable
        }

        /// Whether `path` (lexically normalized) is this tree or lies in it.
        func holds(_ path: String) -> Bool { path == shownAt || path.hasPrefix(shownAt + "/") }
    }

    /// A policy over `repository` (none: the analysis has no repository), seen by the analysis
    /// at `shownAt`; binds, tmpfs places and hidden files default to the built-in profiles'.
    public init(
        repository: WorkspaceDirectory?, shownAt: String, allowedEgress: Set<String> = [], ceiling: Profile.Limits,
        readOnlyRoots: Set<String> = Set(Profile.defaultReadOnly), tmpfsPlaces: Set<String> = ["/tmp"],
        hidden: [String] = Profile.defaultHidden
    ) {
        self.repository = repository.map { HeldTree(directory: $0, shownAt: shownAt, writable: false) }
        self.allowedEgress = allowedEgress
        self.ceiling = ceiling
        self.readOnlyRoots = readOnlyRoots
        self.tmpfsPlaces = tmpfsPlaces
        self.hidden = hidden
    }

    /// The lent tree holding `path`, if one does.
    func tree(holding path: String) -> HeldTree? {
        let normalized = PathText.lexicallyNormalized(path)
        return trees.first { $0.holds(normalized) }
    }

    /// The request to run for `launch`, with its workspace and scratch directories opened (the
    /// caller closes `held` after the run). Throws `SentinelError(.invalidInput)` naming what was
    /// refused.
    func request(for launch: BrokeredLaunch, input: Data?) throws -> (request: SandboxRequest, held: [Int32]) {
        guard let first = launch.command.first, !first.isEmpty else { throw refused("a launch without a command") }
        var profile = launch.profile
        guard profile.seccomp == .default else {
            throw refused("profile \(profile.name): only the built-in seccomp filter may be used")
        }
        guard profile.secrets.isEmpty else { throw refused("granted secrets") }
        guard profile.hostname.utf8.count <= 64, !profile.hostname.contains(where: { $0.isNewline || $0 == "\0" }) else {
            throw refused("a host name that is not one")
        }
        var held: [Int32] = []
        var failed = true
        defer { if failed { held.forEach { close($0) } } }
        var lent: [LentDirectory] = []
        var extraReadOnly: [String] = []
        for path in launch.extraReadOnly {
            if let tree = tree(holding: path) {
                let fd = try openBeneath(tree.directory, shownAt: tree.shownAt, path)
                held.append(fd)
                lent.append(LentDirectory(path: "/proc/self/fd/\(fd)", mountPoint: path, writable: false))
            } else {
                extraReadOnly.append(path)
            }
        }
        for path in profile.filesystem.readOnly + extraReadOnly { try checkBind(path) }
        for place in profile.filesystem.tmpfs.keys where !tmpfsPlaces.contains(place) {
            throw refused("a tmpfs at \(place)")
        }
        profile.filesystem.hidden = hidden
        for (name, value) in launch.environment.merging(launch.callerEnvironment, uniquingKeysWith: { a, _ in a })
        where name.isEmpty || name.contains("=") || name.contains("\0") || value.contains("\0") {
            throw refused("an environment variable that is not one")
        }
        if profile.network.mode == .proxy, !allowsAnyEgress {
            if let entry = profile.network.allow.first(where: { !allowedEgress.contains($0) }) {
                throw refused("egress to \(entry), which the command line did not name")
            }
        }
        if let pod = launch.pod {
            guard pods.contains(pod) else { throw refused("network pod \(pod), which root did not make") }
            guard profile.network.mode == .none else { throw refused("a proxy beside network pod \(pod)") }
        }
        profile.limits = try clamped(profile.limits)
        guard launch.workspaceMountPoint == LaunchPlan.workspaceMountPoint else {
            throw refused("a workspace shown at \(launch.workspaceMountPoint)")
        }
        if let directory = launch.workingDirectory {
            let inside = PathText.lexicallyNormalized(directory)
            guard directory == inside,
                inside == "/tmp" || inside == LaunchPlan.workspaceMountPoint
                    || inside.hasPrefix(LaunchPlan.workspaceMountPoint + "/")
            else { throw refused("a working directory at \(directory)") }
        }
        var workspace: String?
        if let path = launch.workspace {
            let fd: Int32
            if let tree = tree(holding: path) {
                guard profile.filesystem.workspace != .rw || tree.writable else {
                    throw refused("a writable workspace in \(tree.shownAt), which is read-only to the analysis")
                }
                fd = try openBeneath(tree.directory, shownAt: tree.shownAt, path)
            } else {
                guard profile.filesystem.workspace != .rw || writableRepository else {
                    throw refused("a writable workspace: the repository is read-only to the analysis")
                }
                fd = try openInRepository(path)
            }
            held.append(fd)
            workspace = "/proc/self/fd/\(fd)"
        }
        var request = SandboxRequest(
            profile: profile, command: launch.command, workspace: workspace, extraReadOnly: extraReadOnly,
            callerEnvironment: launch.callerEnvironment, environment: launch.environment, output: .capture)
        request.lent = lent
        request.workingDirectory = launch.workingDirectory
        request.requireLimits = launch.requireLimits
        request.pod = launch.pod
        request.input = input.map { [UInt8]($0) }
        failed = false
        return (request, held)
    }

    /// A read-only bind is allowed when root allows the path itself, or a tree it lies in and
    /// nothing on the way is a link (walked from `/` by `O_PATH | O_NOFOLLOW` descriptors) and
    /// it names a directory or a regular file.
    func checkBind(_ path: String) throws {
        let normalized = PathText.lexicallyNormalized(path)
        // In its plain form: no `.`, `..` or doubled slash (lexical normalizing removes them all).
        guard path.hasPrefix("/"), path == normalized else {
            throw refused("binding \(path): not an absolute path in its plain form")
        }
        if readOnlyRoots.contains(path) { return }
        if let repository, path.hasPrefix(repository.shownAt + "/") { return try checkBindInRepository(path, repository) }
        // The deepest tree root allows holds it; from there (root's own choice, opened as named)
        // no component may be a link or another mount.
        guard let tree = readOnlyRoots.filter({ $0 != "/" && path.hasPrefix($0 + "/") }).max(by: { $0.count < $1.count }) else {
            throw refused("binding \(path): not a path root shows to this analysis")
        }
        let top = open(tree, LinuxFlags.openPathOnly | O_DIRECTORY | O_CLOEXEC)
        guard top >= 0 else { throw refused("binding \(path): cannot open \(tree)") }
        defer { close(top) }
        let fd = csys_openat_beneath_by_steps(top, String(path.dropFirst(tree.count + 1)), LinuxFlags.openPathOnly)
        guard fd >= 0 else { throw refused("binding \(path): \(Errno.current) on the way (a link, or another mount)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, [S_IFDIR, S_IFREG].contains(info.st_mode & S_IFMT) else {
            throw refused("binding \(path): neither a directory nor a regular file")
        }
    }

    /// A path in the repository (a rule file its `.sentinel.yml` names) may be bound by path
    /// only where nobody but root could swap a component for a link before the launcher binds
    /// it: the repository and every directory down to the path belong to root and are writable by
    /// no one else, and no component is a link. Anything else is refused.
    func checkBindInRepository(_ path: String, _ repository: HeldTree) throws {
        let components = path.dropFirst(repository.shownAt.count + 1).split(separator: "/").map(String.init)
        var current = fcntl(repository.directory.fd, F_DUPFD_CLOEXEC, 0)
        guard current >= 0 else { throw refused("binding \(path): cannot hold the repository") }
        defer { close(current) }
        func rootOwned(_ fd: Int32) -> Bool {
            var info = stat()
            return fstat(fd, &info) == 0 && info.st_uid == 0 && info.st_mode & 0o022 == 0
        }
        guard rootOwned(current) else { throw refused("binding \(path): the repository is not root's alone") }
        for (index, component) in components.enumerated() {
            let last = index == components.count - 1
            let next = openat(current, component, LinuxFlags.openPathOnly | O_NOFOLLOW | O_CLOEXEC | (last ? 0 : O_DIRECTORY))
            guard next >= 0 else { throw refused("binding \(path): \(Errno.current) at \(component)") }
            close(current)
            current = next
            var info = stat()
            guard fstat(current, &info) == 0 else { throw refused("binding \(path): cannot stat \(component)") }
            let type = info.st_mode & S_IFMT
            if last {
                guard type == S_IFREG || type == S_IFDIR else { throw refused("binding \(path): neither a directory nor a regular file") }
            } else {
                guard rootOwned(current) else { throw refused("binding \(path): \(component) is not root's alone") }
            }
        }
    }

    /// A directory of the repository, named as the analysis sees it, opened beneath the held
    /// descriptor (`O_PATH`, no symbolic link, no other mount).
    func openInRepository(_ path: String) throws -> Int32 {
        guard let repository, repository.holds(PathText.lexicallyNormalized(path)) else {
            throw refused("a workspace outside the repository: \(path)")
        }
        return try openBeneath(repository.directory, shownAt: repository.shownAt, path)
    }

    /// A directory beneath `directory` (seen by the analysis at `shownAt`), named as the
    /// analysis sees it, opened beneath the held descriptor (`O_PATH`, no symbolic link, no
    /// other mount).
    func openBeneath(_ directory: WorkspaceDirectory, shownAt: String, _ path: String) throws -> Int32 {
        let normalized = PathText.lexicallyNormalized(path)
        let relative: String
        if normalized == shownAt {
            relative = "."
        } else if normalized.hasPrefix(shownAt + "/") {
            relative = String(normalized.dropFirst(shownAt.count + 1))
        } else {
            throw refused("a directory outside \(shownAt): \(path)")
        }
        let fd = csys_openat_beneath(directory.fd, relative, LinuxFlags.openPathOnly | O_DIRECTORY)
        guard fd >= 0 else {
            throw SentinelError(.invalidInput, "\(path): cannot open beneath \(shownAt): \(Errno.current)", errno: .current)
        }
        return fd
    }

    /// Every limit positive and finite, and no larger than the ceiling's (an unset one takes it).
    func clamped(_ limits: Profile.Limits) throws -> Profile.Limits {
        func least<T: Comparable>(_ asked: T?, _ most: T?, _ name: String, positive: (T) -> Bool) throws -> T? {
            if let asked, !positive(asked) { throw refused("a \(name) limit of \(asked)") }
            guard let most else { return asked }
            return asked.map { min($0, most) } ?? most
        }
        let whole = { (value: Int) in value > 0 }
        let bytes = { (value: UInt64) in value > 0 }
        let real = { (value: Double) in value.isFinite && value > 0 }
        var limits = limits
        limits.memoryBytes = try least(limits.memoryBytes, ceiling.memoryBytes, "memory", positive: bytes)
        limits.pids = try least(limits.pids, ceiling.pids, "pids", positive: whole)
        limits.cpus = try least(limits.cpus, ceiling.cpus ?? 1024, "cpus", positive: real)
        limits.timeoutSeconds = try least(limits.timeoutSeconds, ceiling.timeoutSeconds, "timeout", positive: real)
        limits.fileSizeBytes = try least(limits.fileSizeBytes, ceiling.fileSizeBytes, "file size", positive: bytes)
        limits.openFiles = try least(limits.openFiles, ceiling.openFiles, "open files", positive: whole)
        limits.outputBytes = try least(limits.outputBytes, ceiling.outputBytes, "output", positive: bytes)
        limits.workspaceSizeBytes = try least(limits.workspaceSizeBytes, ceiling.workspaceSizeBytes, "workspace size", positive: bytes)
        guard limits.inotifyInstances >= 0, limits.inotifyWatches >= 0 else { throw refused("a negative inotify limit") }
        limits.inotifyInstances = min(limits.inotifyInstances, ceiling.inotifyInstances)
        limits.inotifyWatches = min(limits.inotifyWatches, ceiling.inotifyWatches)
        return limits
    }

    private func refused(_ what: String) -> SentinelError {
        SentinelError(.invalidInput, "launch broker: refused \(what)")
    }
}
