import ArgumentParser
import CLICore
import Dispatch
import Autonomy
import Fleet
import Foundation
import Heal
import Sandbox
import Store
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// `sentinel fleet worker`: claims and runs jobs until SIGTERM, then finishes (or, after --drain,
/// releases) the running ones.
struct FleetWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Claim and run queued jobs until SIGTERM; logs JSON lines on standard error.",
        discussion:
            "SIGTERM stops claiming and lets running jobs finish for --drain, then stops and releases them; a second SIGTERM releases them at once."
    )
    @OptionGroup var database: FleetDatabaseOptions
    @OptionGroup var audit: FleetAuditOptions
    @OptionGroup var publish: FleetPublishOptions
    @Option(help: "Jobs run at once.") var concurrency = 1
    @Option(help: "Lease length: a dead worker's jobs return after it.") var lease: DurationArgument = "30s"
    @Option(
        name: .customLong("job-timeout"),
        help: "Stop and retry a job that runs longer; a heal's fix awaiting approval waits at most until then.")
    var jobTimeout: DurationArgument = "1h"
    @Option(help: "After SIGTERM, how long running jobs may finish.") var drain: DurationArgument = "60s"
    @Option(name: .customLong("retry-base"), help: "Backoff after a first failed attempt, doubling each time.")
    var retryBase: NonNegativeDurationArgument = "10s"
    @Option(
        name: .customLong("retry"),
        help: ArgumentHelp(
            "Retry a failure class (invalid, timeout, checkout, tool, lease-expired, infrastructure) up to ATTEMPTS attempts in all (0: never, failed at once; never more than the job's --max-attempts), with a backoff from BASE doubling to CAP, fully jittered (repeatable; e.g. checkout=8:30s:1h). Defaults: invalid=0, timeout=2, the rest the job's maximum, from --retry-base to 1h.",
            valueName: "class=attempts[:base[:cap]]"))
    var retryRules: [RetryRuleArgument] = []
    @Option(help: ArgumentHelp("Serve Prometheus metrics at http://127.0.0.1:PORT/metrics (0: a free port, logged).", valueName: "port"))
    var metrics: Int?
    @Option(help: "This worker's name in leases and logs (default: host:pid).") var name: String?
    @Flag(help: "Also run the scheduler (one scheduler leads fleet-wide; the others wait).") var schedule = false
    @Option(
        name: .customLong("repository-root"),
        help: ArgumentHelp(
            "Run jobs whose local repository (a path or file:// URL) is inside this directory (repeatable). Without it the worker runs no local repository, only remote URLs.",
            valueName: "dir"))
    var repositoryRoots: [String] = []
    @Option(
        name: .customLong("dast-target"),
        help: ArgumentHelp(
            "Run DAST jobs only against this host (host, host:port or *.domain; repeatable). Without it the worker runs no DAST job.",
            valueName: "host"))
    var dastTargets: [String] = []
    @Option(
        name: .customLong("clone-host"),
        help: ArgumentHelp(
            "Clone remote repositories (http or https URLs) only from this host (host, host:port or *.domain; repeatable). Without it the worker clones no remote; ssh is never cloned.",
            valueName: "host"))
    var cloneHosts: [String] = []
    @Option(
        name: .customLong("clone-timeout"),
        help: ArgumentHelp("Fail a clone that takes longer (the job is retried).", valueName: "duration"))
    var cloneTimeout: DurationArgument = "10m"
    @Option(
        name: .customLong("clone-max-size"),
        help: ArgumentHelp("Fail a job whose clone writes more (at least 1M; default: 2G).", valueName: "size"))
    var cloneMaxSize: SizeArgument?
    @Option(
        name: .customLong("memory-key"),
        help: ArgumentHelp(
            "The key that authenticates shared heal memory (default: SENTINEL_MEMORY_KEY_FILE, else the state directory's memory.key, made on first use). Every worker of a fleet needs the same key; submitters must not be able to read it.",
            valueName: "file"))
    var memoryKey: String?

    func run() throws {
        let url = try database.resolve()
        guard (1...256).contains(concurrency) else { throw SentinelError(.invalidInput, "--concurrency: must be 1 to 256") }
        // An operator's chain is written by its login alone (issue 78, W9): a worker of that name could extend none.
        if let name, name.hasPrefix(FleetAudit.operatorChainPrefix) {
            throw SentinelError(.invalidInput, "--name: 'operator:' begins an operator's audit chain; a worker's name cannot")
        }
        let executable = try SelfExecutable.path()
        var options = WorkerOptions(
            executable: executable, name: name ?? Self.defaultName(), audit: try audit.open(headFileLag: WorkerOptions.auditHeadFileLag))
        options.concurrency = concurrency
        options.leaseSeconds = lease.seconds
        options.jobTimeout = jobTimeout.seconds
        options.drainSeconds = drain.seconds
        options.retry = RetryPolicy(
            base: retryBase.seconds, rules: Dictionary(retryRules.map { ($0.failure, $0.rule) }, uniquingKeysWith: { $1 }))
        // The worker's jobs are commands of their own: their outputs are their own files.
        options.dastTargets = dastTargets
        for host in cloneHosts where host.isEmpty || host.contains(where: { "/@?#% ".contains($0) }) {
            throw SentinelError(.invalidInput, "--clone-host: '\(host)' is not host, host:port or *.domain")
        }
        options.cloneHosts = cloneHosts
        options.cloneSeconds = cloneTimeout.seconds
        if let cloneMaxSize {
            guard cloneMaxSize.bytes >= 1 << 20 else { throw SentinelError(.invalidInput, "--clone-max-size: must be at least 1M") }
            options.cloneBytes = cloneMaxSize.bytes
        }
        options.environment = ProcessInfo.processInfo.environment.filter { $0.key != LaunchBrokerClient.commandVariable }
        (options.publisher, options.environment) = try publish.resolve(environment: options.environment)
        options.repositoryRoots = try repositoryRoots.map { root in
            guard let real = OutputPlacement.realPath(root) else {
                throw SentinelError(.invalidInput, "--repository-root: \(root): no such directory")
            }
            return real
        }
        if AnalysisSandbox.applies {
            do {
                throw ExitCode(try separatedWorker(url: url, roots: options.repositoryRoots))
            } catch let unavailable as AnalysisSandbox.Unavailable {
                unavailable.warnRootGoesOn("working")
            }
        }
        options.repositoriesByPath = LaunchBrokerClient.isActive
        // A key file that is missing, malformed or not private fails now (exit 2), not at the first heal.
        let key = try MemoryKey.resolve(file: memoryKey, environment: options.environment, state: StateLocation.current())
        options.memoryKeyFile = memoryKey.map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
        // Fails now, with one line, when the database cannot be reached or its audit chain has another key,
        // or when this worker's own chain (its name) is one it may not extend: every outcome would be refused.
        // Its own connection, closed before the worker starts: held for the worker's life it was a
        // third session per worker where docs/fleet.md says two (issue 81).
        try withExtendedLifetime(try JobQueue(url: url)) { startQueue in
            try FleetAudit(queue: startQueue, state: options.audit).checkKey()
            try FleetAudit(queue: startQueue, state: options.audit, chain: options.name).checkTail()
        }
        let log = JSONLog()
        log.info("memory.key", [LogField("id", .string(key.key.id)), LogField("file", .string(key.path))])
        let worker = FleetWorker(url: url, options: options, log: log)
        let server = try metrics.map { port in
            try OptionValue.naming("--metrics") { try MetricsServer(registry: worker.metrics.registry, port: port) }
        }
        if let server { log.info("metrics.serving", [LogField("url", .string("http://127.0.0.1:\(server.port)/metrics"))]) }
        let stop = worker.stop
        let drainSeconds = options.drainSeconds
        let signals = StopSignals.observe { count in
            stop.advance(to: count == 1 ? .draining : .abandoning)
            if count == 1 {
                log.info("worker.draining", [LogField("seconds", .double(drainSeconds))])
                DispatchQueue.global().asyncAfter(deadline: .now() + drainSeconds) { stop.advance(to: .abandoning) }
            }
        }
        if schedule {
            let scheduler = FleetScheduler(url: url, name: options.name, log: log, stop: stop)
            Thread.detachNewThread { scheduler.run() }
        }
        worker.run()
        server?.stop()
        withExtendedLifetime(signals) {}
        if let newer = worker.schemaNewer {
            throw SentinelError(.database, "worker \(options.name) stopped claiming: \(newer); upgrade sentinel on this machine")
        }
        if let refusal = worker.refusedChain {
            throw SentinelError(
                .auditChain,
                "worker \(options.name) stopped claiming: its audit chain refused an outcome (\(refusal)); run `sentinel fleet audit verify`"
            )
        }
    }

    /// `host:pid`; in root's analysis, root's (the analysis's own would be its sandbox's).
    static func defaultName() -> String {
        if let launcher = ProcessInfo.processInfo.environment[ProposalRecovery.launcherVariable] {
            let parts = launcher.split(separator: " on ", maxSplits: 1)
            if parts.count == 2 { return "\(parts[1]):\(parts[0])" }
        }
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        return String(nulTerminated: host) + ":\(getpid())"
    }
}
