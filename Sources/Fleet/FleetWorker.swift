import Audit
import Digest
import Foundation
import Store
import Support
import Synchronization

/// A fleet worker: `concurrency` threads sharing one database connection (`WorkerConnection`),
/// claiming jobs (woken through the worker's one listening connection on PostgreSQL), running
/// them (`JobExecution`) and recording the outcome; one heartbeat renews every lease the worker
/// holds. Any worker returns expired leases to the queue. A database that goes away (a restart)
/// is waited for: statements are retried after reconnecting, and running jobs keep running meanwhile.
public final class FleetWorker: Sendable {
    let url: DatabaseURL
    let options: WorkerOptions
    let log: JSONLog
    /// The worker's metrics (serve `metrics.registry` on `/metrics`).
    public let metrics: WorkerMetrics
    /// Set it to stop the worker (SIGTERM: `draining`; a second one: `abandoning`).
    public let stop: StopState
    let memory: MemorySync
    /// The one connection the slots, the heartbeat and the jobs share.
    let connection: WorkerConnection
    /// When this worker last returned expired leases (whichever slot was free did it).
    /// When this worker last reaped, in monotonic seconds (``MonotonicClock``): every timed wait and
    /// interval of the worker follows a clock that a step of the wall clock cannot move (issue 81:
    /// a backward step stopped a worker reaping expired leases).
    private let lastReap = Mutex(-Double.infinity)
    /// The reaper's watch of the database's clock: a forward step of it does not end the living
    /// workers' leases it jumps past (``DatabaseClockWatch``).
    private let databaseClock: DatabaseClockWatch
    private let chainRefusal = Mutex<String?>(nil)

    /// Why this worker stopped claiming: its audit chain refused an outcome (its stored head moved,
    /// a line edited). Every later outcome would be refused too and left `running` until its lease
    /// expired, so it drains instead of burning the jobs' attempts; nil while it works.
    public var refusedChain: String? { chainRefusal.withLock { $0 } }
    /// Set when the tables were migrated past what this build knows while it ran: it claims no more
    /// jobs (the claim itself checks the version) and drains (``schemaNewer``).
    private let newerSchema = Mutex<String?>(nil)
    /// Why it stopped claiming for a newer schema (`the tables are at migration 9, this worker knows 8`).
    public var schemaNewer: String? { newerSchema.withLock { $0 } }

    /// A worker on the queue at `url`.
    public init(
        url: DatabaseURL, options: WorkerOptions, log: JSONLog, metrics: WorkerMetrics = WorkerMetrics(), stop: StopState = StopState()
    ) {
        self.url = url
        self.options = options
        self.log = log
        self.metrics = metrics
        self.stop = stop
        memory = MemorySync(environment: options.environment, keyFile: options.memoryKeyFile)
        connection = WorkerConnection(url: url, retry: options.retry)
        let worker = options.name
        databaseClock = DatabaseClockWatch { [log] step, window in
            log.warning(
                "clock.stepped",
                [
                    LogField("worker", .string(worker)), LogField("seconds", .double(step)),
                    LogField("hold_seconds", .double(window)),
                ])
        }
    }

    /// What the slots share while the worker runs.
    private struct Runtime: Sendable {
        let listener: FleetListener
        let heartbeat: LeaseHeartbeat
        /// The directory this process's jobs make their scratch directories in.
        let scratch: WorkerScratch?
    }

    /// Runs until `stop` leaves `running` and every running job has finished or been released.
    public func run() {
        log.info(
            "worker.started",
            [
                LogField("worker", .string(options.name)), LogField("database", .string(url.redacted)),
                LogField("concurrency", .int(Int64(options.concurrency))),
            ])
        logMemoryVectors()
        let scratch: WorkerScratch?
        do {
            scratch = try WorkerScratch(root: options.scratchRoot ?? ScratchDirectory.defaultBase, worker: options.name)
            if let scratch, scratch.swept > 0 {
                log.info("scratch.swept", [LogField("worker", .string(options.name)), LogField("directories", .int(Int64(scratch.swept)))])
            }
        } catch {
            // Jobs then make their scratch directories as any command does (swept after an hour).
            scratch = nil
            log.warning("scratch.error", [LogField("worker", .string(options.name)), LogField("error", .string("\(error)"))])
        }
        let listener = FleetListener(
            url: url,
            onError: { [self] error in
                metrics.databaseErrors.increment()
                log.warning("database.error", [LogField("worker", .string(options.name)), LogField("error", .string("\(error)"))])
            },
            onListening: { [self] failures in
                log.info("listener.listening", [LogField("worker", .string(options.name)), LogField("failures", .int(Int64(failures)))])
            })
        let runtime = Runtime(listener: listener, heartbeat: LeaseHeartbeat(connection: connection, options: options), scratch: scratch)
        let group = DispatchGroup()
        for slot in 0..<max(1, options.concurrency) {
            group.enter()
            let thread = Thread { [self] in
                loop(slot: slot, runtime: runtime)
                group.leave()
            }
            thread.name = "fleet-worker-\(slot)"
            thread.start()
        }
        group.wait()
        flushHeads()
        runtime.heartbeat.stop()
        listener.stop()
        scratch?.remove()
        log.info("worker.stopped", [LogField("worker", .string(options.name))])
    }

