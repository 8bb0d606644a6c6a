import Foundation
import Support

/// What makes a submission unique (River's UniqueOpts): a key, and the window over which it holds.
public struct JobUniqueness: Sendable, Hashable {
    /// The key (`--unique-key`, or one derived from the job's spec); at most 512 bytes.
    public var key: String
    /// Nil: unique among queued and running jobs (a finished job does not count). Seconds: unique
    /// among every job submitted in the same window of this length, finished ones too (windows are
    /// aligned to the epoch, as River's `ByPeriod`).
    public var window: Double?

    /// Uniqueness by `key` over `window`; see the properties.
    public init(key: String, window: Double? = nil) {
        self.key = key
        self.window = window
    }
}

/// What `submit(_:unique:)` did.
public struct Submission: Sendable, Hashable {
    /// The job: the new one, or the one that already held the key.
    public var id: Int64
    /// True when a job already held the key and nothing was submitted.
    public var existing: Bool

    /// A submission; see the properties.
    public init(id: Int64, existing: Bool) {
        self.id = id
        self.existing = existing
    }
}

/// Which jobs `jobs(matching:)` lists, newest first, a page at a time.
public struct JobFilter: Sendable, Hashable {
    /// Only jobs about this repository (or DAST target), exactly as stored.
    public var repository: String?
    /// Only these kinds (all when empty).
    public var kinds: [JobKind] = []
    /// Only these states (all when empty).
    public var states: [JobState] = []
    /// Only jobs submitted at or after this time (seconds since 1970).
    public var since: Double?
    /// The page after this id (the previous page's `next`): keyset paging, stable while jobs arrive.
    public var after: Int64?
    /// At most this many (1 to 1000).
    public var limit = 50

    /// Every job, the newest 50.
    public init() {}
}

/// One page of `jobs(matching:)`.
public struct JobPage: Sendable {
    /// The jobs, newest first.
    public var jobs: [Job]
    /// Rows of the page this build cannot read, each named.
    public var unreadable: [JobQueue.UnreadableRow]
    /// The cursor of the next page (`--after`), nil on the last page.
    public var next: Int64?

    /// A page; see the properties.
    public init(jobs: [Job], unreadable: [JobQueue.UnreadableRow] = [], next: Int64? = nil) {
        self.jobs = jobs
        self.unreadable = unreadable
        self.next = next
    }
}

/// What `requeue` did with one job.
public enum RequeueOutcome: Sendable, Hashable {
    /// Back in the queue, attempts reset; `was` the state it left.
    case requeued(was: JobState)
    /// No such job.
    case notFound
    /// Not dead, failed or cancelled: left as it is.
    case refused(JobState)
    /// Its unique key is held by another queued or running job (that one's id).
    case duplicate(Int64)
}

/// What `delete` did with one job.
public enum DeleteOutcome: Sendable, Hashable {
    /// Removed with its result, findings and proposals; `was` its state.
    case deleted(was: JobState)
    /// No such job.
    case notFound
    /// Queued or running: never deleted (cancel it first).
    case refused(JobState)
}

extension JobQueue {
    /// The states a job ends in: the only ones `delete`, `requeue` and `prune` touch.
    public static let finishedStates: [JobState] = [.succeeded, .failed, .dead, .cancelled]

    /// The index predicate of `fleet_jobs_unique_by_submitter`, repeated as the ON CONFLICT target must be.
    static let uniquePredicate = "unique_key IS NOT NULL AND (unique_all_states = 1 OR state IN ('queued', 'running'))"

    /// The columns of `fleet_jobs_unique_by_submitter`, repeated as the ON CONFLICT target must be: a
    /// key is unique among one submitter's jobs (migration 7).
    static let uniqueColumns = "(coalesce(submitted_by, '')), unique_key"

    /// Who submits, as `submitted_by` will hold it once the server stamped it (its `session_user`);
    /// on SQLite, which stamps nothing, the one tenant whose `submitted_by` is NULL.
    var submitterExpression: String { storage.isServer ? "session_user" : "''" }

    /// The database's clock (the server's on PostgreSQL), in seconds since 1970.
    func databaseNow() throws -> Double {
        try storage.first(storage.rows("SELECT {now} AS now", []), table: "clock") { row throws(RowDecodingError) in try row.double("now") }
            ?? Date().timeIntervalSince1970
    }

    // MARK: Unique jobs

