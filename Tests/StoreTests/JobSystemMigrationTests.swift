import Foundation
import Support
import TestSupport
import Testing

@testable import Store

/// Migration `003_job_system` (issue 58) on a database with rows in it: the jobs, results and
/// schedules of before read as they were (no unique key, no failure class, interval schedules),
/// and the new columns work on the migrated table. On SQLite and on a throwaway PostgreSQL.
@Suite("Fleet schema migration: the job system (SQLite and PostgreSQL)")
struct JobSystemMigrationTests {
    @Test("upgrading a database with rows keeps them and adds unique keys, failure classes and cron", arguments: QueueBackend.available)
    func upgradeKeepsRows(_ backend: QueueBackend) throws {
        let (url, raw) = try QueueMigrationTests.legacyDatabase(backend)
        let queue = try JobQueue(url: url)
        let migration = QueueSchema.jobSystem
        #expect(try raw.rows("SELECT name FROM fleet_schema_migrations WHERE version = \(migration.version)") == [[migration.name]])
        let dead = try #require(try queue.job(5))
        #expect(dead.state == .dead && dead.failureClass == nil && dead.uniqueKey == nil)
        #expect(dead.lastError == "boom (attempt 3 of 3; dead-lettered)")
        #expect(try queue.result(3)?.findings.count == 2)
        let schedule = try #require(try queue.schedules().first)
        #expect(schedule.name == "nightly" && schedule.interval == 86400 && schedule.cron == nil && schedule.nextRun == 1700086400)

        // The old rows are retried, deleted and pruned like new ones.
        #expect(try queue.requeue(5, audit: { _ in }) == .requeued(was: .dead))
        #expect(try queue.delete(3, audit: { _ in }) == .deleted(was: .succeeded))
        #expect(try queue.result(3) == nil)
        // The unique index works on the migrated table.
        let first = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "r"), unique: JobUniqueness(key: "k"))
        #expect(try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "r"), unique: JobUniqueness(key: "k")).id == first.id)
        #expect(throws: (any Error).self) {
            try raw.execute(
                "INSERT INTO fleet_jobs (kind, spec, repository, max_attempts, run_after, created_at, unique_key) VALUES ('scan', '{}', 'r', 1, 0, 0, 'k')"
            )
        }
    }
}
