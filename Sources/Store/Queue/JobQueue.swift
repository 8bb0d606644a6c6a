import Foundation
import Support

/// The fleet's job queue, on PostgreSQL for many machines or SQLite for one, with the semantics of
/// mature PostgreSQL queues (Oban, River, Que): a worker claims the most urgent due job with
/// `FOR UPDATE SKIP LOCKED` and a lease it renews; a job whose lease expires (its worker was killed
/// or lost the network) goes back to the queue after a backoff, until its attempts run out and it is
/// dead-lettered with the reason; results are recorded once, by the lease holder only.
///
/// One instance is one connection: open one per thread.
public final class JobQueue {
    let storage: any QueueStorage
    /// The backoff between attempts.
    public var retry: RetryPolicy
    /// The channel `submit` notifies and idle workers listen on.
    static let jobsChannel = "sentinel_jobs"

    /// Opens the queue at `url`, creating its tables or applying the numbered migrations it lacks
    /// (`QueueSchema`); a database at a migration newer than this build is refused.
    public init(url: DatabaseURL, retry: RetryPolicy = RetryPolicy()) throws {
        switch url {
        case .postgres: storage = try PostgresQueueStorage(url: url)
        case .sqlite(let path): storage = try SQLiteQueueStorage(path: path)
        }
        self.retry = retry
        try QueueSchema.migrate(storage)
    }

    /// The server or file, without a password.
    public var location: String { storage.name }

    // MARK: Submitting and claiming

    /// Enqueues `request` and wakes idle workers; returns the job's id.
    @discardableResult
    public func submit(_ request: JobRequest) throws -> Int64 {
        try storage.transaction {
            let id = try insert(request)
            try storage.notify(Self.jobsChannel, payload: String(id))
            return id
        }
    }

    func insert(_ request: JobRequest) throws -> Int64 {
        let row = try storage.rows(
            """
            INSERT INTO fleet_jobs (kind, spec, repository, branch, priority, max_attempts, run_after, created_at, exclusive_key)
            VALUES ($1, $2, $3, $4, $5, $6, {now} + $7, {now}, $8) RETURNING id
            """,
            [
                request.kind.rawValue, request.spec, request.repository, request.branch, String(request.priority),
                String(max(1, request.maxAttempts)), String(max(0, request.delay)), request.exclusiveKey,
            ])
        guard let id = try storage.first(row, table: "fleet_jobs", { row throws(RowDecodingError) in try row.int64("id") }) else {
            throw SentinelError(.database, "\(storage.name): INSERT returned no job id")
        }
        return id
    }

    /// Claims the most urgent due job for `owner` with a lease of `leaseSeconds`, or nil when none is
    /// due. Jobs whose `exclusiveKey` a running job holds wait. Nothing is claimed while the tables
    /// are at another migration than this build's (a newer build migrated them under a running
    /// worker): the claim checks the version in the same statement, so a worker never takes a job
    /// on tables it does not know (``schemaVersion()`` says why it idles).
    public func claim(owner: String, leaseSeconds: Double) throws -> Job? {
        while true {
            let token = UUID().uuidString
            // One statement: on a server it is its own transaction (no BEGIN and COMMIT round
            // trips); SQLite's transaction takes the write lock before the statement reads.
            let claim = {
                try self.storage.rows(
                    """
                    UPDATE fleet_jobs SET state = 'running', attempts = attempts + 1, lease_owner = $1, lease_token = $2,
                        lease_until = {now} + $3, lease_seconds = $3, started_at = {now}
                    WHERE id = (
                        SELECT id FROM fleet_jobs AS candidate
                        WHERE (SELECT max(version) FROM fleet_schema_migrations) = CAST($4 AS INTEGER)
                          AND state = 'queued' AND run_after <= {now}
                          AND (exclusive_key IS NULL OR NOT EXISTS (
                              SELECT 1 FROM fleet_jobs AS holder
                              WHERE holder.state = 'running' AND holder.exclusive_key = candidate.exclusive_key))
                        ORDER BY priority DESC, run_after, id
                        LIMIT 1 {skip_locked})
                    RETURNING \(Job.selectList)
                    """, [owner, token, String(leaseSeconds), String(QueueSchema.latestVersion)])
            }
            let rows = try storage.isServer ? claim() : storage.transaction(claim)
            guard let row = rows.first else { return nil }
            do throws(RowDecodingError) {
                return try Job(row: row)
            } catch {
                // Not a job this build reads (an unknown kind, written by a newer build or straight
                // into the table): it fails for good, saying why, and the next job is claimed.
                try failUnreadable(row, error)
            }
        }
    }

