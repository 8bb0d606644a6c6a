import Foundation
@testable import Store
import Support
import Synchronization
import Testing
import TestSupport

/// Issue 81, clock steps: leases follow the database's clock, and a step back of that clock (an
/// operator's `date -s`, NTP stepping a machine that was far off) must not keep a dead worker's
/// job, or a stopped scheduler's leader lease, for the step's size. On PostgreSQL the server runs
/// on a ``SteppedClock`` and its wall clock is stepped while the queue runs; on SQLite,
/// whose clock is the test's own, the stored times are moved by the step instead (what a reaper
/// sees after a step back of H is every stored time H ahead, and the other way round).
@Suite("Leases across a step of the database's clock (SQLite and PostgreSQL)", .integration)
struct LeaseClockStepTests {
    /// A database whose clock `step` moves.
    final class SteppedDatabase: Sendable {
        let url: DatabaseURL
        private let server: PostgresServer?

        init(_ backend: QueueBackend) throws {
            switch backend {
            case .sqlite:
                url = try backend.freshURL()
                server = nil
            case .postgres:
                let server = try PostgresServer(steppableClock: true)
                url = try DatabaseURL(parsing: server.createDatabase())
                self.server = server
            }
        }

        /// Moves the database's clock by `seconds`.
        func step(by seconds: Int, queue: JobQueue) throws {
            if let server {
                try server.stepClock(by: seconds)
            } else {
                // Seen from the clock, its stepping by +H is every stored time moving by -H.
                let shift = String(-seconds)
                try queue.storage.rows(
                    "UPDATE fleet_jobs SET lease_until = lease_until + \(shift)", [])
                try queue.storage.rows("UPDATE fleet_leaders SET expires_at = expires_at + \(shift)", [])
            }
        }

        deinit { server?.stop() }
    }

    static let noBackoff = RetryPolicy(base: 0, maximum: 0)

    /// Reaps every 100 ms for up to `timeout` seconds; the expiries, when any came.
    static func reapUntilSome(_ queue: JobQueue, timeout: Double) throws -> [ExpiredLease] {
        let deadline = MonotonicClock.seconds() + timeout
        repeat {
            let reaped = try queue.reapExpiredLeases(audit: { _ in })
            if !reaped.isEmpty { return reaped }
            usleep(100_000)
        } while MonotonicClock.seconds() < deadline
        return []
    }

