#if canImport(Glibc)
    import Glibc
#endif
import Adapters
import Autonomy
import CLICore
import Foundation
import SAST
import Sandbox
import ScanCore
import Support

/// "Root only launches": a command that reads a repository, started as root, runs again as its
/// own unprivileged analysis in the sandbox, and root keeps only what needs it. The analysis is
/// this same binary with the same arguments, in a sandbox of its own (a leased host uid, no
/// capability, no network, the built-in seccomp filter, a cgroup under root's), with the
/// repository at its own path, read-only and id-shifted so that it reads what the owner can.
/// Root serves it a `LaunchBroker`: the sandboxes it asks for (adapters, git) are root's to
/// launch and `BrokerPolicy`'s to allow; the outputs the command line named were prepared by
/// root and receive the analysis's bytes; the OSV database is lent as a read-only descriptor.
/// Root parses nothing the analysis says beyond the broker's JSON headers.
public struct AnalysisSandbox {
    /// The command and its arguments after the executable (`scan ...`), as given.
    public var arguments: [String]
    /// The repository: mounted read-only at this same path, and a workspace of launches; nil
    /// for a command that has none of its own (a fleet worker: its roots are `readOnlyTrees`).
    public var repository: String?
    /// Where the command starts inside (root's current directory, made there if it is not in the repository).
    public var workingDirectory: String
    /// Files outside the repository the command line named for reading (`--config`, `--baseline`),
    /// bound read-only at their paths.
    public var readOnlyFiles: [String] = []
    /// Directories bound read-only for the analysis itself and never for its launches (the
    /// queue server's socket directory: a launch may not reach the queue).
    public var privateReadOnly: [String] = []
    /// Outputs the command line named, prepared by root, by slot name.
    public var slots: [String: @Sendable (Data) throws -> Void] = [:]
    /// Root's files the analysis may read through a descriptor, by name.
    public var resources: [String: String] = [:]
    /// Variables set for the analysis on top of root's environment.
    public var environment: [String: String] = [:]
    /// Fail rather than approximate cgroup limits with rlimits (`--require-limits`).
    public var requireLimits = false
    /// Root's directories the command works in (the state directory, heal's `--out`), lent at
    /// their own paths and idmapped so that the analysis acts on them as their owner.
    public var lent: [LentDirectory] = []
    /// `host:port` entries the analysis may reach through the egress proxy (the LLM, GitHub's
    /// API); none: no network.
    public var egress: [String] = []
    /// Whether root's credentials (variables `Redactor.isSecretName` knows) reach the analysis:
    /// withheld from a scan; passed to a heal, which must redact them wherever a signal quotes
    /// them and sends with them (GitHub's token). `withheld` variables never pass.
    public var credentials = Credentials.withheld

    /// What of root's credentials the analysis gets.
    public enum Credentials: Sendable {
        /// None: a scan needs none.
        case withheld
        /// Those in root's environment (the command redacts and sends with them).
        case passed
    }
    /// `host:port` entries its launches may reach beside the shipped profiles' (the DAST target).
    public var launchEgress: [String] = []
    /// Listening sockets root made for it, by name (`LaunchBroker.Services.sockets`); root
    /// closes them after the run.
    public var sockets: [String: Int32] = [:]
    /// Network pods root made for it, by name (`BrokerPolicy.pods`): its launches may join them.
    public var pods: Set<String> = []
    /// Profiles the command line named beside the shipped ones (`heal --profile FILE`): their
    /// binds, tmpfs places and egress are allowed to launches like the shipped profiles'.
    public var launchProfiles: [Profile] = []
    /// Relay root's standard input (`heal --signal -`).
    public var interactive = false
    /// Whether its launches may write the repository (through the launcher's commit): a commit
    /// root's command line may ask for (`heal` as actor, `proposals approve`).
    public var writableRepository = false
    /// Give it a directory of its own on the host as `TMPDIR` (made by root, lent writable,
    /// removed after): the trees heal verifies candidates in, which its launches mount.
    public var scratch = false
    /// Directories lent read-only at their own paths in which launches may also mount
    /// workspaces and read-only directories (by descriptor): a fleet worker's repository roots.
    public var readOnlyTrees: [String] = []
    /// Share root's network namespace instead of having none or the proxy: a fleet worker talks
    /// to its queue's server and serves metrics. Its launches may then reach any host through
    /// their own proxies (`BrokerPolicy.allowsAnyEgress`): the worker could itself.
    public var sharesHostNetwork = false
    /// Pass root's database settings (`WithheldVariables.database`): the fleet worker holds the
    /// queue connection. Its own jobs still never get them.
    public var passesDatabaseSettings = false
    /// The analysis's limits (a fleet worker runs without a deadline).
    public var sandboxLimits = AnalysisSandbox.limits
    /// Launches the broker runs at once for it.
    public var concurrentLaunches = 4
    /// Signals passed on before one more ends it at once (`SignalForwarding`): one ends the
    /// analysis (its command stops as a whole); more are delivered to it (a fleet worker drains
    /// on the first, releases its jobs on the second).
    public var forwardedSignals = 1
    /// How long after the last signal passed on the analysis may take to end.
    public var signalGrace = SignalForwarding.defaultGrace
    /// A directory root made for it already, used as `scratch` (root put files the analysis
    /// reads there first: copies of keys the operator named); removed after.
    public var scratchDirectory: String?

