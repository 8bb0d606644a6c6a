import Foundation
import Support
import TestSupport
import Testing

@testable import Store

/// Issue 58, roles: `fleet init-db` makes four group roles on PostgreSQL with exactly the grants
/// each needs and row-level security on jobs and results. Login roles in each group, on a real
/// server: each does its job and is refused the rest (permission denied), submitters see only their
/// own jobs, and an approver cannot name another approver.
@Suite("Fleet database roles (PostgreSQL)", .integration, .serialized)
struct FleetRolesTests {
    /// A login role `name` in `group`, and the queue it opens on `database`.
    static func login(_ name: String, in group: FleetRole, database: String, server: PostgresServer) throws -> JobQueue {
        _ = try server.psql(
            "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '\(name)') THEN CREATE ROLE \(name) LOGIN PASSWORD 'pw-\(name)'; END IF; END $$; GRANT \(group.rawValue) TO \(name)"
        )
        return try JobQueue(url: DatabaseURL(parsing: "postgres://\(name):pw-\(name)@127.0.0.1:\(server.port)/\(database)"))
    }

    /// True when `body` fails with PostgreSQL's permission error (a grant or a row policy refused it).
    static func denied(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch {
            return "\(error)".contains("permission denied") || "\(error)".contains("row-level security")
        }
    }

    @Test("each role does its job and is refused the rest; init-db twice is no error; SQLite has no roles")
    func rolesOnARealServer() throws {
        guard PostgresServer.available else { return }
        let server = try #require(PostgresServer.shared)
        let url = try server.createDatabase()
        let name = PostgresServer.databaseName(url)
        let owner = try JobQueue(url: DatabaseURL(parsing: url))
        try owner.createRoles()
        try owner.createRoles()
        let suffix = String(UUID().uuidString.prefix(8)).lowercased()
        let alice = try Self.login("alice_\(suffix)", in: .submitter, database: name, server: server)
        let bob = try Self.login("bob_\(suffix)", in: .submitter, database: name, server: server)
        let worker = try Self.login("worker_\(suffix)", in: .worker, database: name, server: server)
        let approver = try Self.login("ann_\(suffix)", in: .approver, database: name, server: server)
        let reader = try Self.login("rita_\(suffix)", in: .reader, database: name, server: server)

        // Submitters: submit, see their own jobs only, and nothing else.
        let mine = try alice.submit(JobRequest(kind: .heal, spec: "{}", repository: "repo"))
        let theirs = try bob.submit(JobRequest(kind: .scan, spec: "{}", repository: "repo"))
        #expect(try alice.job(mine) != nil && alice.job(theirs) == nil && alice.jobs().map(\.id) == [mine])
        #expect(try alice.submitter(of: mine) == "alice_\(suffix)")
        #expect(Self.denied { _ = try alice.claim(owner: "a", leaseSeconds: 60) })
        #expect(Self.denied { _ = try alice.patch(of: mine) })
        #expect(Self.denied { try alice.storage.rows("UPDATE fleet_jobs SET priority = 9 WHERE id = $1", [String(mine)]) })
        #expect(
            Self.denied {
                try alice.storage.rows(
                    "INSERT INTO fleet_jobs (kind, spec, repository, max_attempts, run_after, created_at, submitted_by) VALUES ('scan', '{}', 'r', 1, 0, 0, 'bob')",
                    [])
            })

        // The worker: claims, records the patch and the attempt, appends to the audit chain; decides nothing.
        let claimed = try #require(try worker.claim(owner: "w", leaseSeconds: 600))
        #expect(claimed.id == mine)
        let lease = try #require(claimed.lease)
        let digest = try #require(try worker.recordPatch(lease, patch: "p", description: nil, actor: nil, evidence: nil, awaiting: true))
        try worker.recordAttempt(JobAttempt(jobID: mine, attempt: 1, worker: "w", outcome: "awaiting-approval", error: nil, log: ""))
        try worker.appendAuditLine { _, _ in (line: "{}", sequence: 1, hash: "h") }
        #expect(Self.denied { _ = try worker.decide(mine, digest: digest, approved: true, reason: "self-approved") })

        // The approver: reads jobs and patches, decides under the server's name for it, nothing else.
        #expect(try approver.patch(of: mine)?.digest == digest)
        #expect(Self.denied { _ = try approver.submit(JobRequest(kind: .scan, spec: "{}", repository: "repo")) })
        #expect(Self.denied { _ = try approver.claim(owner: "a", leaseSeconds: 60) })
        #expect(
            Self.denied {
                try approver.storage.rows(
                    "INSERT INTO fleet_decisions (job_id, digest, approved, reason, approver, decided_at) VALUES ($1, $2, 1, '', 'security-lead', 0)",
                    [String(mine), digest])
            })
        let decision = try approver.decide(mine, digest: String(digest.prefix(12)), approved: true, reason: "ok")
        #expect(decision.approver == "ann_\(suffix)")
        #expect(Self.denied { try approver.storage.rows("UPDATE fleet_decisions SET approver = 'security-lead'", []) })
        // Its own chain only (issue 78, W9): the fleet's shared chain is refused.
        try approver.appendAuditLine(chain: "operator:ann_\(suffix)") { _, _ in (line: "{}", sequence: 1, hash: "h2") }
        #expect(Self.denied { try approver.appendAuditLine { _, _ in (line: "{}", sequence: 2, hash: "h2") } })

        // The worker ends the job; its submitter reads the result, another submitter does not see it.
        #expect(try worker.complete(lease, result: JobResult(exitStatus: 0, report: "{}"), audit: { _ in }))
        #expect(try alice.result(mine)?.exitStatus == 0 && bob.result(mine) == nil)

        // The reader: everything, read only.
        #expect(try reader.jobs().count == 2 && reader.patch(of: mine) != nil && reader.decisions(mine).count == 1)
        #expect(Self.denied { _ = try reader.submit(JobRequest(kind: .scan, spec: "{}", repository: "repo")) })
        #expect(Self.denied { _ = try reader.claim(owner: "r", leaseSeconds: 60) })
        #expect(Self.denied { try reader.storage.rows("DELETE FROM fleet_audit", []) })

        let sqlite = try JobQueue(url: .sqlite(path: NSTemporaryDirectory() + "roles-" + UUID().uuidString + "/fleet.sqlite"))
        #expect(throws: SentinelError.self) { try sqlite.createRoles() }
    }
}
