import Foundation
import Support
import TestSupport
import Testing

@testable import Store

/// Issue 58: an approval names the patch that was shown (its SHA-256), is refused before the patch
/// exists, after the wait, and for another patch, and records who decided as the database knows
/// them. On SQLite and on a throwaway PostgreSQL.
@Suite("Approvals bound to the patch (SQLite and PostgreSQL)")
struct PatchApprovalTests {
    /// A queue holding one claimed heal job; its lease.
    static func claimedHeal(_ backend: QueueBackend) throws -> (url: DatabaseURL, queue: JobQueue, lease: JobLease) {
        let url = try backend.freshURL()
        let queue = try JobQueue(url: url)
        _ = try queue.submit(JobRequest(kind: .heal, spec: "{}", repository: "repo"))
        let lease = try #require(try queue.claim(owner: "w1", leaseSeconds: 600)?.lease)
        return (url, queue, lease)
    }

    /// The message of the `SentinelError` `body` throws, with its exit status.
    static func refusal(_ body: () throws -> Void) -> (message: String, status: Int32)? {
        do {
            try body()
            return nil
        } catch let error as SentinelError {
            return (error.message, error.exitStatus)
        } catch {
            return ("\(error)", -1)
        }
    }

    @Test(
        "refused with exit 2 before the patch, for a short or other digest, for a swapped patch, twice, and after the wait",
        arguments: QueueBackend.available)
    func boundToThePatch(_ backend: QueueBackend) throws {
        let (_, queue, lease) = try Self.claimedHeal(backend)
        let job = lease.jobID
        let early = Self.refusal { try queue.decide(job, digest: String(repeating: "a", count: 64), approved: true, reason: "") }
        #expect(early?.message == "job \(job): no patch recorded yet; nothing to decide" && early?.status == 2)
        #expect(Self.refusal { try queue.decide(job, digest: nil, approved: false, reason: "no") }?.status == 2)

        let shown = try #require(
            try queue.recordPatch(lease, patch: "--- a/x\n+++ b/x\n", description: "d", actor: "a", evidence: "{}", awaiting: true))
        #expect(shown == "922dd52a81ff1c3d456cb861de7ad959496295c809971e848d414d3cdfe3fb23")  // sha256sum of the patch
        let patch = try #require(try queue.patch(of: job))
        #expect(patch.digest == shown && patch.awaiting && patch.description == "d" && patch.evidence == "{}" && patch.publication == nil)

        #expect(Self.refusal { try queue.decide(job, digest: String(shown.prefix(11)), approved: true, reason: "") }?.status == 2)
        #expect(Self.refusal { try queue.decide(job, digest: nil, approved: true, reason: "") }?.status == 2)
        let other = Self.refusal { try queue.decide(job, digest: String(repeating: "0", count: 12), approved: true, reason: "") }
        #expect(other?.message.hasPrefix("job \(job): --patch 000000000000 is not the recorded patch (\(shown.prefix(16))") == true)

