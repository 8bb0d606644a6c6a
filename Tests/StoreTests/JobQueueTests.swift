import Foundation
import Store
import Support
import Synchronization
import Testing
import TestSupport

/// The store backends one test suite runs against (DESIGN §5): SQLite, the embedded default, and
/// PostgreSQL, fleet mode's server (a throwaway server on loopback, one database per test).
enum QueueBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    /// SQLite always; PostgreSQL where the test server can start (root, Debian's postgresql-15).
    static let available: [QueueBackend] = PostgresServer.available ? allCases : [.sqlite]

    var testDescription: String { rawValue }

    /// A fresh, empty database of this kind.
    func freshURL() throws -> DatabaseURL {
        switch self {
        case .sqlite:
            let directory = NSTemporaryDirectory() + "queue-" + UUID().uuidString
            return .sqlite(path: directory + "/fleet.sqlite")
        case .postgres:
            let server = try #require(PostgresServer.shared, "the PostgreSQL test server did not start")
            return try DatabaseURL(parsing: server.createDatabase())
        }
    }
}

/// The job queue's semantics, identical on both backends: priorities, delays, leases that expire
/// and come back with a backoff, dead letters, cancellation, results recorded once, locks, schedules,
/// approvals and the findings history.
@Suite("Job queue (SQLite and PostgreSQL)")
struct JobQueueTests {
    static let noBackoff = RetryPolicy(base: 0, maximum: 0)

    static func request(_ repository: String = "repo", priority: Int = 0, maxAttempts: Int = 3, key: String? = nil)
        -> JobRequest
    {
        JobRequest(kind: .scan, spec: "{}", repository: repository, priority: priority, maxAttempts: maxAttempts, exclusiveKey: key)
    }

    @Test(
        "claims the highest priority first, then submission order; a result is stored with its findings", arguments: QueueBackend.available)
    func priorityOrderAndResult(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        let low = try queue.submit(Self.request(priority: 0))
        let high = try queue.submit(Self.request(priority: 5))
        let second = try queue.submit(Self.request(priority: 0))
        let first = try #require(try queue.claim(owner: "w1", leaseSeconds: 60))
        #expect(first.id == high && first.state == .running && first.attempts == 1)
        #expect(try queue.claim(owner: "w1", leaseSeconds: 60)?.id == low)
        #expect(try queue.claim(owner: "w1", leaseSeconds: 60)?.id == second)
        #expect(try queue.claim(owner: "w1", leaseSeconds: 60) == nil)
        let lease = try #require(first.lease)
        let finding = StoredFinding(fingerprint: "f1", ruleID: "R1", severity: "high", location: "a.py:3")
        #expect(try queue.complete(lease, result: JobResult(exitStatus: 1, report: "{\"r\":1}", findings: [finding]), audit: { _ in }))
        let result = try #require(try queue.result(high))
        #expect(result.exitStatus == 1 && result.report == "{\"r\":1}" && result.findings == [finding])
        var counts = QueueCounts()
        counts.running = 2
        counts.succeeded = 1
        #expect(try queue.counts() == counts)
    }

    @Test("a delayed job waits until it is due", arguments: QueueBackend.available)
    func delayedJob(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        var delayed = Self.request()
        delayed.delay = 3600
        try queue.submit(delayed)
        #expect(try queue.claim(owner: "w", leaseSeconds: 60) == nil)
        let due = try #require(try queue.secondsUntilNextDue())
        #expect(due > 3000 && due <= 3600)
    }

