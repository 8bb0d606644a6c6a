import Support

#if canImport(Glibc)
    import Glibc
#endif

/// A running egress proxy the launcher stops when the sandbox tree has ended.
public protocol EgressService: AnyObject, Sendable {
    /// Stops serving and returns every decision made.
    func finish() -> [EgressSummary]
}

/// How to run a plan: output handling, limits, and the egress hook.
public struct LaunchOptions: Sendable {
    /// What happens to the payload's stdio.
    public enum Output: Sendable {
        /// stdout and stderr are relayed to the caller's as they arrive, through pipes (or the
        /// pty with `terminal`); stdin is /dev/null unless `interactive`. The payload never
        /// holds the caller's file descriptions, so it cannot seek, truncate or re-flag them.
        case inherit
        /// stdin is /dev/null; stdout and stderr are captured up to `outputLimit` bytes each.
        case capture
    }

    /// Relay or capture the payload's stdio.
    public var output: Output
    /// With `.capture`: most bytes kept of stdout and of stderr, each (16 MiB by default).
    public var outputLimit: UInt64
    /// Wall-clock limit; the tree is killed at it (nil: none).
    public var timeoutSeconds: Double?
    /// Memory, pids and cpu limits (a cgroup, else the rlimit fallback).
    public var cgroupLimits: CgroupLimits
    /// The seccomp filter: the built-in allow-list, an OCI profile, or none.
    public var seccomp: Profile.Seccomp
    /// Port of the proxy listener inside the sandbox; 0 for none.
    public var proxyPort: Int
    /// Serves the listening socket the sandbox hands back (called with its descriptor).
    public var startEgress: (@Sendable (Int32) throws -> any EgressService)?
    /// Where the cgroup hierarchy is mounted (tests point it at a fake cgroupfs).
    public var cgroupRoot: String
    /// Told about problems that do not stop the run (special files skipped at commit-back).
    public var onWarning: @Sendable (String) -> Void
    /// Stops the run from another thread.
    public var handle: LaunchHandle?
    /// Appended to the cgroup's name, so a caller (a test) can find exactly its groups.
    public var cgroupLabel: String?
    /// Fail the setup (stage `limits`) rather than approximate memory/pids/cpu with rlimits
    /// when no cgroup can be made (`--require-limits`).
    public var requireLimits = false
    /// Told, at every run that falls back to rlimits, what is approximated and what is not
    /// enforced; the CLI prints it once per command.
    public var onNotice: @Sendable (String) -> Void = { _ in }
    /// `.inherit` only: relay the caller's stdin to the payload (`-i`).
    public var interactive = false
    /// `.capture` only: the payload's stdin holds these bytes (a sealed memfd) instead of /dev/null.
    public var input: [UInt8]?
    /// `.inherit` only: the payload's stdin, stdout and stderr are a pty of the sandbox's own
    /// devpts, its controlling terminal (`-t`); the plan must come from a `LaunchRequest`
    /// with `terminal` set. The caller's terminal is raw while `interactive` relays it.
    public var terminal = false
    /// A root launcher's lease on the plan's payload host id: the `Launcher` confirms that the
    /// user and group database do not know the id before it releases the payload.
    var hostIDLease: HostIDLease?
    /// A root launcher's network namespace, being made while the launch is planned; nil: the
    /// clone makes it.
    var preparedNetwork: PreparedNetworkNamespace?

    /// Options with every limit given explicitly; `init(profile:output:)` takes them from a profile.
    public init(
        output: Output = .capture, outputLimit: UInt64 = 16 << 20, timeoutSeconds: Double? = nil,
        cgroupLimits: CgroupLimits = CgroupLimits(), seccomp: Profile.Seccomp = .default, proxyPort: Int = 0,
        startEgress: (@Sendable (Int32) throws -> any EgressService)? = nil,
        cgroupRoot: String = "/sys/fs/cgroup",
        onWarning: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.output = output
        self.outputLimit = outputLimit
        self.timeoutSeconds = timeoutSeconds
        self.cgroupLimits = cgroupLimits
        self.seccomp = seccomp
        self.proxyPort = proxyPort
        self.startEgress = startEgress
        self.cgroupRoot = cgroupRoot
        self.onWarning = onWarning
    }

    /// Options that enforce a profile's limits and seccomp setting.
    public init(profile: Profile, output: Output = .capture) {
        self.init(
            output: output, outputLimit: profile.limits.outputBytes ?? 16 << 20,
            timeoutSeconds: profile.limits.timeoutSeconds,
            cgroupLimits: CgroupLimits(
                memoryBytes: profile.limits.memoryBytes, pids: profile.limits.pids,
                cpus: profile.limits.cpus),
            seccomp: profile.seccomp)
    }
}

extension LaunchOptions.Output: Equatable {}
