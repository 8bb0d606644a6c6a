import Audit
import Foundation
import Support
import Testing
import TestSupport

@testable import Fleet
@testable import Store

/// Issue 78, W9 (and issue 81): a worker whose audit chain head another login moved had every
/// outcome refused and kept claiming, leaving job after job `running` and burning their attempts.
/// It now stops claiming at the first refusal and says why (`/metrics` shows it unhealthy); the
/// jobs it never took stay queued, and the one it took goes back to another worker's reaper
/// without its attempt spent.
@Suite("A worker whose audit chain is refused stops claiming", .integration)
struct WorkerChainRefusalTests {
    /// Runs `worker` and whether it returned by itself within 60 s (else it is stopped from here).
    static func stopsByItself(_ worker: FleetWorker) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            worker.run()
            done.signal()
        }
        let stopped = done.wait(timeout: .now() + 60) == .success
        if !stopped {
            worker.stop.advance(to: .abandoning)
            done.wait()
        }
        return stopped
    }

    @Test(
        "its head moved by `seq = seq + 1`: the worker drains with the reason, the job it took handed back, the rest queued",
        arguments: FleetAuditTests.backends)
    func stopsClaimingWhenItsChainIsRefused(_ backend: FleetAuditTests.Backend) throws {
        let url = try FleetAuditTests.freshURL(backend)
        let queue = try JobQueue(url: url)
        let state = try FleetAuditState.scratch()
        try FleetAudit(queue: queue, state: state, chain: "w1").append(AuditEntry(event: "fleet.note", actor: "w1"))
        // The red team's move: the stored head one ahead of the chain's last line.
        try queue.storage.rows("UPDATE fleet_audit_chains SET seq = seq + 1 WHERE chain = 'w1'", [])
        let ids = try (0..<5).map { index in
            try queue.submit(JobRequest(kind: .noop, spec: try FleetJobSpec(kind: .noop).encoded(), repository: "r\(index)"))
        }
        let worker = FleetWorker(
            url: url, options: WorkerOptions(executable: "/nonexistent/sentinel", name: "w1", audit: state),
            log: JSONLog(redactor: Redactor(), sink: { _ in }))
        // A worker that keeps claiming never returns by itself.
        let stopped = Self.stopsByItself(worker)
        #expect(stopped)
        #expect(worker.refusedChain?.isEmpty == false)
        let jobs = try ids.map { try #require(try queue.job($0)) }
        let states = jobs.map(\.state)
        #expect(states.filter { $0 == .running }.count == 1 && states.filter { $0 == .queued }.count == 4, "\(states)")
        // The one it took is handed back: its attempt uncounted, its lease over at once.
        let taken = try #require(jobs.first { $0.state == .running })
        #expect(taken.attempts == 0)
        #expect(worker.metrics.registry.exposition().contains("sentinel_fleet_worker_chain_refused 1"))
        // Another worker's reaper, whose chain records the expiry, queues it with no attempt spent.
        let reaped = try FleetAudit(queue: queue, state: state, chain: "w2").reapExpiredLeases(actor: "w2")
        #expect(reaped.map(\.jobID) == [taken.id])
        let back = try #require(try queue.job(taken.id))
        #expect(back.state == .queued && back.attempts == 0, "\(back.state) after \(back.attempts) attempts")
    }

    @Test("its chain refused when it reaps another worker's expired lease: it stops claiming too")
    func stopsClaimingWhenAReapIsRefused() throws {
        let url = DatabaseURL.sqlite(path: try TemporaryDirectory.make("refused-reap") + "/fleet.sqlite")
        let queue = try JobQueue(url: url)
        let state = try FleetAuditState.scratch()
        try FleetAudit(queue: queue, state: state, chain: "w1").append(AuditEntry(event: "fleet.note", actor: "w1"))
        try queue.storage.rows("UPDATE fleet_audit_chains SET seq = seq + 1 WHERE chain = 'w1'", [])
        // A dead worker's job, its lease already over: the only work there is, reaping it.
        let id = try queue.submit(JobRequest(kind: .noop, spec: try FleetJobSpec(kind: .noop).encoded(), repository: "r"))
        #expect(try queue.claim(owner: "ghost", leaseSeconds: 0.01)?.lease?.jobID == id)
        Thread.sleep(forTimeInterval: 0.05)
        let worker = FleetWorker(
            url: url, options: WorkerOptions(executable: "/nonexistent/sentinel", name: "w1", audit: state),
            log: JSONLog(redactor: Redactor(), sink: { _ in }))
        // A worker that goes on after the refusal idles forever.
        let stopped = Self.stopsByItself(worker)
        #expect(stopped)
        #expect(worker.refusedChain?.isEmpty == false)
        #expect(try queue.job(id)?.state == .running)
    }
}
