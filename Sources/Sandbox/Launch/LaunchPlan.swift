#if canImport(Glibc)
    import Glibc
#endif
import Support

/// Everything the C launcher needs, computed in the parent from a profile and a request.
/// Pure data: building one touches the host only to inspect paths (lstat), so plans are
/// tested without privileges.
public struct LaunchPlan: Sendable, Equatable {
    /// The payload's command and arguments; `argv[0]` is looked up in `searchPath`.
    public var argv: [String]
    /// The payload's environment as `NAME=value` strings, after filtering.
    public var environment: [String]
    /// The `PATH` the command is resolved against (the payload environment's `PATH`).
    public var searchPath: String
    /// The payload's working directory inside the sandbox.
    public var workdir: String
    /// The hostname set in the sandbox's UTS namespace.
    public var hostname: String
    /// The `uid_map` contents written for the user namespace.
    public var uidMap: String
    /// The `gid_map` contents written for the user namespace.
    public var gidMap: String
    /// Whether `setgroups` is denied before the gid map is written.
    public var denySetgroups: Bool
    /// The payload's uid inside the sandbox.
    public var uid: UInt32
    /// The payload's gid inside the sandbox.
    public var gid: UInt32
    /// The host directory the sandbox root is built in before `pivot_root`.
    public var newRoot: String
    /// The steps that build the root, in the order the init performs them.
    public var filesystem: [FilesystemOp]
    /// The `setrlimit` values applied to the payload.
    public var rlimits: [ResourceLimit]
    /// The resolved workspace the `.attachWorkspace` step mounts, if any.
    public var workspace: WorkspaceMount?
    /// The directories a root launcher lends at their own paths (`.attachLent` steps, by index).
    public var lent: [LentMount] = []
    /// Settings of the sandbox's own user namespace (`/proc/sys/user`) the init writes before
    /// the payload starts.
    public var sysctls: [NamespaceSysctl] = []
    /// Settings of its network namespace (`/proc/sys/net`), written by whoever makes the
    /// namespace: the init, or a root launcher's thread ahead of the clone
    /// (`PreparedNetworkNamespace`).
    public var networkSysctls: [NamespaceSysctl] = []
    /// The loopback's MTU and largest TCP packet inside (0: the kernel's 64 KiB), when the init
    /// brings the loopback up; a root launcher's `PreparedNetworkNamespace` uses
    /// `NetworkNamespaceLimits.loopbackMTU`, this property's default.
    public var loopbackMTU: UInt32 = NetworkNamespaceLimits.loopbackMTU

    /// Where the workspace appears inside the sandbox.
    public static let workspaceMountPoint = "/workspace"

    /// A `setrlimit` value.
    public struct ResourceLimit: Sendable, Equatable {
        /// The `RLIMIT_*` resource number.
        public var resource: Int32
        /// The soft limit, in the resource's unit.
        public var soft: UInt64
        /// The hard limit, in the resource's unit.
        public var hard: UInt64
    }
}

/// The workspace as the launcher mounts it: the directory resolved once, whether the tree is
/// read-only (`ro`, and an overlay's lower layer), and the id shift that lets the unprivileged
/// payload read (and, for `rw`/`overlay`, write) a tree someone else owns as its owner can.
public struct WorkspaceMount: Sendable, Equatable {
    /// The directory, resolved and held open by the parent.
    public var directory: WorkspaceDirectory
    /// How the workspace appears inside: `ro`, `rw` or `overlay`.
    public var mode: Profile.WorkspaceMode
    /// The id shift of an idmapped mount, when the payload must write a tree it does not own; nil: none.
    public var idShift: IDShift?
    /// Size of the tmpfs holding the overlay's upper layer: the most bytes a run adds (nil: unbounded).
    public var sizeLimit: UInt64?
    /// `rw` under a root launcher: the payload writes an overlay whose upper layer the parent
    /// creates and keeps, and the parent commits that layer to the directory after the run.
    public var commitsBack: Bool = false

    /// Whether the directory itself is mounted read-only (all modes but a direct `rw` bind).
    public var readOnlyTree: Bool { mode != .rw || commitsBack }

    /// Files owned by `disk` appear owned by `shown` (and new files are stored as `disk`).
    public struct IDShift: Sendable, Equatable {
        /// The owner uid of the files on disk.
        public var diskUID: UInt32
        /// The owner gid of the files on disk.
        public var diskGID: UInt32
        /// The uid the payload sees as their owner.
        public var shownUID: UInt32
        /// The gid the payload sees as their owner.
        public var shownGID: UInt32
    }
}

