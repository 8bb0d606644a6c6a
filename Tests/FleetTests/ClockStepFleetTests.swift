import Audit
import Foundation
import Support
import Testing
import TestSupport

@testable import Fleet
@testable import Store

/// Issue 81, clock steps under a running fleet: three workers run jobs on PostgreSQL while the
/// server's wall clock steps an hour back and then an hour forward (``SteppedClock``: the
/// server's monotonic clock is left alone, as `date -s` or NTP stepping its machine). Leases
/// follow the database's clock, so before migration 8 a step back kept a dead worker's job
/// `running` for the hour. Every job runs once, the dead worker's job is run again within
/// seconds of each step, and the audit verifies. (A living worker's lease across a step forward:
/// `LeaseClockStepTests`; each worker's reaper watches the database's clock, ``DatabaseClockWatch``.)
@Suite(
    "A fleet whose database's clock steps both ways", .integration,
    .needsPostgres)
struct ClockStepFleetTests {
    @Test("an hour back, then an hour forward: every job once, a dead worker's job back within seconds of each step, the audit intact")
    func stepsBothWays() throws {
        let server = try PostgresServer(steppableClock: true)
        defer { server.stop() }
        let url = try DatabaseURL(parsing: server.createDatabase())
        let machines = try FleetAuditTests.machines(3)
        let running = RunningWorkers(
            machines.enumerated().map { index, state in
                var options = WorkerOptions(executable: "/nonexistent/sentinel", name: "w\(index)", audit: state)
                options.leaseSeconds = 3
                return FleetWorker(url: url, options: options, log: JSONLog(redactor: Redactor(), sink: { _ in }))
            })
        defer { running.stop() }
        let queue = try JobQueue(url: url)
        let spec = try FleetJobSpec(kind: .noop).encoded()
        func submit(_ count: Int, _ label: String) throws -> [Int64] {
            try (0..<count).map { try queue.submit(JobRequest(kind: .noop, spec: spec, repository: "\(label)-\($0)")) }
        }
        var all = try submit(10, "before")
        var deadJobs: Set<Int64> = []
        #expect(eventually(timeout: 120) { all.allSatisfy { (try? queue.job($0)?.state) == .succeeded } })

        for (step, label) in [(-3600, "back"), (3600, "forward")] {
            // A worker outside the fleet holds a job with a 3 s lease and dies; then the clock steps.
            let rows = try queue.storage.rows(
                """
                INSERT INTO fleet_jobs (kind, spec, repository, branch, priority, state, attempts, max_attempts, run_after,
                    created_at, started_at, lease_owner, lease_token, lease_until, lease_seconds)
                VALUES ('noop', $1, $2, '', 0, 'running', 1, 3, {now}, {now}, {now}, 'dead-worker', $3, {now} + 3, 3) RETURNING id
                """, [spec, "dead-\(label)", UUID().uuidString])
            let deadJob = try #require(
                try queue.storage.first(rows, table: "fleet_jobs") { row throws(RowDecodingError) in try row.int64("id") })
            deadJobs.insert(deadJob)
            try server.stepClock(by: step)
            let stepped = MonotonicClock.seconds()
            all += [deadJob]
            all += try submit(10, label)
            let done = eventually(timeout: 120) { all.allSatisfy { (try? queue.job($0)?.state) == .succeeded } }
            let states = all.map { "\($0): \((try? queue.job($0)?.state).map { String(describing: $0) } ?? "?")" }
            #expect(done, "after the step \(label): \(states)")
            // Well within the hour the step moved the clock.
            #expect(MonotonicClock.seconds() - stepped < 120)
            let rerun = try #require(try queue.job(deadJob))
            #expect(
                rerun.attempts == 2 && rerun.leaseExpiries == 1,
                "the dead worker's job: \(rerun.attempts) attempts, \(rerun.leaseExpiries) expiries")
        }
        for id in all {
            let job = try #require(try queue.job(id))
            #expect(job.attempts == (deadJobs.contains(id) ? 2 : 1), "job \(id): \(job.attempts) attempts")
        }
        let result = try FleetAudit(queue: queue, state: machines[0]).verify()
        #expect(result.intact, "\(String(describing: result.broken))")
    }
}