    @Test("an expired lease returns the job; the old holder can no longer record a result", arguments: QueueBackend.available)
    func expiredLease(_ backend: QueueBackend) throws {
        let url = try backend.freshURL()
        let queue = try JobQueue(url: url, retry: Self.noBackoff)
        let other = try JobQueue(url: url, retry: Self.noBackoff)
        let id = try queue.submit(Self.request())
        // A lease that ends at once: the worker "died" right after claiming.
        let dead = try #require(try queue.claim(owner: "killed", leaseSeconds: -1)?.lease)
        let reaped = try other.reapExpiredLeases(audit: { _ in })
        #expect(reaped == [ExpiredLease(jobID: id, owner: "killed", newState: .queued)])
        #expect(try other.reapExpiredLeases(audit: { _ in }).isEmpty)
        let retried = try #require(try other.claim(owner: "alive", leaseSeconds: 60))
        #expect(retried.id == id && retried.attempts == 2 && retried.leaseExpiries == 1)
        #expect(retried.lastError?.contains("lease-expired: worker killed") == true)
        #expect(try queue.renew(dead, leaseSeconds: 60) == .lost)
        let finding = StoredFinding(fingerprint: "f", ruleID: "R", severity: "low", location: "x")
        #expect(try !queue.complete(dead, result: JobResult(exitStatus: 0, report: "stale", findings: [finding]), audit: { _ in }))
        let lease = try #require(retried.lease)
        #expect(try other.complete(lease, result: JobResult(exitStatus: 0, report: "fresh", findings: [finding]), audit: { _ in }))
        #expect(try !other.complete(lease, result: JobResult(exitStatus: 0, report: "again", findings: [finding]), audit: { _ in }))
        #expect(try queue.result(id)?.report == "fresh")
        #expect(try queue.result(id)?.findings.count == 1)
        #expect(try queue.job(id)?.state == .succeeded)
    }

    @Test("failed attempts retry after a growing backoff, then the job is dead-lettered with the reason", arguments: QueueBackend.available)
    func retriesThenDeadLetter(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL(), retry: RetryPolicy(base: 0, maximum: 0))
        let id = try queue.submit(Self.request(maxAttempts: 2))
        let one = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
        #expect(try queue.fail(one, reason: "scanner crashed", retry: true, audit: { _ in }) == .queued)
        let two = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
        #expect(try queue.fail(two, reason: "scanner crashed again", retry: true, audit: { _ in }) == .dead)
        let job = try #require(try queue.job(id))
        #expect(job.state == .dead && job.attempts == 2)
        #expect(job.lastError == "tool: scanner crashed again (attempt 2 of 2; dead-lettered)" && job.failureClass == .tool)
        #expect(try queue.counts().dead == 1)
        #expect(try queue.fail(two, reason: "late", retry: true, audit: { _ in }) == nil)

