import Support

/// A sandbox profile: what a task may see, reach and consume (DESIGN §4).
public struct Profile: Sendable, Equatable, Codable {
    /// How the workspace directory appears inside the sandbox.
    public enum WorkspaceMode: String, Sendable, Equatable, CaseIterable, Codable {
        /// Read-only bind.
        case ro
        /// Writable: as root, writes go to a size-limited overlay layer the launcher commits back
        /// to the directory after the run (`WorkspaceCommit`); unprivileged, a writable bind.
        case rw
        /// Writes go to a throwaway upper layer; the host tree never changes.
        case overlay
    }

    /// What the sandbox sees of the host's filesystem.
    public struct Filesystem: Sendable, Equatable, Codable {
        /// Host paths bound read-only at the same place inside.
        public var readOnly: [String]
        /// Host paths hidden behind an empty, unreadable file or directory (secrets).
        public var hidden: [String]
        /// Fresh tmpfs mounts: inside path → size in bytes.
        public var tmpfs: [String: UInt64]
        /// How the workspace directory appears inside.
        public var workspace: WorkspaceMode

        /// Makes a filesystem section from its bind, hide, tmpfs and workspace settings.
        public init(readOnly: [String], hidden: [String], tmpfs: [String: UInt64], workspace: WorkspaceMode) {
            self.readOnly = readOnly
            self.hidden = hidden
            self.tmpfs = tmpfs
            self.workspace = workspace
        }
    }

    /// Which environment variables the payload gets.
    public struct Environment: Sendable, Equatable, Codable {
        /// Names passed through from the caller; a trailing `*` matches a prefix (`LC_*`).
        public var allow: [String]
        /// Fixed values, applied after the allow-list.
        public var set: [String: String]

        /// Makes an environment section from an allow-list and fixed values.
        public init(allow: [String], set: [String: String]) {
            self.allow = allow
            self.set = set
        }
    }

    /// Whether and where the payload may connect.
    public struct Network: Sendable, Equatable, Codable {
        /// `none`: no network at all; `proxy`: egress only through Sentinel's filtering proxy.
        public enum Mode: String, Sendable, Equatable, Codable { case none, proxy }
        /// No network, or egress through the proxy.
        public var mode: Mode
        /// Egress allow entries (`host[:port]`, `*.domain`, CIDR), for `proxy`.
        public var allow: [String]
        /// Egress deny entries; deny wins.
        public var deny: [String]
        /// Most concurrent proxied connections, and most bytes per run (0: no limit).
        public var maxConnections: Int
        /// Most bytes proxied per run; 0 means no limit.
        public var maxBytes: UInt64

        /// Makes a network section; by default no allow or deny entries, 64 connections, no byte limit.
        public init(
            mode: Mode, allow: [String] = [], deny: [String] = [], maxConnections: Int = 64,
            maxBytes: UInt64 = 0
        ) {
            self.mode = mode
            self.allow = allow
            self.deny = deny
            self.maxConnections = maxConnections
            self.maxBytes = maxBytes
        }
    }

    /// The seccomp filter applied to the payload.
    public enum Seccomp: Sendable, Equatable, Codable {
        /// Sentinel's built-in deny-list.
        case `default`
        /// An OCI/Docker seccomp JSON file.
        case oci(path: String)
        /// No filter at all (only for diagnosis; `sandbox check` warns).
        case disabled
        /// The built-in filter with `openat2` allowed: for a sandbox with no writable mount that
        /// reaches the host (Sentinel's own analysis of a scan), where the creation mode `openat2`
        /// hides from the filter cannot leave a set-uid file behind. No profile file can name it,
        /// the broker refuses it, and a writable workspace or lent directory refuses it too.
        case defaultWithOpenat2
    }

    /// What the payload may consume; nil means no limit unless noted.
    public struct Limits: Sendable, Equatable, Codable {
        /// Memory limit for the whole sandbox (cgroup), bytes.
        public var memoryBytes: UInt64?
        /// Most processes and threads in the sandbox (cgroup).
        public var pids: Int?
        /// CPU limit in CPUs, e.g. 1.5 (cgroup).
        public var cpus: Double?
        /// Wall-clock limit for the run, seconds.
        public var timeoutSeconds: Double?
        /// Largest file the payload may write, bytes (`RLIMIT_FSIZE`).
        public var fileSizeBytes: UInt64?
        /// Most open file descriptors per process (`RLIMIT_NOFILE`).
        public var openFiles: Int?
        /// Limit on the run's captured output, bytes; nil means 16 MiB.
        public var outputBytes: UInt64?
        /// inotify instances and watches the sandbox may hold. The kernel also counts them
        /// against the launcher's uid on the host (128 instances by default there), so they are
        /// always bounded: at most `inotifyBounds`, and at most half the host's own limit.
        public var inotifyInstances: Int
        /// inotify watches the sandbox may hold; bounded as `inotifyInstances` is.
        public var inotifyWatches: Int
        /// Most bytes one run may add to an `rw` or `overlay` workspace (the size of the tmpfs
        /// holding the overlay's upper layer); nil: unbounded.
        public var workspaceSizeBytes: UInt64?

