import Foundation
import Support

extension JobQueue {
    /// Adds or replaces the schedule `schedule.name`; it is first due now (a cron schedule: at its
    /// next time), unless `nextRun` says when.
    public func saveSchedule(_ schedule: Schedule) throws {
        let request = schedule.request
        var nextRun = schedule.nextRun
        if nextRun <= 0, let cron = schedule.cron {
            let now = try databaseNow()
            guard let next = cron.next(after: Date(timeIntervalSince1970: now)) else {
                throw SentinelError(.invalidInput, "cron expression '\(cron.expression)': never runs in the next eight years")
            }
            nextRun = next.timeIntervalSince1970
        }
        try storage.rows(
            """
            INSERT INTO fleet_schedules (name, kind, spec, repository, branch, priority, max_attempts, interval_seconds, next_run, cron, time_zone)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN CAST($9 AS DOUBLE PRECISION) > 0 THEN CAST($9 AS DOUBLE PRECISION) ELSE {now} END,
                $10, $11)
            ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, spec = excluded.spec, repository = excluded.repository,
                branch = excluded.branch, priority = excluded.priority, max_attempts = excluded.max_attempts,
                interval_seconds = excluded.interval_seconds, next_run = excluded.next_run, cron = excluded.cron,
                time_zone = excluded.time_zone
            """,
            [
                schedule.name, request.kind.rawValue, request.spec, request.repository, request.branch, String(request.priority),
                String(request.maxAttempts), String(schedule.cron == nil ? schedule.interval : 0), String(nextRun),
                schedule.cron?.expression.text, schedule.cron?.timeZone,
            ])
    }

    /// Removes a schedule; false when there was none by that name.
    @discardableResult
    public func removeSchedule(_ name: String) throws -> Bool {
        !(try storage.rows("DELETE FROM fleet_schedules WHERE name = $1 RETURNING name", [name])).isEmpty
    }

    /// Every schedule, by name. One of a kind this build does not run (a newer build's) is left
    /// out, as before; any other unreadable row is an error.
    public func schedules() throws -> [Schedule] {
        try storage.decode(storage.rows("SELECT \(Schedule.selectList) FROM fleet_schedules ORDER BY name", []), table: "fleet_schedules") {
            row throws(RowDecodingError) -> Schedule? in
            do throws(RowDecodingError) {
                return try Schedule(row: row)
            } catch {
                guard error.code == .unknownValue, error.column == "kind" else { throw error }
                return nil
            }
        }.compactMap { $0 }
    }

    /// Submits a job for every due schedule and moves it to its next time, in one transaction, so a
    /// scheduler that dies half-way submits nothing twice, when `leader` holds the scheduler's leader
    /// lease (`holdLeadership`), checked in the same transaction: a leader resumed after losing it
    /// submits nothing. Returns the job ids; nil when `leader` does not hold the lease.
    public func submitDueSchedules(asLeader leader: String) throws -> [Int64]? {
        try storage.transaction {
            guard try checkLeadership(Self.schedulerLeadership, leader: leader) else { return nil }
            let due = try storage.decode(
                storage.rows("SELECT name FROM fleet_schedules WHERE next_run <= {now} ORDER BY name {skip_locked}", []),
                table: "fleet_schedules"
            ) { row throws(RowDecodingError) in try row.text("name") }
            let schedules = try self.schedules()
            var submitted: [Int64] = []
            for name in due {
                guard let schedule = schedules.first(where: { $0.name == name }) else { continue }
                submitted.append(try insert(schedule.request))
                // The next time counts from now: a scheduler that was down does not fire a burst.
                if let cron = schedule.cron {
                    // A cron schedule's next time in its zone; one that never comes again waits a year.
                    let now = try databaseNow()
                    let next = cron.next(after: Date(timeIntervalSince1970: now))?.timeIntervalSince1970 ?? now + 366 * 86_400
                    try storage.rows("UPDATE fleet_schedules SET next_run = $2 WHERE name = $1", [name, String(next)])
                } else {
                    try storage.rows(
                        "UPDATE fleet_schedules SET next_run = {now} + interval_seconds WHERE name = $1", [name])
                }
            }
            if !submitted.isEmpty { try storage.notify(Self.jobsChannel, payload: "schedule") }
            return submitted
        }
    }
}

extension JobQueue {
    /// How the findings of scan `jobID` compare, by fingerprint, with `base` — by default the
    /// previous successful scan of the same repository and branch — computed in SQL.
    public func findingsDelta(of jobID: Int64, against base: Int64? = nil) throws -> FindingsDelta {
        let job = String(jobID)
        let baseID: Int64? =
            try base
            ?? storage.first(
                storage.rows(
                    """
                    SELECT previous.id AS id FROM fleet_jobs AS previous, fleet_jobs AS this
                    WHERE this.id = $1 AND previous.repository = this.repository AND previous.branch = this.branch
                      AND previous.kind = this.kind AND previous.state = 'succeeded' AND previous.id < this.id
                    ORDER BY previous.id DESC LIMIT 1
                    """, [job]), table: "fleet_jobs"
            ) { row throws(RowDecodingError) in try row.int64("id") }
        var delta = FindingsDelta(baseJob: baseID)
        let baseText = baseID.map(String.init) ?? "-1"
        let columns = StoredFinding.selectList(from: "f")
        let added = try storage.rows(
            """
            SELECT \(columns), EXISTS (
                SELECT 1 FROM fleet_findings AS earlier
                WHERE earlier.repository = f.repository AND earlier.branch = f.branch AND earlier.fingerprint = f.fingerprint
                  AND earlier.job_id < $2) AS seen_before
            FROM fleet_findings AS f
            WHERE f.job_id = $1 AND NOT EXISTS (
                SELECT 1 FROM fleet_findings AS b WHERE b.job_id = $2 AND b.fingerprint = f.fingerprint)
            ORDER BY f.fingerprint
            """, [job, baseText])
        let findings = try storage.decode(added, table: "fleet_findings") { row throws(RowDecodingError) in
            (finding: try StoredFinding(row: row), seenBefore: try row.flag("seen_before"))
        }
        for (finding, seenBefore) in findings {
            if seenBefore { delta.reintroduced.append(finding) } else { delta.new.append(finding) }
        }
        delta.fixed = try storage.decode(
            storage.rows(
                """
                SELECT \(columns) FROM fleet_findings AS f
                WHERE f.job_id = $2 AND NOT EXISTS (
                    SELECT 1 FROM fleet_findings AS t WHERE t.job_id = $1 AND t.fingerprint = f.fingerprint)
                ORDER BY f.fingerprint
                """, [job, baseText]), table: "fleet_findings"
        ) { row throws(RowDecodingError) in try StoredFinding(row: row) }
        delta.unchanged =
            try storage.first(
                storage.rows(
                    """
                    SELECT count(*) AS unchanged FROM fleet_findings AS f WHERE f.job_id = $1 AND EXISTS (
                        SELECT 1 FROM fleet_findings AS b WHERE b.job_id = $2 AND b.fingerprint = f.fingerprint)
                    """, [job, baseText]), table: "fleet_findings"
            ) { row throws(RowDecodingError) in try row.int("unchanged") } ?? 0
        return delta
    }
}