        let slow = try JobQueue(url: backend.freshURL(), retry: RetryPolicy(base: 600, maximum: 3600))
        try slow.submit(Self.request())
        let lease = try #require(try slow.claim(owner: "w", leaseSeconds: 60)?.lease)
        #expect(try slow.fail(lease, reason: "flaky", retry: true, audit: { _ in }) == .queued)
        // Full jitter: anywhere from now to the first step's 600 s.
        #expect(try #require(try slow.secondsUntilNextDue()) <= 600)
        #expect(RetryPolicy(base: 10, maximum: 3600).delay(afterAttempt: 3) == 40)
        #expect(RetryPolicy(base: 10, maximum: 3600).delay(afterAttempt: 30) == 3600)
    }

    @Test("a lease that expires on the last attempt dead-letters the job", arguments: QueueBackend.available)
    func expiryOnLastAttempt(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL(), retry: Self.noBackoff)
        let id = try queue.submit(Self.request(maxAttempts: 1))
        _ = try queue.claim(owner: "w9", leaseSeconds: -1)
        #expect(try queue.reapExpiredLeases(audit: { _ in }).map(\.newState) == [.dead])
        let job = try #require(try queue.job(id))
        #expect(job.state == .dead && job.leaseExpiries == 1 && job.lastError?.hasSuffix("dead-lettered") == true)
    }

    @Test("a permanent failure is not retried", arguments: QueueBackend.available)
    func permanentFailure(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        let id = try queue.submit(Self.request())
        let lease = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
        #expect(try queue.fail(lease, reason: "bad input", retry: false, audit: { _ in }) == .failed)
        #expect(try queue.job(id)?.state == .failed)
        #expect(try queue.claim(owner: "w", leaseSeconds: 60) == nil)
    }

    @Test("cancel: a queued job at once, a running one through its worker's next renewal", arguments: QueueBackend.available)
    func cancel(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        let running = try queue.submit(Self.request(priority: 1))
        let waiting = try queue.submit(Self.request())
        let lease = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
        #expect(try queue.cancel(waiting, audit: { _ in }) == .queued)
        #expect(try queue.job(waiting)?.state == .cancelled)
        #expect(try queue.jobs(state: .cancelled).map(\.id) == [waiting])
        #expect(try queue.jobs().map(\.id) == [waiting, running])
        #expect(try queue.jobs(state: .dead).isEmpty)
        #expect(try queue.claim(owner: "w", leaseSeconds: 60) == nil)
        #expect(try queue.cancel(running, audit: { _ in }) == .running)
        #expect(try queue.renew(lease, leaseSeconds: 60) == .cancelRequested)
        try queue.cancelled(lease, audit: { _ in })
        #expect(try queue.job(running)?.state == .cancelled)
        #expect(try queue.cancel(999_999, audit: { _ in }) == nil)
        // A cancel requested while an attempt runs is not undone by that attempt's retry.
        let retried = try queue.submit(Self.request())
        let attempt = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
        #expect(try queue.cancel(retried, audit: { _ in }) == .running)
        #expect(try queue.fail(attempt, reason: "crashed", retry: true, audit: { _ in }) == .cancelled)
        #expect(try queue.claim(owner: "w", leaseSeconds: 60) == nil)
    }

    @Test("a released job is claimable again without losing an attempt", arguments: QueueBackend.available)
    func release(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        let id = try queue.submit(Self.request(maxAttempts: 1))
        let lease = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
        try queue.release(lease, reason: "worker stopping", audit: { _ in })
        let again = try #require(try queue.claim(owner: "w2", leaseSeconds: 60))
        #expect(again.id == id && again.attempts == 1)
    }

    @Test("jobs sharing an exclusive key never run at once", arguments: QueueBackend.available)
    func exclusiveKey(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        let first = try queue.submit(Self.request(key: "signal-1"))
        let second = try queue.submit(Self.request(key: "signal-1"))
        let other = try queue.submit(Self.request(key: "signal-2"))
        let lease = try #require(try queue.claim(owner: "a", leaseSeconds: 60)?.lease)
        #expect(lease.jobID == first)
        #expect(try queue.claim(owner: "b", leaseSeconds: 60)?.id == other)
        #expect(try queue.claim(owner: "b", leaseSeconds: 60) == nil)
        #expect(try queue.complete(lease, result: JobResult(exitStatus: 0, report: ""), audit: { _ in }))
        #expect(try queue.claim(owner: "b", leaseSeconds: 60)?.id == second)
    }

    @Test("1,000 jobs drained by four connections at once: none lost, none run twice", arguments: QueueBackend.available)
    func concurrentClaims(_ backend: QueueBackend) throws {
        let url = try backend.freshURL()
        let setup = try JobQueue(url: url)
        let total = 1000
        for _ in 0..<total { try setup.submit(Self.request()) }
        let claimed = LockedList()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            do {
                let queue = try JobQueue(url: url)
                while let job = try queue.claim(owner: "w\(worker)", leaseSeconds: 60), let lease = job.lease {
                    claimed.append(job.id)
                    _ = try queue.complete(lease, result: JobResult(exitStatus: 0, report: "\(worker)"), audit: { _ in })
                }
            } catch {
                claimed.fail("\(error)")
            }
        }
        #expect(claimed.errors.isEmpty, "\(claimed.errors)")
        #expect(claimed.ids.count == total && Set(claimed.ids).count == total)
        #expect(try setup.counts().succeeded == total)
    }

    @Test("a lock is held by one connection until it is released", arguments: QueueBackend.available)
    func locks(_ backend: QueueBackend) throws {
        let url = try backend.freshURL()
        let one = try JobQueue(url: url)
        let two = try JobQueue(url: url)
        #expect(try one.tryLock("repository-lock"))
        #expect(try !two.tryLock("repository-lock"))
        #expect(try two.tryLock("another"))
        try one.unlock("repository-lock")
        #expect(try two.tryLock("repository-lock"))
    }

    @Test("a due schedule submits one job and moves to its next time", arguments: QueueBackend.available)
    func schedules(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        try queue.saveSchedule(Schedule(name: "nightly", request: Self.request("r1"), interval: 3600))
        try queue.saveSchedule(Schedule(name: "later", request: Self.request("r2"), interval: 60, nextRun: 4_000_000_000))
        #expect(try queue.submitDueSchedules(asLeader: "s1") == nil)
        #expect(try queue.holdLeadership(JobQueue.schedulerLeadership, leader: "s1", seconds: 60))
        let submitted = try #require(try queue.submitDueSchedules(asLeader: "s1"))
        #expect(submitted.count == 1)
        #expect(try queue.job(try #require(submitted.first))?.request.repository == "r1")
        #expect(try queue.submitDueSchedules(asLeader: "s1") == [])
        let nightly = try #require(try queue.schedules().first { $0.name == "nightly" })
        #expect(nightly.nextRun > Date().timeIntervalSince1970 + 3000)
        #expect(try queue.removeSchedule("nightly"))
        #expect(try !queue.removeSchedule("nightly"))
        #expect(try queue.schedules().map(\.name) == ["later"])
    }

    static func postgresText(_ url: DatabaseURL) -> String? {
        if case .postgres(let text) = url { return text }
        return nil
    }

    @Test("the same proposal is recorded once", arguments: QueueBackend.available)
    func proposalsOnce(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        #expect(try queue.recordProposal("change-abc", jobID: 1))
        #expect(try !queue.recordProposal("change-abc", jobID: 2))
    }

    @Test("findings history: new, fixed and reintroduced since the last scan of the branch", arguments: QueueBackend.available)
    func findingsHistory(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        func scan(_ fingerprints: [String], branch: String = "main") throws -> Int64 {
            var request = Self.request("repo")
            request.branch = branch
            let id = try queue.submit(request)
            let lease = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
            let findings = fingerprints.map { StoredFinding(fingerprint: $0, ruleID: "R-" + $0, severity: "high", location: "a.py:1") }
            _ = try queue.complete(lease, result: JobResult(exitStatus: 1, report: "", findings: findings), audit: { _ in })
            return id
        }
        let one = try scan(["a", "b"])
        _ = try scan(["z"], branch: "feature")
        let two = try scan(["b", "c"])
        let three = try scan(["a", "c"])
        let first = try queue.findingsDelta(of: one)
        #expect(first.baseJob == nil && first.new.map(\.fingerprint) == ["a", "b"] && first.fixed.isEmpty)
        let second = try queue.findingsDelta(of: two)
        #expect(second.baseJob == one)
        #expect(second.new.map(\.fingerprint) == ["c"] && second.fixed.map(\.fingerprint) == ["a"] && second.unchanged == 1)
        let third = try queue.findingsDelta(of: three)
        #expect(third.reintroduced.map(\.fingerprint) == ["a"] && third.new.isEmpty)
        #expect(third.fixed.map(\.fingerprint) == ["b"] && third.unchanged == 1)
        let against = try queue.findingsDelta(of: three, against: one)
        #expect(against.new.map(\.fingerprint) == ["c"] && against.fixed.map(\.fingerprint) == ["b"])
        #expect(against.reintroduced.isEmpty && against.unchanged == 1)
    }
}

/// A blocking call run on a thread of its own; `result()` waits for it.
final class BlockingWaiter<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<Value, any Error>?

    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread.detachNewThread { [self] in
            outcome = Result { try body() }
            done.signal()
        }
    }

    func result() throws -> Value {
        done.wait()
        return try outcome!.get()
    }
}

/// Job ids claimed from several threads.
final class LockedList: Sendable {
    private let state = Mutex<(claimed: [Int64], failures: [String])>(([], []))
    func append(_ id: Int64) { state.withLock { $0.claimed.append(id) } }
    func fail(_ error: String) { state.withLock { $0.failures.append(error) } }
    var ids: [Int64] { state.withLock { $0.claimed } }
    var errors: [String] { state.withLock { $0.failures } }
}