    /// The migration the tables are at, and the one this build knows: a worker whose claims come
    /// back empty asks this to tell an idle queue from tables a newer build has migrated.
    public func schemaVersion() throws -> (found: Int?, known: Int) {
        (try QueueSchema.recordedVersion(storage), QueueSchema.latestVersion)
    }

    /// Fails for good the claimed or expired row that `error` says this build cannot read.
    private func failUnreadable(_ row: QueueRow, _ error: RowDecodingError) throws {
        guard let id = try? row.int64("id") else {
            throw SentinelError(.database, "\(storage.name): a fleet_jobs row is unreadable: \(error)")
        }
        _ = try storage.rows(
            """
            UPDATE fleet_jobs SET state = 'failed', last_error = $2, lease_owner = NULL, lease_token = NULL,
                finished_at = {now} WHERE id = $1 RETURNING id
            """, [String(id), "not a job this worker reads: \(error)"])
    }

    /// Extends the lease by `leaseSeconds` when it is still held.
    public func renew(_ lease: JobLease, leaseSeconds: Double) throws -> LeaseStatus {
        let rows = try storage.rows(
            """
            UPDATE fleet_jobs SET lease_until = {now} + $3, lease_seconds = $3
            WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING cancel_requested
            """, [String(lease.jobID), lease.token, String(leaseSeconds)])
        guard
            let cancel = try storage.first(rows, table: "fleet_jobs", { row throws(RowDecodingError) in try row.flag("cancel_requested") })
        else { return .lost }
        return cancel ? .cancelRequested : .held
    }

    // MARK: Ending an attempt

    /// Records the result and marks the job succeeded, when `lease` still holds it; false when the
    /// lease was lost (another attempt owns the job now and records its own result). Findings
    /// already recorded for the job are not duplicated. `audit` appends the outcome's audit entry in
    /// the same transaction (not called when the lease was lost); if it throws, nothing is recorded.
    @discardableResult
    public func complete(_ lease: JobLease, result: JobResult, audit: (JobOutcome) throws -> Void) throws -> Bool {
        try storage.transaction {
            let ended = try storage.rows(
                """
                UPDATE fleet_jobs SET state = 'succeeded', finished_at = {now}, lease_until = NULL, last_error = NULL,
                    failure_class = NULL
                WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING repository, branch
                """, [String(lease.jobID), lease.token])
            guard
                let (repository, branch) = try storage.first(
                    ended, table: "fleet_jobs", { row throws(RowDecodingError) in (try row.text("repository"), try row.text("branch")) })
            else { return false }
            let job = String(lease.jobID)
            try storage.rows(
                "INSERT INTO fleet_results (job_id, exit_status, report) VALUES ($1, $2, $3) ON CONFLICT (job_id) DO NOTHING",
                [job, String(result.exitStatus), result.report])
            for finding in result.findings {
                try storage.rows(
                    """
                    INSERT INTO fleet_findings (job_id, repository, branch, fingerprint, rule_id, severity, location)
                    VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (job_id, fingerprint) DO NOTHING
                    """, [job, repository, branch, finding.fingerprint, finding.ruleID, finding.severity, finding.location])
            }
            try audit(JobOutcome(jobID: lease.jobID, state: .succeeded))
            return true
        }
    }

    /// Ends an attempt that failed: with `retry`, as a tool failure (retried by the policy's rule
    /// for `tool`); without, as invalid input (failed at once). `fail(_:reason:failure:audit:)` says
    /// which class. Returns the new state, nil when the lease was lost.
    @discardableResult
    public func fail(_ lease: JobLease, reason: String, retry shouldRetry: Bool, audit: (JobOutcome) throws -> Void) throws -> JobState? {
        try fail(lease, reason: reason, failure: shouldRetry ? .tool : .invalid, audit: audit)
    }