    /// Enqueues `request` unless a job of the same submitter holds `unique`'s key; then returns that
    /// job (another submitter's job never holds it: issue 78, W7). Atomic under
    /// any concurrency: a partial unique index and `INSERT ... ON CONFLICT DO NOTHING`, never a
    /// read before the write. Without `unique`, as `submit(_:)`.
    public func submit(_ request: JobRequest, unique: JobUniqueness?) throws -> Submission {
        guard let unique else { return Submission(id: try submit(request), existing: false) }
        guard !unique.key.isEmpty, unique.key.utf8.count <= 512 else {
            throw SentinelError(.invalidInput, "unique key: must be 1 to 512 bytes")
        }
        if let window = unique.window, !(window >= 1 && window <= 366 * 86_400) {
            throw SentinelError(.invalidInput, "unique window: must be 1 s to 366 days")
        }
        // A conflicting job may finish between the insert and the read of it: then insert again.
        for _ in 0..<16 {
            let submission = try storage.transaction { () throws -> Submission? in
                var key = unique.key
                if let window = unique.window {
                    let bucket = Int64((try databaseNow() / window).rounded(.down))
                    key += "\u{1F}\(Int64(window))s@\(bucket)"
                }
                let inserted = try storage.rows(
                    """
                    INSERT INTO fleet_jobs (kind, spec, repository, branch, priority, max_attempts, run_after, created_at, exclusive_key,
                        unique_key, unique_all_states)
                    VALUES ($1, $2, $3, $4, $5, $6, {now} + $7, {now}, $8, $9, $10)
                    ON CONFLICT (\(Self.uniqueColumns)) WHERE \(Self.uniquePredicate) DO NOTHING RETURNING id
                    """,
                    [
                        request.kind.rawValue, request.spec, request.repository, request.branch, String(request.priority),
                        String(max(1, request.maxAttempts)), String(max(0, request.delay)), request.exclusiveKey, key,
                        unique.window == nil ? "0" : "1",
                    ])
                if let id = try storage.first(inserted, table: "fleet_jobs", { row throws(RowDecodingError) in try row.int64("id") }) {
                    try storage.notify(Self.jobsChannel, payload: String(id))
                    return Submission(id: id, existing: false)
                }
                let holder = try storage.first(
                    storage.rows(
                        """
                        SELECT id FROM fleet_jobs
                        WHERE coalesce(submitted_by, '') = \(submitterExpression) AND unique_key = $1 AND \(Self.uniquePredicate)
                        """, [key]),
                    table: "fleet_jobs"
                ) { row throws(RowDecodingError) in try row.int64("id") }
                return holder.map { Submission(id: $0, existing: true) }
            }
            if let submission { return submission }
        }
        throw SentinelError(
            .database, "\(storage.name): unique key '\(DisplayText.escaped(unique.key))' kept changing hands; not submitted")
    }

    // MARK: Failures by class

    /// Ends an attempt that failed for `failure`: the retry policy's rule for the class says
    /// whether it is queued again (after a jittered backoff), dead-lettered or failed at once. The
    /// class is stored with the job and `last_error` names it. Returns the new state, nil when the
    /// lease was lost. `audit` appends the outcome's entry in the same transaction (not called when
    /// the lease was lost); if it throws, nothing is recorded.
    @discardableResult
    public func fail(_ lease: JobLease, reason: String, failure: FailureClass, audit: (JobOutcome) throws -> Void) throws -> JobState? {
        try storage.transaction {
            guard
                let (attempts, maximum) = try storage.first(
                    storage.rows(
                        "SELECT attempts, max_attempts FROM fleet_jobs WHERE id = $1 AND lease_token = $2 AND state = 'running' \(storage.isServer ? "FOR UPDATE" : "")",
                        [String(lease.jobID), lease.token]), table: "fleet_jobs",
                    { row throws(RowDecodingError) in (try row.int("attempts"), try row.int("max_attempts")) })
            else { return nil }
            let decision = retry.decide(afterAttempt: attempts, maxAttempts: maximum, failure: failure)
            var note = "\(failure.rawValue): \(reason)"
            if decision.state == .dead { note += " (attempt \(attempts) of \(decision.limit); dead-lettered)" }
            try endAttempt(lease.jobID, state: decision.state, error: note, delay: decision.delay, failure: failure)
            // A cancel requested meanwhile turns a retry into `cancelled`.
            let now = try storage.first(
                storage.rows("SELECT state FROM fleet_jobs WHERE id = $1", [String(lease.jobID)]), table: "fleet_jobs",
                { row throws(RowDecodingError) in try row.value("state", as: JobState.self) })
            if let now { try audit(JobOutcome(jobID: lease.jobID, state: now)) }
            return now
        }
    }

