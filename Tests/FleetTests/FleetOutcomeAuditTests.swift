import Audit
import Digest
import Fleet
import Foundation
import Support
import Synchronization
import Testing
import TestSupport

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 58: every outcome is audited exactly once, atomically with it, in its writer's own chain.
/// An append that fails leaves no outcome; every outcome kind and every lease expiry has one entry,
/// which `verifyAll` cross-checks; writers of different chains never wait on each other; a
/// database holding the one chain of earlier builds migrates into the chain `fleet` and verifies.
@Suite("Fleet outcomes audited in their transaction (SQLite and PostgreSQL)", .integration)
struct FleetOutcomeAuditTests {
    typealias Backend = FleetAuditTests.Backend

    static func request(_ repository: String = "repo", attempts: Int = 3) -> JobRequest {
        JobRequest(kind: .scan, spec: "{}", repository: repository, maxAttempts: attempts)
    }

    /// The entry a worker records for an outcome that left its job in `state`.
    static func entry(_ outcome: JobOutcome, actor: String = "w1") -> AuditEntry {
        AuditEntry(event: FleetAudit.outcomeEvent(outcome.state), actor: actor, details: ["job": String(outcome.jobID)])
    }

    static func claim(_ queue: JobQueue, lease seconds: Double = 60) throws -> JobLease {
        try #require(try queue.claim(owner: "w1", leaseSeconds: seconds)?.lease)
    }