    /// An analysis of `repository` running `arguments`.
    public init(arguments: [String], repository: String?, workingDirectory: String) {
        self.arguments = arguments
        self.repository = repository
        self.workingDirectory = workingDirectory
    }

    /// Where, inside the repository, the analysis is to start (it enters it itself).
    public static let cwdVariable = "SENTINEL_ANALYSIS_CWD"

    /// In the analysis: enters the directory root started in, when root named one. Throws
    /// `.invalidInput` when the sandbox may not enter it (another user's private directory).
    public static func enterStartDirectory() throws {
        guard LaunchBrokerClient.isActive, let directory = ProcessInfo.processInfo.environment[cwdVariable] else { return }
        guard chdir(directory) == 0 else {
            throw SentinelError(
                .invalidInput, "\(directory): the unprivileged analysis cannot enter it: \(Errno.current)", errno: .current)
        }
    }

    /// Whether a command started now must run as a separate analysis: as root, and not already
    /// inside one.
    public static var applies: Bool { geteuid() == 0 && !LaunchBrokerClient.isActive }

    /// Variables root's environment never passes on, beside every credential by its name
    /// (`Redactor.isSecretName`): database settings, agents and files that hold or reach keys.
    static let withheld = WithheldVariables.database.union(WithheldVariables.keyAccess)

    /// Whether root's variable `name` reaches the analysis.
    static func passes(_ name: String) -> Bool {
        !withheld.contains(name) && !Redactor.isSecretName(name)
    }

    /// The directories root's `SENTINEL_RULES` names, made absolute from root's working directory;
    /// none when it is not set (the install's own rules are lent with the binary).
    static func configuredRuleDirectories(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        guard environment["SENTINEL_RULES"] != nil else { return [] }
        return RuleLocations.standard(environment: environment).filter { !$0.isEmpty }.map(absolute)
    }

    /// Whether root's variable `name` reaches this analysis.
    func passes(_ name: String) -> Bool {
        if passesDatabaseSettings, WithheldVariables.database.contains(name) { return true }
        return credentials == .passed ? !Self.withheld.contains(name) : Self.passes(name)
    }

    /// What launches the analysis asks for may use at most: its own limits, with output held to
    /// 128 MiB a stream (root holds a launch's output until the analysis takes it).
    static var launchCeiling: Profile.Limits {
        var limits = Self.limits
        limits.outputBytes = 128 << 20
        return limits
    }

    /// The analysis sandbox's limits, and the ceiling of every launch it asks for.
    public static let limits = Profile.Limits(
        memoryBytes: 8 << 30, pids: 1024, cpus: nil, timeoutSeconds: 12 * 3600, fileSizeBytes: 2 << 30,
        openFiles: 4096, outputBytes: 1 << 30, workspaceSizeBytes: 4 << 30)

    /// The analysis's profile: the system trees read-only, a private /tmp, no network but the
    /// `egress` hosts through the proxy.
    /// `hostWritable`: a lent directory or the scratch directory is writable, so the filter is
    /// the built-in one; otherwise nothing it writes reaches the host, and `openat2` is allowed
    /// (one call per file read instead of one per path component).
    static func profile(
        readOnly: [String], egress: [String] = [], hostWritable: Bool = true, limits: Profile.Limits = AnalysisSandbox.limits
    ) -> Profile {
        Profile(
            name: "analysis",
            description: "Sentinel's own analysis of a repository, started by root: read-only, no network",
            filesystem: .init(
                readOnly: Profile.defaultReadOnly + readOnly, hidden: Profile.defaultHidden, tmpfs: ["/tmp": 1 << 30],
                workspace: .ro),
            environment: .init(allow: [], set: [:]),
            network: egress.isEmpty ? .init(mode: .none) : .init(mode: .proxy, allow: egress, maxConnections: 16),
            seccomp: hostWritable ? .default : .defaultWithOpenat2,
            limits: limits)
    }