    private func loop(slot: Int, runtime: Runtime) {
        let owner = options.concurrency > 1 ? "\(options.name)/\(slot)" : options.name
        var lastCounts = -Double.infinity
        var failures = 0
        while stop.current == .running {
            do {
                let reapNow = lastReap.withLock { last in
                    let now = MonotonicClock.seconds()
                    guard now - last >= 1 else { return false }
                    last = now
                    return true
                }
                if reapNow { try reap() }
                if slot == 0, MonotonicClock.seconds() - lastCounts >= 5 {
                    lastCounts = MonotonicClock.seconds()
                    metrics.record(try connection.with { try $0.counts() })
                }
                // Taken before the claim: a submission between the claim and the wait is not missed.
                let seen = runtime.listener.submitted.generation
                let started = MonotonicClock.seconds()
                let claimed = try connection.with { try $0.claim(owner: owner, leaseSeconds: options.leaseSeconds) }
                failures = 0
                guard let job = claimed, let lease = job.lease else {
                    // An empty claim on tables a newer build migrated: this worker is the old one.
                    if slot == 0, let (found, known) = try? connection.with({ try $0.schemaVersion() }), let found, found != known {
                        refuseSchema(found: found, known: known)
                        continue
                    }
                    let due = try connection.with { try $0.secondsUntilNextDue() } ?? 5
                    flushHeads()
                    runtime.listener.wait(runtime.listener.submitted, after: seen, timeout: min(max(due, 0.01), 5))
                    continue
                }
                metrics.claimLatency.observe(MonotonicClock.seconds() - started)
                run(job, lease: lease, runtime: runtime)
            } catch {
                metrics.databaseErrors.increment()
                log.warning("database.error", [LogField("worker", .string(owner)), LogField("error", .string("\(error)"))])
                // At once after a lost session (a job submitted meanwhile waits no longer), then
                // backing off while the server stays away.
                failures += 1
                connection.reconnectIfNeeded()
                Thread.sleep(forTimeInterval: ReconnectDelay.seconds(failures: failures))
            }
        }
    }

