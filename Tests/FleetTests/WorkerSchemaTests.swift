import Audit
import Foundation
import Support
import Testing
import TestSupport

@testable import Fleet
@testable import Store

/// Issue 81, online upgrades: a worker running when a newer build migrates the tables past what
/// it knows takes no further job on them (its claim checks the version in the same statement)
/// and drains, saying why, instead of racing the new build with statements written for the old
/// tables. The jobs it did not take stay queued for the upgraded workers, no attempt spent.
@Suite("A worker on tables a newer build migrated stops claiming", .integration)
struct WorkerSchemaTests {
    @Test("a migration past this build's: no job claimed after it, the worker drains with the reason", arguments: FleetAuditTests.backends)
    func stopsClaimingOnANewerSchema(_ backend: FleetAuditTests.Backend) throws {
        let url = try FleetAuditTests.freshURL(backend)
        let queue = try JobQueue(url: url)
        let state = try FleetAuditState.scratch()
        let noop = { (index: Int) in
            try queue.submit(JobRequest(kind: .noop, spec: try FleetJobSpec(kind: .noop).encoded(), repository: "r\(index)"))
        }
        let first = try noop(0)
        let worker = FleetWorker(
            url: url, options: WorkerOptions(executable: "/nonexistent/sentinel", name: "w1", audit: state),
            log: JSONLog(redactor: Redactor(), sink: { _ in }))
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            worker.run()
            done.signal()
        }
        #expect(eventually(timeout: 60) { (try? queue.job(first)?.state) == .succeeded })
        // A newer build's migration, as it records it.
        let (found, known) = try queue.schemaVersion()
        #expect(found == known)
        try queue.storage.rows(
            "INSERT INTO fleet_schema_migrations (version, name, applied_at) VALUES ($1, '999_from_a_newer_build', 0)",
            [String(known + 1)])
        let later = try (1...3).map(noop)
        let stopped = done.wait(timeout: .now() + 60) == .success
        if !stopped {
            worker.stop.advance(to: .abandoning)
            done.wait()
        }
        #expect(stopped)
        #expect(worker.schemaNewer == "the fleet tables are at migration \(known + 1), this worker knows \(known)")
        for id in later {
            let job = try #require(try queue.job(id))
            #expect(job.state == .queued && job.attempts == 0, "job \(id): \(job.state) after \(job.attempts) attempts")
        }
    }
}