/// What the caller asks for beyond the profile.
public struct LaunchRequest: Sendable {
    /// The sandbox profile to apply.
    public var profile: Profile
    /// The command to run and its arguments.
    public var command: [String]
    /// Host directory shown at `/workspace` and used as the working directory.
    public var workspace: String?
    /// More host paths to bind read-only at the same place.
    public var extraReadOnly: [String]
    /// The caller's environment, filtered through the profile's allow-list.
    public var callerEnvironment: [String: String]
    /// Variables set after filtering (proxy settings, granted secrets).
    public var extraEnvironment: [String: String]
    /// Mount a private devpts so the launcher can give the payload a terminal (`-t`).
    public var terminal = false
    /// Where the workspace appears inside (`WorkspacePlacement` checks it).
    public var workspaceMountPoint = LaunchPlan.workspaceMountPoint
    /// The payload's working directory inside; nil: the workspace (or /tmp without one).
    public var workingDirectory: String?
    /// Directories a root launcher lends at their own paths (see `LentDirectory`).
    public var lent: [LentDirectory] = []

    /// Makes a request to run `command` under `profile`; by default no workspace and no extra paths or variables.
    public init(
        profile: Profile, command: [String], workspace: String? = nil, extraReadOnly: [String] = [],
        callerEnvironment: [String: String] = [:], extraEnvironment: [String: String] = [:]
    ) {
        self.profile = profile
        self.command = command
        self.workspace = workspace
        self.extraReadOnly = extraReadOnly
        self.callerEnvironment = callerEnvironment
        self.extraEnvironment = extraEnvironment
    }
}