        /// Defaults: a watcher needs one instance, and 8,192 watches (the kernel's old
        /// per-user default) cover a large repository; both leave most of root's quota alone.
        public static let defaultInotifyInstances = 16
        /// The default for `inotifyWatches`.
        public static let defaultInotifyWatches = 8192
        /// The most a profile may ask for: half the kernel's default 128 instances, and enough
        /// watches for a monorepo while staying a fraction of a typical host's limit.
        public static let inotifyBounds = (instances: 64, watches: 65536)

        /// Makes limits; by default none except the inotify defaults.
        public init(
            memoryBytes: UInt64? = nil, pids: Int? = nil, cpus: Double? = nil,
            timeoutSeconds: Double? = nil, fileSizeBytes: UInt64? = nil, openFiles: Int? = nil,
            outputBytes: UInt64? = nil, inotifyInstances: Int = Limits.defaultInotifyInstances,
            inotifyWatches: Int = Limits.defaultInotifyWatches, workspaceSizeBytes: UInt64? = nil
        ) {
            self.memoryBytes = memoryBytes
            self.pids = pids
            self.cpus = cpus
            self.timeoutSeconds = timeoutSeconds
            self.fileSizeBytes = fileSizeBytes
            self.openFiles = openFiles
            self.outputBytes = outputBytes
            self.inotifyInstances = inotifyInstances
            self.inotifyWatches = inotifyWatches
            self.workspaceSizeBytes = workspaceSizeBytes
        }
    }

    /// The profile's name, e.g. `scan-bandit`.
    public var name: String
    /// One human sentence saying what the profile is for.
    public var description: String
    /// What the sandbox sees of the host's filesystem.
    public var filesystem: Filesystem
    /// Which environment variables the payload gets.
    public var environment: Environment
    /// Whether and where the payload may connect.
    public var network: Network
    /// The seccomp filter applied to the payload.
    public var seccomp: Seccomp
    /// What the payload may consume.
    public var limits: Limits
    /// Names of secrets this profile may receive.
    public var secrets: [String]
    /// The payload's uid and gid inside the sandbox (default 65534, `nobody`).
    public var uid: UInt32
    /// The payload's gid inside the sandbox (default 65534, `nogroup`).
    public var gid: UInt32
    /// The hostname inside the sandbox's UTS namespace (default `sentinel`).
    public var hostname: String

    /// Makes a profile; by default no secrets, uid and gid 65534, hostname `sentinel`.
    public init(
        name: String, description: String = "", filesystem: Filesystem, environment: Environment,
        network: Network, seccomp: Seccomp, limits: Limits, secrets: [String] = [],
        uid: UInt32 = 65534, gid: UInt32 = 65534, hostname: String = "sentinel"
    ) {
        self.name = name
        self.description = description
        self.filesystem = filesystem
        self.environment = environment
        self.network = network
        self.seccomp = seccomp
        self.limits = limits
        self.secrets = secrets
        self.uid = uid
        self.gid = gid
        self.hostname = hostname
    }
}

extension Profile {
    /// The host paths every profile shows read-only unless it says otherwise.
    public static let defaultReadOnly = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"]

    /// Secrets under the default read-only paths that no sandbox may read.
    public static let defaultHidden = [
        "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers", "/etc/sudoers.d",
        "/etc/ssh", "/etc/ssl/private", "/etc/security/opasswd", "/etc/machine-id",
    ]

    /// The built-in `minimal` profile, used when no profiles directory can be found.
    public static let minimal = Profile(
        name: "minimal",
        description: "No network, read-only workspace, tight limits.",
        filesystem: Filesystem(
            readOnly: defaultReadOnly, hidden: defaultHidden, tmpfs: ["/tmp": 64 << 20],
            workspace: .ro),
        environment: Environment(
            allow: ["TERM", "LANG", "LC_*", "TZ"],
            set: ["PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": "/tmp"]),
        network: Network(mode: .none),
        seccomp: .default,
        limits: Limits(
            memoryBytes: 512 << 20, pids: 128, cpus: 1, timeoutSeconds: 300,
            fileSizeBytes: 64 << 20, openFiles: 256, outputBytes: 16 << 20,
            workspaceSizeBytes: 256 << 20)
    )
}