    @Test(
        "a step back of an hour: a dead worker's job still returns about a lease after the step, not an hour after",
        arguments: QueueBackend.available)
    func stepBackReapsTheDeadWorkersJob(_ backend: QueueBackend) throws {
        let database = try SteppedDatabase(backend)
        let queue = try JobQueue(url: database.url, retry: Self.noBackoff)
        let id = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "r"))
        // The worker claims with a 2 s lease and dies at once.
        _ = try #require(try queue.claim(owner: "dead", leaseSeconds: 2))
        try database.step(by: -3600, queue: queue)
        let started = MonotonicClock.seconds()
        // Well within the hour; at least the lease's term after the step (the lease is not ended early).
        let reaped = try Self.reapUntilSome(queue, timeout: 60)
        #expect(reaped.map(\.jobID) == [id], "the dead worker's job was not reaped within 60 s of a step back")
        #expect(MonotonicClock.seconds() - started >= 1.5, "reaped before its term had passed")
        let again = try #require(try queue.claim(owner: "alive", leaseSeconds: 60))
        #expect(again.id == id && again.attempts == 2 && again.leaseExpiries == 1)
    }

    /// A step forward shows only against a clock of the reaper's own, so this one needs a server
    /// whose clock moves without the test's (PostgreSQL's: SQLite's clock is the test's own).
    @Test(
        "a step forward of an hour: a living worker's lease is left to be renewed, a dead worker's job still returns",
        .needsPostgres)
    func stepForwardLeavesTheLivingWorkersLease() throws {
        let database = try SteppedDatabase(.postgres)
        let queue = try JobQueue(url: database.url, retry: Self.noBackoff)
        let living = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "living"))
        let dead = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "dead"))
        // The living worker's lease is long enough that no load between the claim and the first
        // pass after the step ends it in real time; the dead worker's is short.
        let held = try #require(try queue.claim(owner: "alive", leaseSeconds: 30))
        #expect(held.id == living)
        // Read before the claim: a loaded machine's delay between the claim and this reading
        // cannot make the term look shorter than it was.
        let claimed = MonotonicClock.seconds()
        _ = try #require(try queue.claim(owner: "dead", leaseSeconds: 4))
        let watch = DatabaseClockWatch()
        // The reaper's pass before the step is its reading of the clock as it was.
        #expect(try !queue.reapExpiredLeases(clock: watch, audit: { _ in }).contains { $0.jobID == living })
        try database.step(by: 3600, queue: queue)
        // The reaper passes before the living worker's next renewal: the step ended its lease,
        // and it is not taken (without the watch it is: the next test).
        var reaped = try queue.reapExpiredLeases(clock: watch, audit: { _ in })
        #expect(!reaped.contains { $0.jobID == living }, "the step ended the living worker's lease")
        let lease = try #require(held.lease)
        // The dead worker's lease ends about when it would have without the step.
        let deadline = MonotonicClock.seconds() + 60
        while !reaped.contains(where: { $0.jobID == dead }), MonotonicClock.seconds() < deadline {
            #expect(try queue.renew(lease, leaseSeconds: 30) == .held, "the living worker lost its lease")
            usleep(200_000)
            reaped += try queue.reapExpiredLeases(clock: watch, audit: { _ in })
        }
        #expect(reaped.map(\.jobID) == [dead], "the dead worker's job was not reaped alone within 60 s of a step forward")
        #expect(MonotonicClock.seconds() - claimed >= 3.5, "reaped before its term had passed")
        let job = try #require(try queue.job(living))
        #expect(job.state == .running && job.leaseExpiries == 0 && job.attempts == 1)
    }

    @Test(
        "without the reaper's watch a step forward ends a living worker's lease (what the watch prevents)",
        .needsPostgres)
    func stepForwardWithoutWatchEndsTheLease() throws {
        let database = try SteppedDatabase(.postgres)
        let queue = try JobQueue(url: database.url, retry: Self.noBackoff)
        let living = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "living"))
        _ = try #require(try queue.claim(owner: "alive", leaseSeconds: 30))
        try database.step(by: 3600, queue: queue)
        #expect(try queue.reapExpiredLeases(audit: { _ in }).map(\.jobID) == [living])
    }

    @Test(
        "a step back of an hour: a stopped leader's lease is cut to its term and taken over, not kept for the hour",
        arguments: QueueBackend.available)
    func stepBackHandsTheLeaderLeaseOver(_ backend: QueueBackend) throws {
        let database = try SteppedDatabase(backend)
        let first = try JobQueue(url: database.url)
        let second = try JobQueue(url: database.url)
        #expect(try first.holdLeadership(JobQueue.schedulerLeadership, leader: "first", seconds: 2))
        try database.step(by: -3600, queue: first)
        let stepped = MonotonicClock.seconds()
        let deadline = MonotonicClock.seconds() + 60
        var taken = false
        while !taken, MonotonicClock.seconds() < deadline {
            taken = try second.holdLeadership(JobQueue.schedulerLeadership, leader: "second", seconds: 2)
            if !taken { usleep(100_000) }
        }
        #expect(taken, "the stopped leader kept the lease for 60 s after a step back")
        #expect(MonotonicClock.seconds() - stepped >= 1.5, "taken before its term had passed")
        #expect(try !first.holdLeadership(JobQueue.schedulerLeadership, leader: "first", seconds: 2))
    }
}