extension LaunchPlan {
    /// Builds the plan for `request`, run by a launcher with effective ids `hostUID`/`hostGID`.
    /// `payloadHostID`: a root launcher's `HostIDLease` id for the payload (nil: `nobody`).
    /// `networkSettings`: the network namespace's settings when the caller read them already
    /// (nil: `NetworkNamespaceLimits.make()` reads them now).
    public static func make(
        _ request: LaunchRequest, newRoot: String, hostUID: UInt32 = getuid(),
        hostGID: UInt32 = getgid(), payloadHostID: UInt32? = nil, networkSettings: [NamespaceSysctl]? = nil
    ) throws -> LaunchPlan {
        guard let first = request.command.first, !first.isEmpty else {
            throw SentinelError(.invalidInput, "no command given")
        }
        let profile = request.profile
        var builder = RootBuilder(root: newRoot)
        try builder.addStandardTree(
            profile: profile, extraReadOnly: request.extraReadOnly,
            terminal: request.terminal)

        // Without a workspace the command starts in /tmp, or / when the profile has no /tmp.
        var workdir = profile.filesystem.tmpfs["/tmp"] != nil ? "/tmp" : "/"
        let maps = try IdentityMaps.make(
            hostUID: hostUID, hostGID: hostGID, insideUID: profile.uid,
            insideGID: profile.gid, payloadHostID: payloadHostID)
        var workspace: WorkspaceMount?
        if let path = request.workspace {
            let directory = try WorkspaceDirectory(resolving: path)
            let mode = profile.filesystem.workspace
            var mount = WorkspaceMount(directory: directory, mode: mode, idShift: nil)
            // Only a root launcher can idmap; an unprivileged one is the payload and owns what it may
            // use. Read-only trees are shifted too: a scanner must read what the tree's owner can
            // (a root-owned 0700 checkout). The payload sees them through a read-only overlay
            // (`RootBuilder.addWorkspace`), whose inodes are not the host's: owning them opens
            // no host socket or FIFO and takes no lease a host writer would wait for.
            if hostUID == 0, directory.ownerUID != maps.hostUID || directory.ownerGID != maps.hostGID {
                mount.idShift = .init(
                    diskUID: directory.ownerUID, diskGID: directory.ownerGID,
                    shownUID: maps.hostUID, shownGID: maps.hostGID)
            }
            if mode != .ro { mount.sizeLimit = profile.limits.workspaceSizeBytes }
            // Only a root launcher can make the upper layer's tmpfs outside the sandbox (fsmount).
            mount.commitsBack = mode == .rw && hostUID == 0
            // Through the shift the payload acts as the tree's owner (root, often). Its rw writes
            // reach the host only through the commit, which drops setuid/setgid bits and creates no
            // device nodes whatever the seccomp setting. Were the shifted tree ever bound writable
            // directly, only the built-in filter would keep those off the host.
            if let shift = mount.idShift, mode == .rw, !mount.commitsBack, profile.seccomp != .default {
                throw SentinelError(
                    .invalidInput,
                    "profile \(profile.name): a writable workspace owned by uid \(shift.diskUID) needs seccomp: default (it keeps setuid files and device nodes off the host)"
                )
            }
            // The payload sees the directory as its own when it owns it (directly or shifted).
            let payloadOwns =
                mount.idShift != nil
                || (directory.ownerUID == maps.hostUID && directory.ownerGID == maps.hostGID)
            let inside = try WorkspacePlacement.check(request.workspaceMountPoint, profile: profile)
            builder.addWorkspace(
                mode: mode, at: inside, upperRoot: payloadOwns ? (maps.uid, maps.gid, directory.mode) : nil,
                sizeLimit: mount.sizeLimit, upperFromParent: mount.commitsBack)
            workdir = inside
            workspace = mount
        }
        let lent = try lentMounts(request, profile: profile, hostUID: hostUID, maps: maps)
        for (index, mount) in lent.enumerated() {
            builder.addLent(at: mount.mountPoint, index: index)
        }
        if let directory = request.workingDirectory {
            workdir = try WorkspacePlacement.checkWorkingDirectory(directory)
            // Never made inside the workspace: its directories are the repository's (a link there
            // would be followed by the launcher, as root, before the pivot); it has them or not.
            let mounted = workspace != nil ? [PathText.lexicallyNormalized(request.workspaceMountPoint)] : []
            builder.ensureWorkingDirectory(workdir, boundReadOnly: profile.filesystem.readOnly + request.extraReadOnly + mounted)
        }

        let environment = EnvironmentFilter.apply(
            profile.environment, caller: request.callerEnvironment,
            extra: request.extraEnvironment)
        let searchPath =
            environment.first { $0.hasPrefix("PATH=") }.map { String($0.dropFirst(5)) }
            ?? "/usr/local/bin:/usr/bin:/bin"
        var plan = LaunchPlan(
            argv: request.command, environment: environment, searchPath: searchPath, workdir: workdir,
            hostname: profile.hostname, uidMap: maps.uidMap, gidMap: maps.gidMap, denySetgroups: maps.denySetgroups,
            uid: maps.uid, gid: maps.gid, newRoot: newRoot, filesystem: builder.ops,
            rlimits: resourceLimits(profile.limits), workspace: workspace)
        plan.lent = lent
        plan.sysctls = UserNamespaceLimits.make(profile.limits)
        plan.networkSysctls = networkSettings ?? NetworkNamespaceLimits.make()
        return plan
    }

    /// The payload's share of host root's pending-signal quota (RLIMIT_SIGPENDING).
    static let pendingSignals: UInt64 = 1024
    /// The payload's share of host root's POSIX message-queue bytes (RLIMIT_MSGQUEUE, 800 KiB
    /// by default): one default-sized queue (10 messages of 8 KiB) fits.
    static let messageQueueBytes: UInt64 = 96 << 10

    static func resourceLimits(_ limits: Profile.Limits) -> [ResourceLimit] {
        var result = [ResourceLimit(resource: Int32(RLIMIT_CORE.rawValue), soft: 0, hard: 0)]
        // Queued signals and POSIX message-queue bytes are counted per user up the chain of
        // user namespaces, and the sandbox's namespace belongs to host root: unbounded, the
        // payload uses up host root's own quota (timer_create, sigqueue, mq_open fail on the host).
        result.append(
            ResourceLimit(
                resource: Int32(__RLIMIT_SIGPENDING.rawValue), soft: pendingSignals,
                hard: pendingSignals))
        result.append(
            ResourceLimit(
                resource: Int32(__RLIMIT_MSGQUEUE.rawValue), soft: messageQueueBytes,
                hard: messageQueueBytes))
        if let size = limits.fileSizeBytes {
            result.append(ResourceLimit(resource: Int32(RLIMIT_FSIZE.rawValue), soft: size, hard: size))
        }
        if let files = limits.openFiles {
            result.append(
                ResourceLimit(
                    resource: Int32(RLIMIT_NOFILE.rawValue), soft: UInt64(files),
                    hard: UInt64(files)))
        }
        return result
    }
}