    /// Moves job `id` to `state` after an attempt, recording why and the failure class.
    func endAttempt(_ id: Int64, state: JobState, error: String, delay: Double, failure: FailureClass) throws {
        try storage.rows(
            """
            UPDATE fleet_jobs SET state = CASE WHEN $2 = 'queued' AND cancel_requested = 1 THEN 'cancelled' ELSE $2 END,
                last_error = $3, run_after = {now} + $4, lease_owner = NULL, lease_token = NULL, lease_until = NULL,
                finished_at = CASE WHEN $2 = 'queued' AND cancel_requested = 0 THEN NULL ELSE {now} END, failure_class = $5
            WHERE id = $1
            """, [String(id), state.rawValue, error, String(delay), failure.rawValue])
    }

    // MARK: Dead letters

    /// Puts a dead, failed or cancelled job back in the queue with its attempts reset, its error
    /// and failure class cleared. A job whose unique key another queued or running job of its
    /// submitter holds stays.
    /// `audit` appends the entry in the same transaction (only when the job is queued again); if it
    /// throws, nothing changes.
    public func requeue(_ id: Int64, audit: (RequeueOutcome) throws -> Void) throws -> RequeueOutcome {
        try storage.transaction {
            guard let before = try stateAndKey(of: id) else { return .notFound }
            guard [.dead, .failed, .cancelled].contains(before.state) else { return .refused(before.state) }
            if let key = before.key,
                let holder = try storage.first(
                    storage.rows(
                        """
                        SELECT id FROM fleet_jobs WHERE unique_key = $1 AND state IN ('queued', 'running') AND id <> $2
                            AND coalesce(submitted_by, '') = (SELECT coalesce(submitted_by, '') FROM fleet_jobs WHERE id = $2)
                        """,
                        [key, String(id)]),
                    table: "fleet_jobs", { row throws(RowDecodingError) in try row.int64("id") })
            {
                return .duplicate(holder)
            }
            try storage.rows(
                """
                UPDATE fleet_jobs SET state = 'queued', attempts = 0, run_after = {now}, started_at = NULL, finished_at = NULL,
                    lease_owner = NULL, lease_token = NULL, lease_until = NULL, cancel_requested = 0, last_error = NULL,
                    failure_class = NULL
                WHERE id = $1
                """, [String(id)])
            try audit(.requeued(was: before.state))
            try storage.notify(Self.jobsChannel, payload: String(id))
            return .requeued(was: before.state)
        }
    }

    /// Removes a finished job with its result, findings and proposal rows; a queued or running one
    /// is refused. The audit chain's entries about it stay; `audit` appends the deletion's in the
    /// same transaction, and if it throws nothing is deleted.
    public func delete(_ id: Int64, audit: (DeleteOutcome) throws -> Void) throws -> DeleteOutcome {
        try storage.transaction {
            guard let before = try stateAndKey(of: id) else { return .notFound }
            guard Self.finishedStates.contains(before.state) else { return .refused(before.state) }
            try removeJobs([id])
            try audit(.deleted(was: before.state))
            return .deleted(was: before.state)
        }
    }

    /// The ids of the jobs in `state`, oldest first, at most `limit`.
    public func jobIDs(in state: JobState, limit: Int = 100_000) throws -> [Int64] {
        try storage.decode(
            storage.rows("SELECT id FROM fleet_jobs WHERE state = $1 ORDER BY id LIMIT $2", [state.rawValue, String(max(1, limit))]),
            table: "fleet_jobs"
        ) { row throws(RowDecodingError) in try row.int64("id") }
    }

    /// The state and unique key of job `id`, its row locked on PostgreSQL.
    private func stateAndKey(of id: Int64) throws -> (state: JobState, key: String?)? {
        try storage.first(
            storage.rows(
                "SELECT state, unique_key FROM fleet_jobs WHERE id = $1 \(storage.isServer ? "FOR UPDATE" : "")", [String(id)]),
            table: "fleet_jobs"
        ) { row throws(RowDecodingError) in (try row.value("state", as: JobState.self), try row.optionalText("unique_key")) }
    }