    /// Issue 81: with the worker's state disk full, a success that committed (the job and its
    /// entry in the database) was logged as a refused chain and never as a success. The head file
    /// that could not be written is reported apart; the outcome returns as it committed.
    @Test(
        "an outcome that committed while the head file cannot be written is returned, the head file's failure reported apart",
        .enabled(if: TestHost.isRoot), arguments: FleetAuditTests.backends)
    func fullStateDiskKeepsTheCommittedOutcome(_ backend: Backend) throws {
        let url = try FleetAuditTests.freshURL(backend)
        let queue = try JobQueue(url: url)
        let place = NSTemporaryDirectory() + "fleet-full-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: place) }
        #expect(mount("tmpfs", place, "tmpfs", 0, "size=64k,mode=700") == 0, "mount: \(errno)")
        defer { umount2(place, Int32(MNT_DETACH)) }
        let state = try FleetAuditState.open(stateDirectory: place + "/state")
        // Fill the disk: the key and the directory exist, nothing more fits.
        let filler = open(place + "/filler", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        #expect(filler >= 0)
        let block = [UInt8](repeating: 0, count: 4096)
        while write(filler, block, block.count) > 0 {}
        close(filler)

        var audit = FleetAudit(queue: queue, state: state, chain: "w1")
        let reported = Mutex<[String]>([])
        audit.onHeadFileError = { error in reported.withLock { $0.append("\(error)") } }
        let id = try queue.submit(Self.request())
        let lease = try Self.claim(queue)
        let completed = try audit.recording({ try queue.complete(lease, result: JobResult(exitStatus: 0, report: "r"), audit: $0) }) {
            Self.entry($0)
        }
        #expect(completed)
        #expect(try queue.job(id)?.state == .succeeded)
        #expect(try queue.auditLines(chain: "w1").count == 1)
        #expect(reported.withLock { $0.count } == 1)
        #expect(reported.withLock { $0.first?.contains("entry 1 of") == true && $0.first?.contains("head file was not") == true })

        // Without the handler (an operator's append), the same failure is an error, as before.
        let plain = FleetAudit(queue: queue, state: state, chain: "w2")
        #expect(throws: SentinelError.self) { try plain.append(AuditEntry(event: "fleet.note", actor: "w2")) }
    }

    @Test("an append that fails records no outcome: the job stays running, no result, no entry", arguments: FleetAuditTests.backends)
    func failedAppendRecordsNothing(_ backend: Backend) throws {
        let url = try FleetAuditTests.freshURL(backend)
        let queue = try JobQueue(url: url)
        let audit = FleetAudit(queue: queue, state: try .scratch(), chain: "w1")
        let id = try queue.submit(Self.request())
        let lease = try Self.claim(queue)
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try queue.complete(lease, result: JobResult(exitStatus: 0, report: "r"), audit: { _ in throw Refused() })
        }
        #expect(try queue.job(id)?.state == .running && queue.result(id) == nil)

        // A chain refused (its stored head no longer names its last line): the same, through FleetAudit.
        try audit.append(AuditEntry(event: "fleet.note", actor: "w1"))
        try SQLHandle(url).run("UPDATE fleet_audit_chains SET hash = 'forged' WHERE chain = 'w1'")
        let refused = try #require(throws: SentinelError.self) {
            try audit.recording({ try queue.complete(lease, result: JobResult(exitStatus: 0, report: "r"), audit: $0) }) {
                Self.entry($0)
            }
        }
        #expect(refused.code == .auditChain)
        #expect(try queue.job(id)?.state == .running && queue.result(id) == nil)
        #expect(try queue.auditLines(chain: "w1").count == 1)
        // The same for a failure, a release, a cancel and a lease expiry: nothing changes.
        #expect(throws: SentinelError.self) {
            try audit.recording({ try queue.fail(lease, reason: "x", retry: false, audit: $0) }) { Self.entry($0) }
        }
        #expect(throws: SentinelError.self) {
            try audit.recording({ try queue.release(lease, reason: "x", audit: $0) }) { Self.entry($0) }
        }
        #expect(throws: SentinelError.self) {
            try audit.recording({ try queue.cancelled(lease, audit: $0) }) { Self.entry($0) }
        }
        let waiting = try queue.submit(Self.request())
        #expect(throws: SentinelError.self) {
            try audit.recording({ try queue.cancel(waiting, audit: $0) }) { Self.entry($0) }
        }
        #expect(try queue.job(waiting)?.state == .queued)
        try SQLHandle(url).run("UPDATE fleet_jobs SET lease_until = 0 WHERE id = \(id)")
        #expect(throws: SentinelError.self) { try audit.reapExpiredLeases(actor: "w1") }
        let job = try #require(try queue.job(id))
        #expect(job.state == .running && job.leaseExpiries == 0 && job.attempts == 1)
    }

    @Test(
        "every outcome kind and every lease expiry has exactly one entry; a missing or doubled one is found",
        arguments: FleetAuditTests.backends)
    func everyOutcomeOnce(_ backend: Backend) throws {
        let url = try FleetAuditTests.freshURL(backend)
        let queue = try JobQueue(url: url)
        queue.retry = RetryPolicy(base: 0, maximum: 0)
        let state = try FleetAuditState.scratch()
        let worker = FleetAudit(queue: queue, state: state, chain: "w1")
        let reaper = FleetAudit(queue: queue, state: state, chain: "w2")
        func record<R>(_ body: ((JobOutcome) throws -> Void) throws -> R) throws -> R {
            try worker.recording(body) { Self.entry($0) }
        }
        // Succeeded; failed; dead after its one attempt; retried then succeeded.
        let succeeded = try queue.submit(Self.request("a"))
        #expect(try record { try queue.complete(try Self.claim(queue), result: JobResult(exitStatus: 0, report: ""), audit: $0) })
        let failed = try queue.submit(Self.request("b"))
        #expect(try record { try queue.fail(try Self.claim(queue), reason: "bad", retry: false, audit: $0) } == .failed)
        let dead = try queue.submit(Self.request("c", attempts: 1))
        #expect(try record { try queue.fail(try Self.claim(queue), reason: "crash", retry: true, audit: $0) } == .dead)
        let retried = try queue.submit(Self.request("d"))
        #expect(try record { try queue.fail(try Self.claim(queue), reason: "flaky", retry: true, audit: $0) } == .queued)
        #expect(try record { try queue.complete(try Self.claim(queue), result: JobResult(exitStatus: 0, report: ""), audit: $0) })
        // Released, then cancelled while running; cancelled while queued; released after a cancel request.
        let released = try queue.submit(Self.request("e"))
        #expect(try record { try queue.release(try Self.claim(queue), reason: "stopping", audit: $0) } == .queued)
        let lease = try Self.claim(queue)
        #expect(try queue.cancel(released, audit: { _ in Issue.record("a running job is not cancelled here") }) == .running)
        #expect(try record { try queue.cancelled(lease, audit: $0) })
        let waiting = try queue.submit(Self.request("f"))
        #expect(try record { try queue.cancel(waiting, audit: $0) } == .queued)
        // Two lease expiries: back to the queue, then dead-lettered.
        let expiring = try queue.submit(Self.request("g", attempts: 2))
        for expected in [JobState.queued, .dead] {
            _ = try Self.claim(queue, lease: 0.01)
            usleep(50_000)
            #expect(try reaper.reapExpiredLeases(actor: "w2").map(\.newState) == [expected])
        }

        let verification = try worker.verifyAll()
        #expect(verification.intact, "\(verification.problems) \(verification.chains.map(\.result))")
        #expect(verification.chains.map(\.name) == ["w1", "w2"] && verification.checkedJobs == 7 && verification.checkedExpiries == 2)
        let events = try queue.auditLines(chain: "w1").compactMap { line -> String? in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return "\(object?["event"] as? String ?? "?") \((object?["details"] as? [String: String])?["job"] ?? "?")"
        }
        #expect(
            events == [
                "fleet.job.succeeded \(succeeded)", "fleet.job.failed \(failed)", "fleet.job.dead \(dead)", "fleet.job.retry \(retried)",
                "fleet.job.succeeded \(retried)", "fleet.job.retry \(released)", "fleet.job.cancelled \(released)",
                "fleet.job.cancelled \(waiting)",
            ])
        #expect(try queue.auditLines(chain: "w2").count == 2)
        // Each writer's head file names its own chain's last entry.
        #expect(try state.head(for: queue.location, chain: "w1")?.sequence == 8)
        #expect(try state.head(for: queue.location, chain: "w2")?.sequence == 2)

        // A second entry for one outcome (keyed, in a chain of its own: every chain intact) and an
        // outcome written straight into the table are each found.
        try FleetAudit(queue: queue, state: state, chain: "mallory").append(
            AuditEntry(event: "fleet.job.succeeded", actor: "w9", details: ["job": String(succeeded)]))
        let unaudited = try queue.submit(Self.request("h"))
        try SQLHandle(url).run("UPDATE fleet_jobs SET state = 'succeeded' WHERE id = \(unaudited)")
        try SQLHandle(url).run("UPDATE fleet_jobs SET lease_expiries = 3 WHERE id = \(expiring)")
        let found = try worker.verifyAll()
        #expect(found.chains.allSatisfy(\.result.intact) && !found.intact)
        #expect(
            found.problems == [
                "job \(succeeded) is succeeded but has 2 outcome entries (duplicated)",
                "job \(expiring): 3 lease expiries, 2 lease expiry entries",
                "job \(unaudited) is succeeded but has no outcome entry",
            ])
    }

    @Test("a line moved to another chain, and a chain deleted whole, are found", arguments: FleetAuditTests.backends)
    func movedAndDeletedChains(_ backend: Backend) throws {
        let url = try FleetAuditTests.freshURL(backend)
        let queue = try JobQueue(url: url)
        let state = try FleetAuditState.scratch()
        let one = FleetAudit(queue: queue, state: state, chain: "w1")
        let two = FleetAudit(queue: queue, state: state, chain: "w2")
        for n in 1...2 {
            try one.append(AuditEntry(event: "fleet.note", actor: "w1", details: ["n": String(n)]))
            try two.append(AuditEntry(event: "fleet.note", actor: "w2", details: ["n": String(n)]))
        }
        #expect(try one.verifyAll().intact)
        // w1's second line put in w2's place: links and numbers hold, the chain it names does not.
        let tamper = try SQLHandle(url)
        try tamper.run(
            "UPDATE fleet_audit SET line = (SELECT line FROM fleet_audit WHERE chain = 'w1' AND seq = 2) WHERE chain = 'w2' AND seq = 2")
        try tamper.run(
            "UPDATE fleet_audit_chains SET seq = 2, hash = (SELECT hash FROM fleet_audit_chains WHERE chain = 'w1') WHERE chain = 'w2'")
        let moved = try one.verifyAll().chains.first { $0.name == "w2" }?.result
        #expect(moved?.broken?.line == 2)
        // w2 deleted whole: no chain is left to be broken, this machine's head file for it still is.
        try tamper.run("DELETE FROM fleet_audit WHERE chain = 'w2'")
        try tamper.run("DELETE FROM fleet_audit_chains WHERE chain = 'w2'")
        let deleted = try one.verifyAll()
        #expect(deleted.chains.map(\.name) == ["w1"] && !deleted.intact)
        #expect(
            deleted.problems == [
                "this machine's head file (\(state.headPath(for: queue.location, chain: "w2"))) is for a chain the database no longer holds: the chain was deleted"
            ])
    }

    @Test("a writer holding its chain's row locked in an open transaction does not stop another writer's outcomes")
    func noFleetWideLock() throws {
        // PostgreSQL: SQLite has one writer at a time by design (one machine).
        guard PostgresServer.available else { return }
        let url = try FleetAuditTests.freshURL(.postgres)
        guard case .postgres(let text) = url else { return }
        // The holder's transaction stays open as long as the test needs, past the session default.
        let holderURL = try DatabaseURL(parsing: text + "?options=-c%20idle_in_transaction_session_timeout%3D0")
        let queue = try JobQueue(url: url)
        let state = try FleetAuditState.scratch()
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let failures = Failures()
        Thread.detachNewThread {
            do {
                let holder = try JobQueue(url: holderURL)
                // Inside `make` the chain's head row is locked, in a transaction that is not committed.
                try holder.appendAuditLine(chain: "stopped") { _, _ in
                    held.signal()
                    release.wait()
                    return ("{}", 1, "x")
                }
            } catch {
                failures.add("\(error)")
                held.signal()
            }
            done.signal()
        }
        held.wait()
        let audit = FleetAudit(queue: queue, state: state, chain: "running")
        for n in 0..<5 {
            let id = try queue.submit(Self.request("r\(n)"))
            let lease = try Self.claim(queue)
            #expect(
                try audit.recording({ try queue.complete(lease, result: JobResult(exitStatus: 0, report: ""), audit: $0) }) {
                    Self.entry($0)
                })
            #expect(try queue.job(id)?.state == .succeeded)
        }
        try audit.append(AuditEntry(event: "fleet.note", actor: "running"))
        #expect(try queue.auditLines(chain: "running").count == 6)
        release.signal()
        done.wait()
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(try queue.auditLines(chain: "stopped") == ["{}"])
    }

    @Test(
        "a database holding the single chain of earlier builds migrates into the chain 'fleet', which verifies and is refused to be moved",
        arguments: FleetAuditTests.backends)
    func migrationFromOneChain(_ backend: Backend) throws {
        let url = try FleetAuditTests.freshURL(backend)
        let state = try FleetAuditState.scratch()
        // The tables as migration 2 left them, with three keyed lines and a stored head, as the last
        // build with one chain appended them.
        let raw = try SQLHandle(url)
        let expand: (String) -> String = { sql in
            backend == .sqlite ? SQLiteQueueStorage.expand(sql) : PostgresQueueStorage.expand(sql)
        }
        try raw.run(expand(QueueSchema.initial.postgres))
        try raw.run("INSERT INTO fleet_schema (version) VALUES (1)")
        var previous = AuditLog.genesis
        var head = AuditHead(sequence: 0, hash: previous)
        for n in 1...3 {
            let line = try AuditLog.encode(
                AuditEntry(event: n == 3 ? "fleet.job.succeeded" : "fleet.job.retry", actor: "w", details: ["job": "1"]), sequence: n,
                previous: previous,
                date: Date(), key: state.key.id)
            previous = state.key.link(previous: previous, line: Array(line.utf8))
            head = AuditHead(sequence: n, hash: previous)
            try raw.run("INSERT INTO fleet_audit (seq, line) VALUES (\(n), '\(line)')")
        }
        try raw.run("INSERT INTO fleet_audit_head (id, seq, hash) VALUES (1, 3, '\(previous)')")
        try raw.run(
            "INSERT INTO fleet_jobs (kind, spec, repository, state, max_attempts, run_after, created_at) VALUES ('scan', '{}', 'old', 'succeeded', 1, 0, 0)"
        )

        let queue = try JobQueue(url: url)
        // This machine's head file from before, under the name it always had.
        try (head.description + "\n").write(toFile: state.headPath(for: queue.location), atomically: true, encoding: .utf8)
        let verification = try FleetAudit(queue: queue, state: state).verifyAll()
        #expect(verification.intact, "\(verification.problems) \(verification.chains.map(\.result))")
        #expect(verification.chains.map(\.name) == ["fleet"] && verification.chains.first?.result.validLines == 3)
        #expect(verification.chains.first?.checkpoints.map(\.head) == [head])
        // The job from before the migration was audited apart from its outcome: not cross-checked.
        #expect(verification.lastUncheckedJob == 1 && verification.checkedJobs == 0)

        // Writers go on in chains of their own; the old chain still verifies, and takes a line.
        let worker = FleetAudit(queue: queue, state: state, chain: "w1")
        let id = try queue.submit(Self.request())
        #expect(
            try worker.recording({ try queue.complete(try Self.claim(queue), result: JobResult(exitStatus: 0, report: ""), audit: $0) }) {
                Self.entry($0)
            })
        try FleetAudit(queue: queue, state: state).append(AuditEntry(event: "fleet.note", actor: "op"))
        let after = try worker.verifyAll()
        #expect(after.intact && after.chains.map(\.name) == ["fleet", "w1"] && after.checkedJobs == 1, "\(after.problems)")
        #expect(try queue.job(id)?.state == .succeeded)
        // An old line moved into a writer's chain names no chain: refused there.
        let tamper = try SQLHandle(url)
        try tamper.run(
            "UPDATE fleet_audit SET line = (SELECT line FROM fleet_audit WHERE chain = 'fleet' AND seq = 1) WHERE chain = 'w1' AND seq = 1")
        #expect(try worker.verifyAll().chains.first { $0.name == "w1" }?.result.broken?.line == 1)
    }
}