    /// Gives a claimed job back without counting the attempt (a worker stopping on SIGTERM, or a
    /// lock another worker holds); it may be claimed again after `delay` seconds, or is `cancelled`
    /// when a cancel was requested. Returns the new state, nil when the lease was lost. `audit`
    /// appends the entry in the same transaction; if it throws, nothing is recorded.
    @discardableResult
    public func release(_ lease: JobLease, delay: Double = 0, reason: String? = nil, audit: (JobOutcome) throws -> Void) throws
        -> JobState?
    {
        try storage.transaction {
            let rows = try storage.rows(
                """
                UPDATE fleet_jobs SET state = CASE WHEN cancel_requested = 1 THEN 'cancelled' ELSE 'queued' END,
                    attempts = attempts - 1, run_after = {now} + $3, lease_owner = NULL,
                    lease_token = NULL, lease_until = NULL, last_error = coalesce($4, last_error),
                    finished_at = CASE WHEN cancel_requested = 1 THEN {now} ELSE finished_at END
                WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING state
                """, [String(lease.jobID), lease.token, String(max(0, delay)), reason])
            guard
                let state = try storage.first(
                    rows, table: "fleet_jobs", { row throws(RowDecodingError) in try row.value("state", as: JobState.self) })
            else { return nil }
            try audit(JobOutcome(jobID: lease.jobID, state: state))
            return state
        }
    }

    /// Gives a claimed job back when its worker can record nothing (its audit chain refused the
    /// outcome): the attempt is uncounted and the lease over at once, so that the next reaper,
    /// another worker whose chain records the expiry (``reapExpiredLeases(audit:)``), returns the
    /// job to the queue without the attempt spent. False when the lease was lost.
    @discardableResult
    public func handBack(_ lease: JobLease) throws -> Bool {
        try !storage.rows(
            """
            UPDATE fleet_jobs SET attempts = attempts - 1, lease_until = {now} - 1
            WHERE id = $1 AND lease_token = $2 AND state = 'running' AND attempts > 0 RETURNING id
            """, [String(lease.jobID), lease.token]
        ).isEmpty
    }

    /// Marks a running job cancelled after its worker stopped it; false when the lease was lost.
    /// `audit` appends the entry in the same transaction; if it throws, nothing is recorded.
    @discardableResult
    public func cancelled(_ lease: JobLease, audit: (JobOutcome) throws -> Void) throws -> Bool {
        try storage.transaction {
            let rows = try storage.rows(
                """
                UPDATE fleet_jobs SET state = 'cancelled', finished_at = {now}, lease_token = NULL, lease_until = NULL
                WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING id
                """, [String(lease.jobID), lease.token])
            guard !rows.isEmpty else { return false }
            try audit(JobOutcome(jobID: lease.jobID, state: .cancelled))
            return true
        }
    }

    /// Cancels a job: a queued one at once (`audit` then appends its outcome's entry in the same
    /// transaction); a running one when its worker next renews its lease, and records it.
    /// Returns the state it was in, nil for an unknown id.
    @discardableResult
    public func cancel(_ id: Int64, audit: (JobOutcome) throws -> Void) throws -> JobState? {
        try storage.transaction {
            // Each step one atomic UPDATE: a claim between a read and a write cannot slip through.
            if !(try storage.rows(
                "UPDATE fleet_jobs SET state = 'cancelled', finished_at = {now} WHERE id = $1 AND state = 'queued' RETURNING id",
                [String(id)])).isEmpty
            {
                try audit(JobOutcome(jobID: id, state: .cancelled))
                return .queued
            }
            if !(try storage.rows(
                "UPDATE fleet_jobs SET cancel_requested = 1 WHERE id = $1 AND state = 'running' RETURNING id", [String(id)])).isEmpty
            {
                return .running
            }
            return try currentState(of: id)
        }
    }

    /// The state of job `id`, nil for an unknown id.
    private func currentState(of id: Int64) throws -> JobState? {
        try storage.first(
            storage.rows("SELECT state FROM fleet_jobs WHERE id = $1", [String(id)]), table: "fleet_jobs",
            { row throws(RowDecodingError) in try row.value("state", as: JobState.self) })
    }