    /// Where root's scratch directories for an analysis go: beside the state directory when this
    /// environment has one (``StateDirectory/launcherScratchPath``), else `$TMPDIR`. A `kill -9`
    /// of root leaves one behind (a heal's snapshot holds the repository); the next launch and
    /// `sentinel doctor` sweep it there.
    ///
    /// Where the sandbox cannot show that place (root's default state lies beneath `/root/.local`,
    /// a directory below a system tree that no launch may mount), `$TMPDIR` it stays: a private
    /// 0700 directory of root's there under a name nobody can compute (`mkdtemp`), swept the same
    /// way. So it does too when that place is not root's own: `$SENTINEL_HOME` in a shared `/tmp`
    /// (README's CI recipe) lets another user make `/tmp/sentinel.scratch` first, and a directory
    /// or link of hers there must not stop root's run (issue 78, W3).
    static func launcherScratchBase() throws -> String? {
        guard let state = try? StateLocation.current(),
            let base = try? ScratchDirectory.privateBase(state.launcherScratchPath)
        else { return nil }
        guard (try? WorkspaceDirectory(resolving: base)) != nil else {
            ScratchDirectory.removeIfEmpty(base)
            return nil
        }
        return base
    }

    /// Why the analysis sandbox could not be set up for this command, before anything of the
    /// repository was read: the host makes no sandbox (a chroot, a container that refuses user
    /// namespaces). Decided by the host, never by what the repository holds or where it lies: a
    /// place the analysis cannot show (`/tmp` itself, a system tree) is refused, not read as root.
    public struct Unavailable: Error {
        /// The sandbox's or the path's own error.
        public var reason: String

        /// Says on stderr that root goes on with `activity` itself ("analysing", "healing"), why,
        /// and how to have the sandbox instead: the one wording every command started as root uses.
        public func warnRootGoesOn(_ activity: String) {
            Console.error(
                "sentinel: warning: \(activity) as root: no unprivileged analysis sandbox here (\(reason)); "
                    + "started as another user Sentinel confines its work in its own sandbox (in a container: "
                    + "--user UID --security-opt unmask=ALL, see docs/install.md)")
        }
    }

    /// Runs the analysis to its end and returns the status to exit with (the analysis's own).
    /// Throws `Unavailable` when its sandbox cannot be made, `SentinelError` when the sandbox
    /// ended it (time, memory).
    public func run() throws -> Int32 {
        defer { sockets.values.forEach { close($0) } }
        do {
            return try runInSandbox()
        } catch let error as SentinelError where Self.isHostLevel(error) {
            throw Unavailable(reason: error.message)
        } catch let error as SentinelError where Self.isOperatorsPath(error) {
            // A host that runs no sandbox at all (a chroot, a container refusing user namespaces)
            // analyses as root whatever the path, as documented; elsewhere `/etc`, `/root`, `/tmp`
            // itself are refused: root reading them would read what only root may (issue 54:
            // `heal --repo /etc` verified against a copy holding /etc/shadow).
            if HostSupport.sandboxRuns().level != .ok { throw Unavailable(reason: error.message) }
            throw SentinelError(
                .invalidInput,
                "\(error.message); started as root, Sentinel reads a repository only in its unprivileged analysis, which cannot show this place (copy it elsewhere, or run as another user)"
            )
        } catch let error as SentinelError where error.code == .sandboxSetup {
            // A step the repository's own directories take part in (chdir, a mount over the
            // tree): failing it must not hand the repository to root.
            throw SentinelError(.toolFailed, "the analysis sandbox could not start: \(error.message)", errno: error.errno)
        }
    }

    /// Launch stages only the host decides: namespaces, id maps, the network namespace, and
    /// cloning or idmapping the workspace's mount (its filesystem, not what it holds).
    static let hostStages: Set<String> = [
        "clone", "write setgroups", "write uid_map", "write gid_map", "idmap user namespace", "unshare(CLONE_NEWCGROUP)",
        "open_tree(workspace)", "mount_setattr(workspace)", "network namespace thread", "unshare(CLONE_NEWNET)",
        "open network namespace", "setns(network namespace)", "cgroup attach",
    ]

