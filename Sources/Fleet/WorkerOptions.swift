import Store

/// How a worker runs.
public struct WorkerOptions: Sendable {
    /// The `sentinel` binary jobs run (the worker's own executable).
    public var executable: String
    /// Jobs run at once.
    public var concurrency = 1
    /// A lease lasts this long unless renewed; a dead worker's jobs come back after it.
    public var leaseSeconds = 30.0
    /// The longest one job may run before it is stopped and retried.
    public var jobTimeout = 3600.0
    /// After SIGTERM, running jobs have this long to finish; then they are stopped and released.
    public var drainSeconds = 60.0
    /// Backoff between attempts.
    public var retry = RetryPolicy()
    /// Environment the jobs see (the worker's, less its database credentials).
    public var environment: [String: String] = [:]
    /// This worker's name in leases and logs (`host:pid`).
    public var name: String
    /// Directories (real paths) a job's local repository (a path or a `file://` URL) must be inside;
    /// empty runs no local repository, only remote URLs. Anyone who can submit could otherwise have
    /// any directory of this machine scanned and read the findings.
    public var repositoryRoots: [String] = []
    /// Where DAST jobs may point (`host`, `host:port`, `*.domain`); empty runs no DAST job.
    /// Anyone who can submit could otherwise have the worker crawl its own loopback or network
    /// and read back what it found.
    public var dastTargets: [String] = []
    /// Hosts (`host` or `host:port`) a job's remote URL may be cloned from (`--clone-host`);
    /// empty clones no remote. Anyone who can submit could otherwise have the worker fetch from
    /// any server it can reach, its own network included.
    public var cloneHosts: [String] = []
    /// The most seconds one clone may take (`--clone-timeout`).
    public var cloneSeconds = 600.0
    /// The most bytes one clone may write (`--clone-max-size`).
    public var cloneBytes: UInt64 = 2 << 30
    /// The file holding the key that authenticates shared heal memory (`--memory-key`); nil:
    /// `SENTINEL_MEMORY_KEY_FILE`, else the state directory's `memory.key`. Every worker of a fleet
    /// holds the same key; submitters must not.
    public var memoryKeyFile: String?
    /// Hand a job its local repository by the path the worker checked instead of the worker's
    /// descriptor: in root's analysis sandbox, where the repository roots are lent read-only and
    /// the launch broker opens every path a job's launches name beneath its own descriptor of the
    /// root (no link followed); a descriptor path of the worker's means nothing to the broker.
    public var repositoriesByPath = false
    /// Where the worker makes its own scratch directory, which holds its jobs' (`WorkerScratch`);
    /// nil: `$TMPDIR`, else /tmp.
    public var scratchRoot: String?
    /// The key the worker links the fleet's audit chain with, and where it keeps its head files.
    public var audit: FleetAuditState
    /// How long a worker's head files may lag its appends (`FleetAuditState.headFileLag`): they
    /// are written when it goes idle and when it stops too.
    public static let auditHeadFileLag = 0.5

    /// Where an approved heal patch is opened as a pull request (nil: committed on a branch only).
    public var publisher: FleetPublisher?

    /// Options for a worker running `executable`, named `name`, auditing with `audit`.
    public init(executable: String, name: String, audit: FleetAuditState) {
        self.executable = executable
        self.name = name
        self.audit = audit
    }

    /// How many renewals a lease's length holds: three, so two may be late before it expires.
    /// Tests raise it, so that a short lease keeps ten times its renewal interval of slack on a
    /// loaded machine.
    var renewalsPerLease: Double = 3

    /// How often a running job's lease is renewed: `1 / renewalsPerLease` of its length.
    var renewInterval: Double { max(0.05, leaseSeconds / renewalsPerLease) }
}
