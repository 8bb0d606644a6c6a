import Foundation
import Store
import Support
import Testing

/// Hostile inputs round 3, finding 17: the queue is writable by anyone who may submit (or by a
/// newer build). A row this build cannot read is listed as such and failed when claimed; it never
/// hides the other jobs or stops a worker.
struct UnreadableJobRowTests {
    @Test("a row with an unknown kind: listed apart, failed when claimed, the others listed and claimed")
    func unknownKind() throws {
        let path = NSTemporaryDirectory() + "queue-" + UUID().uuidString + "/fleet.sqlite"
        let queue = try JobQueue(url: .sqlite(path: path))
        let request = JobRequest(kind: .scan, spec: "{}", repository: "repo")
        let first = try queue.submit(request)
        let odd = try queue.submit(request)
        let last = try queue.submit(request)
        try Database(path: path).execute("UPDATE fleet_jobs SET kind = 'frobnicate\u{1b}[2J' WHERE id = \(odd)")

        let listing = try queue.listing()
        #expect(listing.jobs.map(\.id) == [last, first])
        #expect(listing.unreadable.map(\.id) == [String(odd)] && listing.unreadable.map(\.reason) == ["unknown kind 'frobnicate\u{1b}[2J'"])
        #expect(try queue.claim(owner: "w", leaseSeconds: 60)?.id == first)
        #expect(try queue.claim(owner: "w", leaseSeconds: 60)?.id == last)
        #expect(try queue.claim(owner: "w", leaseSeconds: 60) == nil)
        let failed = try Database(path: path).prepare("SELECT state, last_error FROM fleet_jobs WHERE id = \(odd)")
        #expect(try failed.step())
        #expect(failed.text(0) == "failed" && failed.text(1) == "not a job this worker reads: unknown kind 'frobnicate\u{1b}[2J'")
    }

    @Test("a row with a malformed column: named by column when listed, read or claimed; the others go on")
    func malformedColumn() throws {
        let path = NSTemporaryDirectory() + "queue-" + UUID().uuidString + "/fleet.sqlite"
        let queue = try JobQueue(url: .sqlite(path: path))
        let request = JobRequest(kind: .scan, spec: "{}", repository: "repo")
        let odd = try queue.submit(request)
        let fine = try queue.submit(request)
        // SQLite keeps text that is no integer as text, even in an INTEGER column.
        try Database(path: path).execute("UPDATE fleet_jobs SET lease_expiries = 'many' WHERE id = \(odd)")

        let listing = try queue.listing()
        #expect(listing.jobs.map(\.id) == [fine])
        #expect(listing.unreadable.map(\.id) == [String(odd)])
        #expect(listing.unreadable.map(\.reason) == ["column 'lease_expiries': 'many' is not an integer"])
        let error = try #require(throws: SentinelError.self) { try queue.job(odd) }
        #expect(
            error.code == .database
                && error.message.hasSuffix("a fleet_jobs row is unreadable: column 'lease_expiries': 'many' is not an integer"))
        #expect(try queue.claim(owner: "w", leaseSeconds: 60)?.id == fine)
        #expect(try queue.claim(owner: "w", leaseSeconds: 60) == nil)
        let failed = try Database(path: path).prepare("SELECT state, last_error FROM fleet_jobs WHERE id = \(odd)")
        #expect(try failed.step())
        #expect(
            failed.text(0) == "failed" && failed.text(1) == "not a job this worker reads: column 'lease_expiries': 'many' is not an integer"
        )
    }

    @Test("a schedule of a kind this build does not run is left out; a malformed one is an error naming its column")
    func schedules() throws {
        let path = NSTemporaryDirectory() + "queue-" + UUID().uuidString + "/fleet.sqlite"
        let queue = try JobQueue(url: .sqlite(path: path))
        for name in ["a", "b"] {
            try queue.saveSchedule(Schedule(name: name, request: JobRequest(kind: .scan, spec: "{}", repository: "r"), interval: 60))
        }
        try Database(path: path).execute("UPDATE fleet_schedules SET kind = 'sbom' WHERE name = 'a'")
        #expect(try queue.schedules().map(\.name) == ["b"])
        try Database(path: path).execute("UPDATE fleet_schedules SET interval_seconds = 'hourly' WHERE name = 'b'")
        let error = try #require(throws: SentinelError.self) { try queue.schedules() }
        #expect(error.message.hasSuffix("a fleet_schedules row is unreadable: column 'interval_seconds': 'hourly' is not a finite number"))
    }
}