    /// Whether `error` came from the host, before any step the repository's contents take part
    /// in: the only failures that may fall back to root.
    static func isHostLevel(_ error: SentinelError) -> Bool {
        guard error.code == .sandboxSetup else { return false }
        return error.stage.map(hostStages.contains) ?? true
    }

    /// Whether `error` is about a path the operator named (a repository, a root to lend) that
    /// the analysis cannot show, found before anything in it was read.
    static func isOperatorsPath(_ error: SentinelError) -> Bool {
        error.code == .invalidInput && error.stage == nil
    }

    private func runInSandbox() throws -> Int32 {
        // Before the broker's threads start: they inherit the mask that leaves the signals to
        // the forwarding thread (one that did not would die of the first SIGTERM, skipping every
        // cleanup: the scratch directory, --out).
        let handle = LaunchHandle()
        let delivers = forwardedSignals > 1
        let forwarding = SignalForwarding(
            signals: [SIGINT, SIGTERM, SIGHUP], grace: signalGrace, forwarded: forwardedSignals,
            forward: { signal in delivers ? handle.deliver(signal: signal) : handle.terminate(signal: signal) },
            abandon: { handle.abandon(signal: $0) })
        defer { forwarding.cancel() }
        let repositoryDirectory = try repository.map { try WorkspaceDirectory(resolving: $0) }
        let shown = repositoryDirectory?.path
        guard let executable = DataDirectory.runningExecutable() else {
            throw SentinelError(.io, "/proc/self/exe: cannot tell which binary runs")
        }
        // The binary, its runtime, its data (rules, profiles) and the tools it would run, at
        // their own paths: the analysis finds them as it would outside.
        var install = [executable] + RuntimeLibraries.directories()
        for (name, marker) in [("rules", "python"), ("profiles", "minimal.yaml")] {
            install += DataDirectory.candidates(named: name, containing: marker).prefix(1)
        }
        // The tools venv, and Wapiti's beside it (its own venv: its pins clash with Semgrep's).
        let tools = ScanContext.defaultToolsDirectory
        for venv in [tools, WapitiScanner.defaultDirectory(besides: tools)] where access(venv, F_OK) == 0 {
            install.append(venv)
            if let real = OutputPlacement.realPath(venv), real != venv { install.append(real) }
        }
        // The rule directories root's `SENTINEL_RULES` names (the operator's choice, as the install's
        // own rules are): lent read-only at their own paths, each exactly, so that the analysis
        // reads the rules root was told to use. One that is not a directory is left to the
        // analysis to report ("no such rule directory"), as it would be outside.
        let ruleDirectories = Self.configuredRuleDirectories()
        install += ruleDirectories.filter { directory in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        install = install.filter { path in !Profile.defaultReadOnly.contains { path == $0 || path.hasPrefix($0 + "/") } }

        // What its launches may bind, mount and must hide: root's own choices only.
        var policy = BrokerPolicy(repository: repositoryDirectory, shownAt: shown ?? "/", ceiling: Self.launchCeiling)
        policy.allowsAnyEgress = sharesHostNetwork
        var lent = self.lent
        for tree in readOnlyTrees {
            let directory = try WorkspaceDirectory(resolving: tree)
            policy.trees.append(.init(directory: directory, shownAt: directory.path, writable: false))
            lent.append(LentDirectory(path: directory.path, writable: false))
        }
        let shipped = ProfileStore.standard(syntax: .yaml)
        let profiles = shipped.list().compactMap { try? shipped.resolve($0.name) } + launchProfiles
        policy.readOnlyRoots.formUnion(install + profiles.flatMap(\.filesystem.readOnly) + readOnlyFiles)
        policy.tmpfsPlaces.formUnion(profiles.flatMap(\.filesystem.tmpfs.keys))
        policy.hidden = Array(Set(Profile.defaultHidden + profiles.flatMap(\.filesystem.hidden))).sorted()
        policy.allowedEgress.formUnion(profiles.flatMap(\.network.allow))
        policy.allowedEgress.formUnion(launchEgress)
        policy.writableRepository = writableRepository
        policy.pods = pods
        var scratchPath: String?
        var scratchShown: String?
        // Removed after the analysis's sandbox (and all it ran) has ended.
        defer { if let scratchPath { ScratchDirectory.remove(scratchPath) } }
        if scratch || scratchDirectory != nil {
            let made = try scratchDirectory ?? ScratchDirectory.make(prefix: "sentinel-analysis", in: Self.launcherScratchBase())
            scratchPath = made
            let directory = try WorkspaceDirectory(resolving: made)
            policy.trees.append(.init(directory: directory, shownAt: directory.path, writable: true))
            scratchShown = directory.path
            lent.append(LentDirectory(path: directory.path, writable: true))
        }
        // No update of the OSV database commits while the analysis reads its mapping of it.
        // Held only where the database is lent by descriptor (a scan's, a heal's): an analysis that
        // reaches it through the lent state directory (a worker, `db update`/`import`) takes
        // SQLite's own locks, so that imports are not held off for its whole life.
        let osvHold = resources[AnalysisResources.osvDatabaseName].flatMap(OSVReadHold.init(path:))
        defer { withExtendedLifetime(osvHold) {} }
        var services = LaunchBroker.Services(policy: policy, slots: slots, resources: resources)
        services.sockets = sockets
        services.concurrentLaunches = concurrentLaunches
        // This user's own directory of brokers, where its socket's path is short enough.
        let brokers = "sentinel-brokers-\(geteuid())"
        if LaunchBroker.socketFits(in: services.scratchBase + "/" + brokers) {
            services.scratchBase = ScratchDirectory.ownBase(brokers, in: services.scratchBase)
        }
        let broker = try LaunchBroker(services: services)
        defer { broker.stop() }
        // Files in the repository are there already (and a bind there would cover its own).
        let bound =
            install + [broker.socketPath] + privateReadOnly
            + readOnlyFiles.filter { file in shown.map { !(file == $0 || file.hasPrefix($0 + "/")) } ?? true }

        var environment = ProcessInfo.processInfo.environment.filter { passes($0.key) }
        environment.merge(self.environment) { _, set in set }
        environment[LaunchBroker.environmentVariable] = broker.socketPath
        environment[LaunchBrokerClient.commandVariable] = "1"
        environment[ProposalRecovery.launcherVariable] = "\(getpid()) on \(ProcessInfo.processInfo.hostName)"
        environment["HOME"] = "/tmp"
        environment["TMPDIR"] = scratchShown ?? "/tmp"
        // Absolute, so that the analysis's own working directory does not change what they name.
        if !ruleDirectories.isEmpty, environment["SENTINEL_RULES"] != nil {
            environment["SENTINEL_RULES"] = ruleDirectories.joined(separator: ":")
        }

        var request = SandboxRequest(
            profile: Self.profile(readOnly: [], egress: egress, hostWritable: lent.contains(where: \.writable), limits: sandboxLimits),
            command: [executable] + arguments, workspace: shown,
            extraReadOnly: Array(Set(bound)).sorted(), environment: environment, output: .inherit)
        if let shown { request.workspaceMountPoint = shown }
        request.sharesHostNetwork = sharesHostNetwork
        request.lent = lent
        request.interactive = interactive
        // On root's terminal the analysis gets a terminal of its own, relayed through the
        // launcher's filter (only what it understands reaches root's terminal; progress is drawn).
        request.terminal = !interactive && isatty(0) == 1 && isatty(1) == 1 && isatty(2) == 1
        // Inside the repository the analysis enters its directory itself (`cwdVariable`): a
        // directory of the repository that the sandbox may not enter must fail the analysis,
        // not the launch (which would fall back to root).
        if let shown, workingDirectory == shown || workingDirectory.hasPrefix(shown + "/") {
            request.workingDirectory = shown
            request.environment[Self.cwdVariable] = workingDirectory
        } else {
            request.workingDirectory = workingDirectory
        }
        request.requireLimits = requireLimits
        request.onNotice = { Console.noticeOnce($0) }
        request.handle = handle
        let result = try SandboxSession.run(request)
        switch result.reason {
        case .exited:
            return result.exitCode
        case .signaled:
            return 128 + (result.signal ?? 9)
        case .setupFailed:
            throw SentinelError(.toolFailed, "the analysis sandbox could not start (\(result.stage ?? "setup"))")
        case .timeout, .oom:
            throw SentinelError(.toolFailed, "the analysis sandbox ended the run (\(result.reason.rawValue))")
        }
    }
}