    private func run(_ job: Job, lease: JobLease, runtime: Runtime) {
        let kind = MetricLabels([("kind", job.request.kind.rawValue)])
        metrics.claimed.increment(labels: kind)
        log.info("job.claimed", fields(job, [LogField("attempt", .int(Int64(job.attempts)))]))
        metrics.running.add(1)
        let started = MonotonicClock.seconds()
        let keeper = runtime.heartbeat.keep(lease)
        var execution = JobExecution(job: job, lease: lease, options: options, stop: stop, keeper: keeper)
        execution.memory = memory
        execution.listener = runtime.listener
        execution.scratchBase = runtime.scratch?.path
        execution.onMemoryError = { [self] error in
            log.warning("memory.error", fields(job, [LogField("error", .string("\(error)"))]))
        }
        execution.onMemoryDropped = { [self] count in
            let what = "shared heal memory record\(count == 1 ? "" : "s") without a MAC this worker's memory key verifies, not used"
            log.warning(
                "memory.unauthenticated", fields(job, [LogField("dropped", .int(Int64(count))), LogField("message", .string(what))]))
        }
        execution.onAttemptRecordError = { [self] error in
            log.warning("attempt.unrecorded", fields(job, [LogField("error", .string("\(error)"))]))
        }
        execution.onAuditError = { [self] error in
            log.error("audit.refused", fields(job, [LogField("error", .string("\(error)"))]))
        }
        execution.onAwaitingApproval = { [self] job, digest in
            // The digest a person approves with `fleet approve JOB --patch DIGEST`.
            log.info("job.awaiting_approval", fields(job, [LogField("patch", .string(digest))]))
        }
        let outcome = execution.run(connection: connection)
        keeper.stop()
        let elapsed = MonotonicClock.seconds() - started
        metrics.running.add(-1)
        metrics.duration.observe(elapsed, labels: kind)
        metrics.setupSeconds.observe(max(0, elapsed - execution.runSeconds), labels: kind)
        let seconds = LogField("seconds", .double((elapsed * 1000).rounded() / 1000))
        var details = [
            "job": String(job.id), "kind": job.request.kind.rawValue, "repository": job.request.repository, "attempt": String(job.attempts),
        ]
        var inputs = ["spec": SHA256.hex(job.request.spec)]
        // Each outcome is recorded with its entry in this worker's chain, in one transaction.
        let entry = { (event: String) in AuditEntry(event: event, actor: self.options.name, inputs: inputs, details: details) }
        // The attempt's record (its error and log tail, for `fleet show`) commits with the outcome.
        let attempt = execution.attemptRecord(of: outcome)
        persist(job, lease: lease) { queue in
            var audit = FleetAudit(queue: queue, state: options.audit, chain: options.name)
            audit.onHeadFileError = headFileError(job)
            let record = { try queue.recordAttempt(attempt) }
            switch outcome {
            case .succeeded(let result):
                inputs["report"] = SHA256.hex(result.report)
                details["exit"] = String(result.exitStatus)
                // How a fix's approval wait ended is part of the outcome (a wait the worker cut short included).
                if job.request.kind == .heal, let record = try? JSONDecoder().decode(HealRecord.self, from: Data(result.report.utf8)),
                    let approval = record.approval
                {
                    details["approval"] = approval.rawValue
                }
                if try audit.recording(
                    { try queue.complete(lease, result: result, audit: $0) }, alongside: record,
                    entry: { _ in entry("fleet.job.succeeded") })
                {
                    metrics.succeeded.increment(labels: kind)
                    log.info("job.succeeded", fields(job, [seconds, LogField("exit", .int(Int64(result.exitStatus)))]))
                } else {
                    metrics.leasesLost.increment()
                    log.warning("job.lease_lost", fields(job, [LogField("detail", .string("another attempt owns the job"))]))
                }
            case .failed(let reason, let failure):
                details["reason"] = reason
                details["class"] = failure.rawValue
                let state = try audit.recording({ try queue.fail(lease, reason: reason, failure: failure, audit: $0) }, alongside: record) {
                    (ended: JobOutcome) in entry(FleetAudit.outcomeEvent(ended.state))
                }
                switch state {
                case .queued: metrics.retried.increment(labels: kind)
                case .dead: metrics.dead.increment(labels: kind)
                case .failed: metrics.failed.increment(labels: kind)
                case .cancelled: break
                default: metrics.leasesLost.increment()
                }
                log.warning(
                    state == .queued ? "job.retry" : state == .dead ? "job.dead" : state == .cancelled ? "job.cancelled" : "job.failed",
                    fields(job, [seconds, LogField("reason", .string(reason)), LogField("class", .string(failure.rawValue))]))
            case .cancelled:
                if try audit.recording(
                    { try queue.cancelled(lease, audit: $0) }, alongside: record, entry: { _ in entry("fleet.job.cancelled") })
                {
                    log.info("job.cancelled", fields(job, [seconds]))
                } else {
                    metrics.leasesLost.increment()
                    log.warning("job.lease_lost", fields(job, [seconds]))
                }
            case .leaseLost:
                try record()
                metrics.leasesLost.increment()
                log.warning("job.lease_lost", fields(job, [seconds]))
            case .released(let reason, let delay):
                details["reason"] = reason
                let state = try audit.recording({ try queue.release(lease, delay: delay, reason: reason, audit: $0) }, alongside: record) {
                    (ended: JobOutcome) in entry(FleetAudit.outcomeEvent(ended.state, released: true))
                }
                if state != nil { metrics.released.increment(labels: kind) }
                log.info("job.released", fields(job, [LogField("reason", .string(reason))]))
            }
        }
    }

    /// Runs `record` until it succeeds: a result is not dropped because the server restarted. It
    /// gives up after two lease lengths; the lease has expired by then and another attempt runs.
    /// Each try holds the shared connection for its statements only, never across the pause.
    /// When this worker's chain refuses the outcome, the job is handed back for another worker's
    /// reaper with its attempt uncounted (``JobQueue/handBack(_:)``).
    private func persist(_ job: Job, lease: JobLease, _ record: (JobQueue) throws -> Void) {
        let deadline = MonotonicClock.seconds() + max(30, options.leaseSeconds * 2)
        while true {
            do {
                return try connection.with { queue in try record(queue) }
            } catch {
                let code = (error as? SentinelError)?.code
                // A chain that is not what this worker knows it to be is an alarm, not a database hiccup.
                if code == .auditChain {
                    log.error("audit.refused", fields(job, [LogField("error", .string("\(error)"))]))
                    refuseChain(error)
                    handBack(job, lease)
                    return
                }
                metrics.databaseErrors.increment()
                log.warning("database.error", fields(job, [LogField("error", .string("\(error)"))]))
                // A refused record (bad input) will not change on a retry.
                guard MonotonicClock.seconds() < deadline, code != .invalidInput else { return }
                Thread.sleep(forTimeInterval: 0.5)
                connection.reconnectIfNeeded()
            }
        }
    }

