import Foundation
import Support
import TestSupport
import Testing

@testable import Store

/// Issue 58: the scheduler's leader holds a lease row it renews (River's `river_leader`), not a
/// session lock: a leader that stops renewing (SIGSTOPped, cut off) loses it when it expires,
/// another takes it, and the stopped one, resumed, submits nothing; a due schedule is submitted
/// once for its due time. On SQLite and a real PostgreSQL.
@Suite("Scheduler leader lease (SQLite and PostgreSQL)")
struct LeaderLeaseTests {
    @Test("a leader that stops renewing loses the lease to another, and submits nothing after", arguments: QueueBackend.available)
    func takeover(_ backend: QueueBackend) throws {
        let url = try backend.freshURL()
        let first = try JobQueue(url: url)
        let second = try JobQueue(url: url)
        let name = JobQueue.schedulerLeadership
        try first.saveSchedule(Schedule(name: "nightly", request: JobRequest(kind: .scan, spec: "{}", repository: "r"), interval: 3600))

        // A 10 s lease: a loaded machine's pause between these statements does not end it.
        #expect(try first.holdLeadership(name, leader: "first", seconds: 10))
        #expect(try !second.holdLeadership(name, leader: "second", seconds: 1))
        // Renewed while it holds it.
        #expect(try first.holdLeadership(name, leader: "first", seconds: 10))
        #expect(try first.submitDueSchedules(asLeader: "first")?.count == 1)
        #expect(try second.submitDueSchedules(asLeader: "second") == nil)

        // The first stops renewing: once its lease has ended the second holds it.
        let deadline = Date().addingTimeInterval(60)
        var taken = false
        while !taken, Date() < deadline {
            taken = try second.holdLeadership(name, leader: "second", seconds: 60)
            if !taken { usleep(100_000) }
        }
        #expect(taken)
        // The schedule is due again (as if its next time had come while the first was stopped).
        try second.saveSchedule(Schedule(name: "nightly", request: JobRequest(kind: .scan, spec: "{}", repository: "r"), interval: 3600))
        // The first, resumed, submits nothing and cannot take the lease back while it is held.
        #expect(try first.submitDueSchedules(asLeader: "first") == nil)
        #expect(try !first.holdLeadership(name, leader: "first", seconds: 1))
        #expect(try second.submitDueSchedules(asLeader: "second")?.count == 1)
        #expect(try second.submitDueSchedules(asLeader: "second") == [])
        #expect(try first.counts().queued == 2)

        // Resigning hands it over at once.
        try second.resignLeadership(name, leader: "second")
        #expect(try first.holdLeadership(name, leader: "first", seconds: 1))
    }
}