        // The patch is replaced after it was shown: the digest shown no longer approves anything.
        let swapped = try #require(
            try queue.recordPatch(lease, patch: "--- a/y\n+++ b/y\n", description: nil, actor: nil, evidence: nil, awaiting: true))
        #expect(Self.refusal { try queue.decide(job, digest: shown, approved: true, reason: "") }?.status == 2)
        #expect(try queue.decisions(job).isEmpty)

        let decision = try queue.decide(job, digest: String(swapped.prefix(12)).uppercased(), approved: true, reason: "ok")
        let expected = backend == .postgres ? "sentinel" : JobQueue.effectiveAccount()
        #expect(decision.digest == swapped && decision.approved && decision.reason == "ok" && decision.approver == expected)
        #expect(try queue.decision(job, digest: swapped) == decision && queue.decision(job, digest: shown) == nil)
        #expect(
            Self.refusal { try queue.decide(job, digest: nil, approved: false, reason: "late") }?.message.contains("already approved")
                == true)

        // Ending the wait returns the decision made on the patch it waited with.
        #expect(try queue.endPatchWait(job, digest: swapped) == decision)
        let third = try #require(try queue.recordPatch(lease, patch: "third", description: nil, actor: nil, evidence: nil, awaiting: false))
        #expect(
            Self.refusal { try queue.decide(job, digest: third, approved: true, reason: "") }?.message
                == "job \(job): not awaiting a decision (it is running)")
        // A lease no longer held records nothing.
        #expect(try queue.complete(lease, result: JobResult(exitStatus: 0, report: "{}"), audit: { _ in }))
        #expect(try queue.recordPatch(lease, patch: "late", description: nil, actor: nil, evidence: nil, awaiting: true) == nil)
        #expect(try queue.patch(of: job)?.digest == third)
    }

    @Test("a scan job is no heal job; an unknown job neither", arguments: QueueBackend.available)
    func onlyHeals(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        let scan = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "repo"))
        #expect(
            Self.refusal { try queue.decide(scan, digest: nil, approved: false, reason: "x") }?.message == "job \(scan): no such heal job")
        #expect(Self.refusal { try queue.decide(99, digest: nil, approved: false, reason: "x") }?.message == "job 99: no such heal job")
    }

    @Test("a decision reaches a waiting worker at once; on PostgreSQL it sleeps in LISTEN", arguments: QueueBackend.available)
    func waitWakes(_ backend: QueueBackend) throws {
        let (url, queue, lease) = try Self.claimedHeal(backend)
        let job = lease.jobID
        let digest = try #require(try queue.recordPatch(lease, patch: "p", description: nil, actor: nil, evidence: nil, awaiting: true))
        #expect(try queue.waitForDecision(job, digest: digest, timeout: 0) == nil)
        // A thread of its own: a blocking wait on Swift's cooperative pool would starve other tests.
        let waiter = BlockingWaiter { try JobQueue(url: url).waitForDecision(job, digest: digest, timeout: 120) }
        usleep(300_000)
        if backend == .postgres {
            // The waiter sleeps in poll(2) on its LISTEN connection: it sends no statement while waiting.
            let server = try #require(PostgresServer.shared)
            let name = PostgresServer.databaseName(try #require(JobQueueTests.postgresText(url)))
            let probe =
                "SELECT query_start FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%fleet_decisions%'"
            // Once the waiter has looked (this test's session and the waiter's): it connects,
            // migrates and listens first, which a loaded machine may take seconds over.
            let looked = Date().addingTimeInterval(60)
            while try server.psql(probe, database: name).split(separator: "\n").count < 2, Date() < looked { usleep(50_000) }
            let before = try server.psql(probe, database: name)
            #expect(before.split(separator: "\n").count == 2, "\(before)")
            usleep(500_000)
            #expect(try server.psql(probe, database: name) == before && !before.isEmpty)
        }
        let decision = try queue.decide(job, digest: digest, approved: false, reason: "not this")
        #expect(try waiter.result() == decision)
    }

    @Test("on PostgreSQL the server names the approver: a client's approver column is overwritten with session_user")
    func serverNamesTheApprover() throws {
        guard PostgresServer.available else { return }
        let (url, queue, lease) = try Self.claimedHeal(.postgres)
        let digest = try #require(try queue.recordPatch(lease, patch: "p", description: nil, actor: nil, evidence: nil, awaiting: true))
        let server = try #require(PostgresServer.shared)
        let name = PostgresServer.databaseName(try #require(JobQueueTests.postgresText(url)))
        _ = try server.psql(
            "INSERT INTO fleet_decisions (job_id, digest, approved, reason, approver, decided_at) VALUES (\(lease.jobID), '\(digest)', 1, '', 'security-lead', 0)",
            database: name)
        #expect(try queue.decision(lease.jobID, digest: digest)?.approver == "sentinel")
        #expect(try queue.submitter(of: lease.jobID) == "sentinel")
    }

    @Test(
        "an attempt keeps its error and a bounded tail of its log; a later record of it replaces the earlier",
        arguments: QueueBackend.available)
    func attempts(_ backend: QueueBackend) throws {
        let (_, queue, lease) = try Self.claimedHeal(backend)
        let long = (1...5000).map { "line \($0)" }.joined(separator: "\n")
        try queue.recordAttempt(
            JobAttempt(jobID: lease.jobID, attempt: 1, worker: "w1", outcome: "awaiting-approval", error: nil, log: "x"))
        try queue.recordAttempt(JobAttempt(jobID: lease.jobID, attempt: 1, worker: "w1", outcome: "failed", error: "boom", log: long))
        let stored = try queue.attempts(of: lease.jobID)
        #expect(stored.count == 1 && stored[0].outcome == "failed" && stored[0].error == "boom")
        #expect(stored[0].log.utf8.count <= JobAttempt.logLimit && stored[0].log.hasSuffix("line 5000") && stored[0].log.hasPrefix("line "))
    }
}
