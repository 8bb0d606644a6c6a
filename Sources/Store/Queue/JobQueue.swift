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
    /// The channel approvals are announced on.
    static let approvalsChannel = "sentinel_approvals"

    /// Opens the queue at `url`, creating its tables when they are missing.
    public init(url: DatabaseURL, retry: RetryPolicy = RetryPolicy()) throws {
        switch url {
        case .postgres: storage = try PostgresQueueStorage(url: url)
        case .sqlite(let path): storage = try SQLiteQueueStorage(path: path)
        }
        self.retry = retry
        try migrate()
    }

    /// The server or file, without a password.
    public var location: String { storage.name }

    private func migrate() throws {
        // Every worker and command opens the queue: when the tables are there, no DDL runs (on
        // PostgreSQL even a CREATE INDEX IF NOT EXISTS locks fleet_jobs against every claim).
        if let found = try? storage.value("SELECT max(version) FROM fleet_schema").flatMap({ Int($0) }), found == QueueSchema.version {
            return
        }
        try storage.transaction {
            // Workers starting together must not race on CREATE TABLE.
            if storage.isServer { try storage.rows("SELECT pg_advisory_xact_lock(hashtextextended('sentinel-fleet-schema', 0))", []) }
            try storage.script(QueueSchema.statements)
            let found = try storage.value("SELECT max(version) FROM fleet_schema").flatMap { Int($0) }
            if let found, found > QueueSchema.version {
                throw SentinelError(
                    .database, "\(storage.name): the fleet tables are version \(found), newer than this sentinel's (\(QueueSchema.version))"
                )
            }
            if found == nil { try storage.rows("INSERT INTO fleet_schema (version) VALUES ($1)", [String(QueueSchema.version)]) }
        }
    }

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
        guard let text = row.first?.first ?? nil, let id = Int64(text) else {
            throw SentinelError(.database, "\(storage.name): INSERT returned no job id")
        }
        return id
    }

    /// Claims the most urgent due job for `owner` with a lease of `leaseSeconds`, or nil when none is
    /// due. Jobs whose `exclusiveKey` a running job holds wait.
    public func claim(owner: String, leaseSeconds: Double) throws -> Job? {
        while true {
            let token = UUID().uuidString
            let rows = try storage.transaction {
                try storage.rows(
                    """
                    UPDATE fleet_jobs SET state = 'running', attempts = attempts + 1, lease_owner = $1, lease_token = $2,
                        lease_until = {now} + $3, started_at = {now}
                    WHERE id = (
                        SELECT id FROM fleet_jobs AS candidate
                        WHERE state = 'queued' AND run_after <= {now}
                          AND (exclusive_key IS NULL OR NOT EXISTS (
                              SELECT 1 FROM fleet_jobs AS holder
                              WHERE holder.state = 'running' AND holder.exclusive_key = candidate.exclusive_key))
                        ORDER BY priority DESC, run_after, id
                        LIMIT 1 {skip_locked})
                    RETURNING \(Self.columns)
                    """, [owner, token, String(leaseSeconds)])
            }
            guard let row = rows.first else { return nil }
            do {
                return try job(row)
            } catch {
                // Not a job this build reads (an unknown kind, written by a newer build or straight
                // into the table): it fails for good, saying why, and the next job is claimed.
                guard let id = row.first.flatMap({ $0 }).flatMap({ Int64($0) }) else { throw error }
                _ = try storage.rows(
                    """
                    UPDATE fleet_jobs SET state = 'failed', last_error = $2, lease_owner = NULL, lease_token = NULL,
                        finished_at = {now} WHERE id = $1 RETURNING id
                    """, [String(id), "not a job this worker reads: \(Self.whyUnreadable(row))"])
            }
        }
    }

    /// Extends the lease by `leaseSeconds` when it is still held.
    public func renew(_ lease: JobLease, leaseSeconds: Double) throws -> LeaseStatus {
        let rows = try storage.rows(
            """
            UPDATE fleet_jobs SET lease_until = {now} + $3
            WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING cancel_requested
            """, [String(lease.jobID), lease.token, String(leaseSeconds)])
        guard let flag = rows.first?.first ?? nil else { return .lost }
        return flag == "0" ? .held : .cancelRequested
    }

    // MARK: Ending an attempt

    /// Records the result and marks the job succeeded, when `lease` still holds it; false when the
    /// lease was lost (another attempt owns the job now and records its own result). Findings
    /// already recorded for the job are not duplicated.
    @discardableResult
    public func complete(_ lease: JobLease, result: JobResult) throws -> Bool {
        try storage.transaction {
            let ended = try storage.rows(
                """
                UPDATE fleet_jobs SET state = 'succeeded', finished_at = {now}, lease_until = NULL, last_error = NULL
                WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING repository, branch
                """, [String(lease.jobID), lease.token])
            guard let row = ended.first else { return false }
            let job = String(lease.jobID)
            try storage.rows(
                "INSERT INTO fleet_results (job_id, exit_status, report) VALUES ($1, $2, $3) ON CONFLICT (job_id) DO NOTHING",
                [job, String(result.exitStatus), result.report])
            for finding in result.findings {
                try storage.rows(
                    """
                    INSERT INTO fleet_findings (job_id, repository, branch, fingerprint, rule_id, severity, location)
                    VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (job_id, fingerprint) DO NOTHING
                    """, [job, row[0], row[1], finding.fingerprint, finding.ruleID, finding.severity, finding.location])
            }
            return true
        }
    }

    /// Ends an attempt that failed. With `retry`, the job is queued again after the backoff, or
    /// dead-lettered when it has no attempt left; without, it is `failed` at once. Returns the new
    /// state, nil when the lease was lost.
    @discardableResult
    public func fail(_ lease: JobLease, reason: String, retry shouldRetry: Bool) throws -> JobState? {
        try storage.transaction {
            guard
                let row = try storage.rows(
                    "SELECT attempts, max_attempts FROM fleet_jobs WHERE id = $1 AND lease_token = $2 AND state = 'running' \(storage.isServer ? "FOR UPDATE" : "")",
                    [String(lease.jobID), lease.token]
                ).first,
                let attempts = row[0].flatMap({ Int($0) }), let maximum = row[1].flatMap({ Int($0) })
            else { return nil }
            let state: JobState = !shouldRetry ? .failed : attempts < maximum ? .queued : .dead
            let note = state == .dead ? "\(reason) (attempt \(attempts) of \(maximum); dead-lettered)" : reason
            try end(lease.jobID, state: state, error: note, delay: retry.delay(afterAttempt: attempts))
            // A cancel requested meanwhile turns a retry into `cancelled`.
            return try storage.value("SELECT state FROM fleet_jobs WHERE id = $1", [String(lease.jobID)]).flatMap(JobState.init(rawValue:))
        }
    }

    /// Gives a claimed job back without counting the attempt (a worker stopping on SIGTERM, or a
    /// lock another worker holds); it may be claimed again after `delay` seconds.
    public func release(_ lease: JobLease, delay: Double = 0, reason: String? = nil) throws {
        try storage.rows(
            """
            UPDATE fleet_jobs SET state = CASE WHEN cancel_requested = 1 THEN 'cancelled' ELSE 'queued' END,
                attempts = attempts - 1, run_after = {now} + $3, lease_owner = NULL,
                lease_token = NULL, lease_until = NULL, last_error = coalesce($4, last_error)
            WHERE id = $1 AND lease_token = $2 AND state = 'running'
            """, [String(lease.jobID), lease.token, String(max(0, delay)), reason])
    }

    /// Marks a running job cancelled after its worker stopped it.
    public func cancelled(_ lease: JobLease) throws {
        try storage.rows(
            """
            UPDATE fleet_jobs SET state = 'cancelled', finished_at = {now}, lease_token = NULL, lease_until = NULL
            WHERE id = $1 AND lease_token = $2 AND state = 'running'
            """, [String(lease.jobID), lease.token])
    }

    private func end(_ id: Int64, state: JobState, error: String, delay: Double) throws {
        try storage.rows(
            """
            UPDATE fleet_jobs SET state = CASE WHEN $2 = 'queued' AND cancel_requested = 1 THEN 'cancelled' ELSE $2 END,
                last_error = $3, run_after = {now} + $4, lease_owner = NULL, lease_token = NULL, lease_until = NULL,
                finished_at = CASE WHEN $2 = 'queued' AND cancel_requested = 0 THEN NULL ELSE {now} END
            WHERE id = $1
            """, [String(id), state.rawValue, error, String(delay)])
    }

    /// Cancels a job: a queued one at once; a running one when its worker next renews its lease.
    /// Returns the state it was in, nil for an unknown id.
    @discardableResult
    public func cancel(_ id: Int64) throws -> JobState? {
        try storage.transaction {
            // Each step one atomic UPDATE: a claim between a read and a write cannot slip through.
            if !(try storage.rows(
                "UPDATE fleet_jobs SET state = 'cancelled', finished_at = {now} WHERE id = $1 AND state = 'queued' RETURNING id",
                [String(id)])).isEmpty
            {
                return .queued
            }
            if !(try storage.rows(
                "UPDATE fleet_jobs SET cancel_requested = 1 WHERE id = $1 AND state = 'running' RETURNING id", [String(id)])).isEmpty
            {
                return .running
            }
            return try storage.value("SELECT state FROM fleet_jobs WHERE id = $1", [String(id)]).flatMap(JobState.init(rawValue:))
        }
    }

    /// Returns jobs whose lease expired to the queue (after the backoff) or to the dead letters.
    /// Any worker may call it; each expired job is handled once.
    @discardableResult
    public func reapExpiredLeases() throws -> [ExpiredLease] {
        try storage.transaction {
            let expired = try storage.rows(
                """
                SELECT id, attempts, max_attempts, lease_owner FROM fleet_jobs
                WHERE state = 'running' AND lease_until < {now} ORDER BY id LIMIT 100 {skip_locked}
                """, [])
            return try expired.compactMap { row -> ExpiredLease? in
                guard let id = row[0].flatMap({ Int64($0) }), let attempts = row[1].flatMap({ Int($0) }),
                    let maximum = row[2].flatMap({ Int($0) })
                else { return nil }
                let owner = row[3] ?? "?"
                let state: JobState = attempts < maximum ? .queued : .dead
                let reason =
                    "lease expired: worker \(owner) stopped renewing it (attempt \(attempts) of \(maximum))"
                    + (state == .dead ? "; dead-lettered" : "")
                try end(id, state: state, error: reason, delay: retry.delay(afterAttempt: attempts))
                try storage.rows("UPDATE fleet_jobs SET lease_expiries = lease_expiries + 1 WHERE id = $1", [String(id)])
                return ExpiredLease(jobID: id, owner: owner, newState: state)
            }
        }
    }

    // MARK: Waiting and locks

    /// Waits up to `timeout` seconds for a submission (LISTEN/NOTIFY on PostgreSQL; a short poll on
    /// SQLite). Returns early when one comes; a caller then claims.
    public func waitForWork(timeout: Double) throws {
        _ = try storage.wait(channel: Self.jobsChannel, timeout: timeout)
    }

    /// Seconds until the next queued job is due (0 when one is due now), nil when none is queued.
    public func secondsUntilNextDue() throws -> Double? {
        try storage.value("SELECT min(run_after) - {now} FROM fleet_jobs WHERE state = 'queued'").flatMap { Double($0) }
            .map { max(0, $0) }
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
        for row in try storage.rows("SELECT state, count(*) FROM fleet_jobs GROUP BY state", []) {
            let n = row[1].flatMap { Int($0) } ?? 0
            switch row[0].flatMap(JobState.init(rawValue:)) {
            case .queued: counts.queued = n
            case .running: counts.running = n
            case .succeeded: counts.succeeded = n
            case .failed: counts.failed = n
            case .dead: counts.dead = n
            case .cancelled: counts.cancelled = n
            case nil: break
            }
        }
        return counts
    }

    /// The job `id`, nil when there is none.
    public func job(_ id: Int64) throws -> Job? {
        try storage.rows("SELECT \(Self.columns) FROM fleet_jobs WHERE id = $1", [String(id)]).first.map(job)
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
            "SELECT \(Self.columns) FROM fleet_jobs WHERE (CAST($1 AS TEXT) IS NULL OR state = CAST($1 AS TEXT)) ORDER BY id DESC LIMIT $2",
            [state?.rawValue, String(limit)])
        {
            do {
                jobs.append(try job(row))
            } catch {
                unreadable.append(UnreadableRow(id: row.first.flatMap { $0 } ?? "?", reason: Self.whyUnreadable(row)))
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

    static func whyUnreadable(_ row: [String?]) -> String {
        guard row.count == 17, row[0].flatMap({ Int64($0) }) != nil else { return "malformed" }
        if row[1].flatMap(JobKind.init(rawValue:)) == nil { return "unknown kind '\(row[1] ?? "")'" }
        if row[8].flatMap(JobState.init(rawValue:)) == nil { return "unknown state '\(row[8] ?? "")'" }
        return "malformed"
    }

    /// The recorded result of job `id`.
    public func result(_ id: Int64) throws -> JobResult? {
        guard let row = try storage.rows("SELECT exit_status, report FROM fleet_results WHERE job_id = $1", [String(id)]).first
        else { return nil }
        let findings = try storage.rows(
            "SELECT fingerprint, rule_id, severity, location FROM fleet_findings WHERE job_id = $1 ORDER BY fingerprint",
            [String(id)]
        ).map(Self.finding)
        return JobResult(exitStatus: Int32(row[0].flatMap { Int32($0) } ?? 0), report: row[1] ?? "", findings: findings)
    }

    static let columns =
        "id, kind, spec, repository, branch, priority, max_attempts, exclusive_key, state, attempts, last_error, lease_owner, lease_token, lease_expiries, created_at, started_at, finished_at"

    private func job(_ row: [String?]) throws -> Job {
        guard row.count == 17, let id = row[0].flatMap({ Int64($0) }), let kind = row[1].flatMap(JobKind.init(rawValue:)),
            let state = row[8].flatMap(JobState.init(rawValue:))
        else { throw SentinelError(.database, "\(storage.name): a fleet_jobs row is malformed") }
        let request = JobRequest(
            kind: kind, spec: row[2] ?? "", repository: row[3] ?? "", branch: row[4] ?? "",
            priority: row[5].flatMap { Int($0) } ?? 0, maxAttempts: row[6].flatMap { Int($0) } ?? 1, exclusiveKey: row[7])
        let lease = state == .running ? row[12].map { JobLease(jobID: id, token: $0, owner: row[11] ?? "") } : nil
        return Job(
            id: id, request: request, state: state, attempts: row[9].flatMap { Int($0) } ?? 0, lastError: row[10], lease: lease,
            leaseExpiries: row[13].flatMap { Int($0) } ?? 0, createdAt: row[14].flatMap { Double($0) } ?? 0,
            startedAt: row[15].flatMap { Double($0) }, finishedAt: row[16].flatMap { Double($0) })
    }

    static func finding(_ row: [String?]) -> StoredFinding {
        StoredFinding(fingerprint: row[0] ?? "", ruleID: row[1] ?? "", severity: row[2] ?? "", location: row[3] ?? "")
    }
}