    /// Deletes `ids` and the rows that name them (inside the caller's transaction).
    private func removeJobs(_ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        // Integers this build decoded: nothing of a row's text reaches the statement.
        let list = ids.map(String.init).joined(separator: ", ")
        try storage.rows("DELETE FROM fleet_findings WHERE job_id IN (\(list))", [])
        try storage.rows("DELETE FROM fleet_results WHERE job_id IN (\(list))", [])
        try storage.rows("DELETE FROM fleet_proposals WHERE job_id IN (\(list))", [])
        // A heal's patch, the decisions on it and every attempt's record go with the job.
        try storage.rows("DELETE FROM fleet_decisions WHERE job_id IN (\(list))", [])
        try storage.rows("DELETE FROM fleet_patches WHERE job_id IN (\(list))", [])
        try storage.rows("DELETE FROM fleet_attempts WHERE job_id IN (\(list))", [])
        try storage.rows("DELETE FROM fleet_jobs WHERE id IN (\(list))", [])
    }

    // MARK: Pruning

    /// Deletes finished jobs (succeeded, failed, dead, cancelled) that ended more than `seconds`
    /// ago, with their results, findings, proposals, patches, decisions and attempt records, `batch` jobs per transaction so that no
    /// lock is held long; queued and running jobs and the audit chain are never touched. With
    /// `dryRun`, counts them and deletes nothing. Returns how many.
    public func prune(olderThan seconds: Double, batch: Int = 500, dryRun: Bool = false) throws -> Int {
        let finished = Self.finishedStates.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        let condition = "state IN (\(finished)) AND coalesce(finished_at, created_at) < {now} - $1"
        if dryRun {
            return try storage.first(
                storage.rows("SELECT count(*) AS jobs FROM fleet_jobs WHERE \(condition)", [String(max(0, seconds))]),
                table: "fleet_jobs", { row throws(RowDecodingError) in try row.int("jobs") }) ?? 0
        }
        var total = 0
        while true {
            let removed = try storage.transaction { () throws -> Int in
                let ids = try storage.decode(
                    storage.rows(
                        "SELECT id FROM fleet_jobs WHERE \(condition) ORDER BY id LIMIT $2 {skip_locked}",
                        [String(max(0, seconds)), String(max(1, batch))]),
                    table: "fleet_jobs"
                ) { row throws(RowDecodingError) in try row.int64("id") }
                try removeJobs(ids)
                return ids.count
            }
            total += removed
            if removed < max(1, batch) { return total }
        }
    }

    // MARK: Listing

    /// A page of jobs matching `filter`, newest first, with the cursor of the next.
    public func jobs(matching filter: JobFilter) throws -> JobPage {
        var clauses: [String] = []
        var parameters: [String?] = []
        func parameter(_ value: String) -> String {
            parameters.append(value)
            return "$\(parameters.count)"
        }
        if let repository = filter.repository { clauses.append("repository = \(parameter(repository))") }
        if !filter.kinds.isEmpty {
            clauses.append("kind IN (\(Set(filter.kinds).map { parameter($0.rawValue) }.sorted().joined(separator: ", ")))")
        }
        if !filter.states.isEmpty {
            clauses.append("state IN (\(Set(filter.states).map { parameter($0.rawValue) }.sorted().joined(separator: ", ")))")
        }
        if let since = filter.since { clauses.append("created_at >= CAST(\(parameter(String(since))) AS DOUBLE PRECISION)") }
        if let after = filter.after { clauses.append("id < CAST(\(parameter(String(after))) AS BIGINT)") }
        let limit = min(max(filter.limit, 1), 1000)
        let whereClause = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        let rows = try storage.rows(
            "SELECT \(Job.selectList) FROM fleet_jobs \(whereClause) ORDER BY id DESC LIMIT \(parameter(String(limit + 1)))", parameters)
        var page = JobPage(jobs: [], unreadable: [], next: nil)
        for row in rows.prefix(limit) {
            do throws(RowDecodingError) {
                page.jobs.append(try Job(row: row))
            } catch {
                page.unreadable.append(UnreadableRow(id: row.raw("id") ?? "?", reason: error.description))
            }
        }
        if rows.count > limit, let last = rows.prefix(limit).last?.raw("id"), let id = Int64(last) { page.next = id }
        return page
    }
}