    /// Returns jobs whose lease expired to the queue (after the backoff) or to the dead letters.
    /// Any worker may call it; each expired job is handled once. `audit` appends each expiry's entry
    /// in the same transaction; if it throws, no expiry of this pass is recorded.
    ///
    /// Leases follow the database's clock, so each pass first undoes what a step back of that clock
    /// did (migration 8, ``QueueSchema/leaseSteps``): a lease ending further ahead than its term was
    /// renewed before the clock went back, and it ends one term from now instead, so a dead
    /// worker's job returns a term after the step rather than after the step's size. A step
    /// forward shows only against a clock of the reaper's own: with `clock` (one per reaper,
    /// kept across its passes), leases that the step ended are left to their workers for a term
    /// (``DatabaseClockWatch``).
    @discardableResult
    public func reapExpiredLeases(clock: DatabaseClockWatch? = nil, audit: (ExpiredLease) throws -> Void) throws -> [ExpiredLease] {
        try storage.transaction {
            try storage.rows(
                """
                UPDATE fleet_jobs SET lease_until = {now} + lease_seconds
                WHERE id IN (
                    SELECT id FROM fleet_jobs
                    WHERE state = 'running' AND lease_seconds IS NOT NULL AND lease_until > {now} + lease_seconds {skip_locked})
                """, [])
            let holdBack = try clock.map { try observe(on: $0).holdBack } ?? 0
            let expired = try storage.rows(
                """
                SELECT id, attempts, max_attempts, lease_owner FROM fleet_jobs
                WHERE state = 'running' AND lease_until < {now} - $1 ORDER BY id LIMIT 100 {skip_locked}
                """, [String(holdBack)])
            return try expired.compactMap { row -> ExpiredLease? in
                let id: Int64, attempts: Int, maximum: Int, owner: String
                do throws(RowDecodingError) {
                    id = try row.int64("id")
                    attempts = try row.int("attempts")
                    maximum = try row.int("max_attempts")
                    owner = try row.optionalText("lease_owner") ?? "?"
                } catch {
                    // Left running, it would be found expired again at every pass: it fails instead.
                    try failUnreadable(row, error)
                    return nil
                }
                // The policy's rule for the class; a lease expiry is never a deterministic refusal.
                var decision = retry.decide(afterAttempt: attempts, maxAttempts: maximum, failure: .leaseExpired)
                if decision.state == .failed { decision.state = .dead }
                let state = decision.state
                let reason =
                    "lease-expired: worker \(owner) stopped renewing it (attempt \(attempts) of \(max(1, decision.limit)))"
                    + (state == .dead ? "; dead-lettered" : "")
                try endAttempt(id, state: state, error: reason, delay: decision.delay, failure: .leaseExpired)
                try storage.rows("UPDATE fleet_jobs SET lease_expiries = lease_expiries + 1 WHERE id = $1", [String(id)])
                // A cancel requested meanwhile made it `cancelled` (as `end` decides).
                let expired = ExpiredLease(jobID: id, owner: owner, newState: try currentState(of: id) ?? state)
                try audit(expired)
                return expired
            }
        }
    }

    /// Reads the database's clock into `watch`; the term it asks for is the longest of the
    /// running leases' (a lease an earlier build wrote has none: a minute).
    private func observe(on watch: DatabaseClockWatch) throws -> DatabaseClockWatch.Reading {
        let now = try storage.first(storage.rows("SELECT {now} AS now", []), table: "fleet_jobs") {
            row throws(RowDecodingError) in try row.double("now")
        }
        guard let now else { return DatabaseClockWatch.Reading(step: nil, holdBack: watch.holdBack()) }
        return try watch.observe(database: now) {
            let longest = try storage.first(
                storage.rows(
                    """
                    SELECT max(coalesce(lease_seconds, \(Self.unknownLeaseTerm))) AS term FROM fleet_jobs WHERE state = 'running'
                    """, []), table: "fleet_jobs"
            ) { row throws(RowDecodingError) in try row.optionalDouble("term") }
            return longest.flatMap { $0 } ?? 0
        }
    }

    /// The term assumed for a running lease that records none (written before migration 8).
    static let unknownLeaseTerm = 60

    // MARK: Waiting and locks