    /// Gives `job` back for another worker's reaper after this worker's chain refused its outcome:
    /// its attempt is not spent on a record this worker could not make.
    private func handBack(_ job: Job, _ lease: JobLease) {
        do {
            let given = try connection.with { queue in try queue.handBack(lease) }
            log.warning(
                given ? "job.handed_back" : "job.lease_lost",
                fields(
                    job,
                    [
                        LogField(
                            "detail",
                            .string(given ? "its attempt uncounted; another worker's reaper queues it" : "another attempt owns the job"))
                    ]))
        } catch {
            log.error("database.error", fields(job, [LogField("error", .string("\(error)"))]))
        }
    }

    /// Stops claiming after the chain refused an outcome: the running jobs end (their outcomes are
    /// refused the same way and they are handed back, ``handBack(_:_:)``), no new job is taken, and
    /// `/metrics` shows the worker unhealthy (`sentinel_fleet_worker_chain_refused` 1).
    private func refuseChain(_ error: any Error) {
        guard stopClaiming(chainRefusal, "\(error)", saying: "its audit chain refused an outcome; no further job is claimed")
        else { return }
        metrics.chainRefused.set(1)
    }

    /// Stops claiming on tables at another migration than this build's: its jobs running end as
    /// usual (outcomes are written with statements every later migration keeps), none is taken.
    private func refuseSchema(found: Int, known: Int) {
        let reason = "the fleet tables are at migration \(found), this worker knows \(known)"
        stopClaiming(newerSchema, reason, saying: reason + "; no further job is claimed: upgrade it")
    }

    /// Keeps the first `reason` in `refusal`, logs `worker.stopping` with `message` and drains;
    /// false (and nothing done) when a reason was kept there already.
    @discardableResult
    private func stopClaiming(_ refusal: borrowing Mutex<String?>, _ reason: String, saying message: String) -> Bool {
        let first = refusal.withLock { kept -> Bool in
            defer { kept = kept ?? reason }
            return kept == nil
        }
        guard first else { return false }
        log.error("worker.stopping", [LogField("worker", .string(options.name)), LogField("reason", .string(message))])
        stop.advance(to: .draining)
        return true
    }

    /// Writes the audit head files this worker's appends have left behind (`FleetAuditState.flush`).
    private func flushHeads() {
        do {
            try options.audit.flush()
        } catch {
            log.error("audit.head_unwritten", [LogField("worker", .string(options.name)), LogField("error", .string("\(error)"))])
        }
    }

    /// What a committed outcome whose head file could not be written logs (`audit.head_file`):
    /// the outcome's own event follows as usual, since the database holds it and its entry.
    private func headFileError(_ job: Job?) -> @Sendable (any Error) -> Void {
        let log = log
        let worker = options.name
        return { error in
            var fields = [LogField("worker", .string(worker)), LogField("error", .string("\(error)"))]
            if let job { fields.append(LogField("job", .int(job.id))) }
            log.error("audit.head_file", fields)
        }
    }

    /// Returns expired leases to the queue, each expiry's entry appended to this worker's chain in
    /// the same transaction; a chain refused is an alarm, and another worker's reaper reaps them.
    private func reap() throws {
        let expired: [ExpiredLease]
        do {
            expired = try connection.with { queue in
                var audit = FleetAudit(queue: queue, state: options.audit, chain: options.name)
                audit.onHeadFileError = headFileError(nil)
                return try audit.reapExpiredLeases(actor: options.name, clock: databaseClock)
            }
        } catch let error as SentinelError where error.code == .auditChain {
            log.error("audit.refused", [LogField("worker", .string(options.name)), LogField("error", .string("\(error)"))])
            // Its chain refuses a reaped lease's entry as it would a job's outcome: claiming more
            // would leave each job it takes running until its lease expires.
            refuseChain(error)
            return
        }
        for lease in expired { reaped(lease) }
    }

    private func reaped(_ expired: ExpiredLease) {
        metrics.leaseExpiries.increment()
        if expired.newState == .dead { metrics.dead.increment() }
        log.warning(
            "lease.expired",
            [
                LogField("worker", .string(options.name)), LogField("job", .int(expired.jobID)),
                LogField("holder", .string(expired.owner)), LogField("state", .string(expired.newState.rawValue)),
            ])
    }

    private func fields(_ job: Job, _ more: [LogField] = []) -> [LogField] {
        [
            LogField("worker", .string(options.name)), LogField("job", .int(job.id)),
            LogField("kind", .string(job.request.kind.rawValue)), LogField("repository", .string(job.request.repository)),
        ] + more
    }
}
