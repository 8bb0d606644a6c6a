import Audit
import Foundation
import Support
import Testing
import TestSupport

@testable import Fleet
@testable import Store

/// Issue 81, online upgrades from each released schema: a fleet database left at migration N
/// (every migration up to N applied as the build that shipped it applied it, frozen SQL and all),
/// holding jobs that build queued and one whose worker died holding its lease, is opened by three
/// workers of this build at once while more jobs are submitted. They migrate it once between them,
/// every job runs exactly once (one attempt, one outcome entry), none is lost, and the audit chain
/// verifies afterwards.
@Suite("Workers of this build take over a fleet at each earlier migration", .integration)
struct LiveUpgradeTests {
    /// Every migration before the latest: the schemas earlier builds left behind.
    static let earlier = Array(1..<QueueSchema.latestVersion)

    /// A database at migration `version`, with `count` no-op jobs queued by the build that stopped
    /// there (its own INSERT: only the columns migration 1 made) and one running job whose lease
    /// ran out when its worker died.
    static func database(at version: Int, backend: FleetAuditTests.Backend, jobs count: Int) throws -> (DatabaseURL, [Int64]) {
        let url = try FleetAuditTests.freshURL(backend)
        let storage: any QueueStorage
        switch url {
        case .postgres: storage = try PostgresQueueStorage(url: url)
        case .sqlite(let path): storage = try SQLiteQueueStorage(path: path)
        }
        try storage.transaction {
            for _ in 0..<version { _ = try QueueSchema.migrateOneStep(storage) }
        }
        #expect(try QueueSchema.recordedVersion(storage) == version)
        let spec = try FleetJobSpec(kind: .noop).encoded()
        var ids: [Int64] = []
        for index in 0...count {
            let running = index == count
            let rows = try storage.rows(
                """
                INSERT INTO fleet_jobs (kind, spec, repository, branch, priority, state, attempts, max_attempts, run_after,
                    created_at, started_at, lease_owner, lease_token, lease_until)
                VALUES ('noop', $1, $2, '', 0, $3, $4, 3, {now}, {now}, $5, $6, $7, $8) RETURNING id
                """,
                [
                    spec, "repo-\(index)", running ? "running" : "queued", running ? "1" : "0", running ? "1" : nil,
                    running ? "old-host:1:0" : nil, running ? "old-token" : nil, running ? "1" : nil,
                ])
            ids.append(try #require(try storage.first(rows, table: "fleet_jobs") { row throws(RowDecodingError) in try row.int64("id") }))
        }
        return (url, ids)
    }

    @Test(
        "three workers open a database of each earlier migration together, under submits: one migration, every job once, the audit intact",
        arguments: FleetAuditTests.backends, earlier)
    func takeOver(_ backend: FleetAuditTests.Backend, from version: Int) throws {
        let (url, queuedEarlier) = try Self.database(at: version, backend: backend, jobs: 12)
        let machines = try FleetAuditTests.machines(3)
        let running = RunningWorkers(
            machines.enumerated().map { index, state in
                FleetWorker(
                    url: url, options: WorkerOptions(executable: "/nonexistent/sentinel", name: "w\(index)", audit: state),
                    log: JSONLog(redactor: Redactor(), sink: { _ in }))
            })
        // Load while they migrate and claim: this build's own submits.
        let queue = try JobQueue(url: url)
        var submitted: [Int64] = []
        for index in 0..<12 {
            submitted.append(
                try queue.submit(
                    JobRequest(kind: .noop, spec: try FleetJobSpec(kind: .noop).encoded(), repository: "new-\(index)")))
        }
        let all = queuedEarlier + submitted
        let finished = eventually(timeout: 120) { all.allSatisfy { (try? queue.job($0)?.state) == .succeeded } }
        running.stop()
        let states = all.map { "\($0): \((try? queue.job($0)?.state).map { String(describing: $0) } ?? "?")" }
        #expect(finished, "from migration \(version): \(states)")

        let (found, known) = try queue.schemaVersion()
        #expect(found == known)
        let migrations = try queue.storage.rows("SELECT version FROM fleet_schema_migrations ORDER BY version", [])
        #expect(migrations.count == QueueSchema.latestVersion, "each migration recorded once: \(migrations)")
        for id in all {
            let job = try #require(try queue.job(id))
            // The job that was running under the old build had its attempt already; its rerun is the second.
            let expected = id == queuedEarlier.last ? 2 : 1
            #expect(job.state == .succeeded && job.attempts == expected, "job \(id): \(job.state) after \(job.attempts) attempts")
        }
        let audit = FleetAudit(queue: queue, state: machines[0])
        let result = try audit.verify()
        #expect(result.intact, "from migration \(version): \(String(describing: result.broken))")
        let lines = try queue.storage.rows("SELECT line FROM fleet_audit", []).map { row in try row.text("line") }
        let outcomes = lines.filter { $0.contains("fleet.job.succeeded") }
        #expect(outcomes.count == all.count, "one outcome entry per job: \(outcomes.count) for \(all.count)")
    }
}