    /// Seconds until the next queued job is due (0 when one is due now), nil when none is queued.
    public func secondsUntilNextDue() throws -> Double? {
        try storage.first(
            storage.rows("SELECT min(run_after) - {now} AS seconds FROM fleet_jobs WHERE state = 'queued'", []), table: "fleet_jobs",
            { row throws(RowDecodingError) in try row.optionalDouble("seconds") }
        ).flatMap { $0 }.map { max(0, $0) }
    }

    /// Takes the fleet-wide lock `key` for this connection without waiting (an advisory lock on
    /// PostgreSQL); false when another connection holds it. It ends with the connection.
    public func tryLock(_ key: String) throws -> Bool { try storage.tryLock(key) }

    /// Releases a lock `tryLock` took.
    public func unlock(_ key: String) throws { try storage.unlock(key) }

    /// Reconnects after the server went away (a restart); a no-op when the connection is up.
    public func reconnectIfNeeded() throws { try storage.reconnectIfNeeded() }

    // MARK: Reading

    /// Jobs per state.
    public func counts() throws -> QueueCounts {
        var counts = QueueCounts()
        let rows = try storage.decode(
            storage.rows("SELECT state, count(*) AS jobs FROM fleet_jobs GROUP BY state", []), table: "fleet_jobs"
        ) {
            row throws(RowDecodingError) in (try row.value("state", as: JobState.self), try row.int("jobs"))
        }
        for (state, n) in rows {
            switch state {
            case .queued: counts.queued = n
            case .running: counts.running = n
            case .succeeded: counts.succeeded = n
            case .failed: counts.failed = n
            case .dead: counts.dead = n
            case .cancelled: counts.cancelled = n
            }
        }
        return counts
    }

    /// The job `id`, nil when there is none.
    public func job(_ id: Int64) throws -> Job? {
        try storage.first(storage.rows("SELECT \(Job.selectList) FROM fleet_jobs WHERE id = $1", [String(id)]), table: "fleet_jobs") {
            row throws(RowDecodingError) in try Job(row: row)
        }
    }

    /// Jobs in `state` (all when nil), newest first, at most `limit`; rows that are not jobs this
    /// build reads are left out (`listing` names them).
    public func jobs(state: JobState? = nil, limit: Int = 100) throws -> [Job] {
        try listing(state: state, limit: limit).jobs
    }

    /// What `jobs` lists, and the rows it could not read (an unknown kind or state, written by a
    /// newer build or straight into the table), each decoded on its own: one row never hides the rest.
    public func listing(state: JobState? = nil, limit: Int = 100) throws -> (jobs: [Job], unreadable: [UnreadableRow]) {
        var jobs: [Job] = []
        var unreadable: [UnreadableRow] = []
        for row in try storage.rows(
            "SELECT \(Job.selectList) FROM fleet_jobs WHERE (CAST($1 AS TEXT) IS NULL OR state = CAST($1 AS TEXT)) ORDER BY id DESC LIMIT $2",
            [state?.rawValue, String(limit)])
        {
            do throws(RowDecodingError) {
                jobs.append(try Job(row: row))
            } catch {
                unreadable.append(UnreadableRow(id: row.raw("id") ?? "?", reason: error.description))
            }
        }
        return (jobs, unreadable)
    }

    /// A `fleet_jobs` row this build cannot read, and why.
    public struct UnreadableRow: Sendable, Hashable {
        /// Its id column as stored.
        public var id: String
        /// What is wrong with it (`unknown kind 'x'`).
        public var reason: String
    }

    /// The recorded result of job `id`.
    public func result(_ id: Int64) throws -> JobResult? {
        guard
            let (exitStatus, report) = try storage.first(
                storage.rows("SELECT exit_status, report FROM fleet_results WHERE job_id = $1", [String(id)]), table: "fleet_results",
                { row throws(RowDecodingError) in (try row.int32("exit_status"), try row.text("report")) })
        else { return nil }
        let findings = try storage.decode(
            storage.rows("SELECT \(StoredFinding.selectList) FROM fleet_findings WHERE job_id = $1 ORDER BY fingerprint", [String(id)]),
            table: "fleet_findings"
        ) { row throws(RowDecodingError) in try StoredFinding(row: row) }
        return JobResult(exitStatus: exitStatus, report: report, findings: findings)
    }
}
