import Foundation
import Support
import TestSupport
import Testing

@testable import Store

/// Issue 78, tenancy in the fleet (W7, W9): on a real PostgreSQL, every role of `FleetRole` tries
/// every sensitive action and is allowed exactly the ones its commands need: an approver approves
/// and writes its own audit chain, never a worker's head; only a worker claims and extends a
/// worker's chain. A submitter's unique key is hers: another tenant holding the same key first does
/// not stop her submission.
@Suite("Fleet roles: the role matrix and tenancy (PostgreSQL)", .integration, .serialized)
struct FleetRoleMatrixTests {
    /// The worker chain every role tries to move.
    static let workerChain = "worker-host:4242"

    /// A fresh database with the roles made and one login per role (two submitters).
    struct Fleet {
        let owner: JobQueue
        let alice: JobQueue
        let bob: JobQueue
        let logins: [FleetRole: (name: String, queue: JobQueue)]
    }

    static func fleet() throws -> Fleet? {
        guard PostgresServer.available else { return nil }
        let server = try #require(PostgresServer.shared)
        let url = try server.createDatabase()
        let database = PostgresServer.databaseName(url)
        let owner = try JobQueue(url: DatabaseURL(parsing: url))
        try owner.createRoles()
        let suffix = String(UUID().uuidString.prefix(8)).lowercased()
        func login(_ name: String, _ role: FleetRole) throws -> (String, JobQueue) {
            let login = "\(name)_\(suffix)"
            return (login, try FleetRolesTests.login(login, in: role, database: database, server: server))
        }
        let alice = try login("alice", .submitter)
        let logins: [FleetRole: (name: String, queue: JobQueue)] = [
            .submitter: alice, .worker: try login("wendy", .worker), .approver: try login("ann", .approver),
            .reader: try login("rita", .reader),
        ]
        return Fleet(owner: owner, alice: alice.1, bob: try login("bob", .submitter).1, logins: logins)
    }

    /// Whether `body` did what it tried: it threw no error, and `happened` (read by the owner, whom
    /// no row policy binds) says its effect is there. Row security refuses some writes by skipping
    /// the rows silently, so an effect is checked, not only an error.
    static func allowed(_ body: () throws -> Void, happened: () throws -> Bool = { true }) -> Bool {
        do {
            try body()
        } catch {
            return false
        }
        return (try? happened()) ?? false
    }

    /// The worker chain's stored sequence number, as the owner reads it.
    static func workerHead(_ owner: JobQueue) throws -> Int {
        try owner.storage.first(
            owner.storage.rows("SELECT seq FROM fleet_audit_chains WHERE chain = $1", [workerChain]), table: "fleet_audit_chains"
        ) { row throws(RowDecodingError) in try row.int("seq") } ?? -1
    }

    @Test("each role × each sensitive action: allowed exactly where the role's commands need it")
    func roleMatrix() throws {
        guard let fleet = try Self.fleet() else { return }
        let owner = fleet.owner
        // A worker's chain with one line, and a heal awaiting approval, as a running fleet has them.
        try owner.appendAuditLine(chain: Self.workerChain) { _, _ in (line: "{}", sequence: 1, hash: "h1") }
        let bobs = try fleet.bob.submit(JobRequest(kind: .heal, spec: "{}", repository: "repo"))
        let worker = try #require(fleet.logins[.worker]).queue
        let claimed = try #require(try worker.claim(owner: "w", leaseSeconds: 600))
        let lease = try #require(claimed.lease)
        let digest = try #require(try worker.recordPatch(lease, patch: "p", description: nil, actor: nil, evidence: nil, awaiting: true))
        var sequence = 100

        typealias Action = (name: String, allowedTo: Set<FleetRole>, attempt: (_ login: String, _ queue: JobQueue) -> Bool)
        let actions: [Action] = [
            (
                "submit a job", [.submitter, .worker],
                { _, queue in Self.allowed { _ = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "repo")) } }
            ),
            (
                "claim a job", [.worker],
                { _, queue in
                    _ = try? owner.submit(JobRequest(kind: .scan, spec: "{}", repository: "repo"))
                    return Self.allowed { _ = try queue.claim(owner: "matrix", leaseSeconds: 60) }
                }
            ),
            (
                "read another tenant's job", [.worker, .approver, .reader],
                { _, queue in Self.allowed { guard try queue.job(bobs) != nil else { throw SentinelError(.io, "hidden") } } }
            ),
            (
                "decide a patch", [.approver],
                { _, queue in Self.allowed { _ = try queue.decide(bobs, digest: digest, approved: false, reason: "matrix") } }
            ),
            (
                "move a worker's audit-chain head (W9)", [.worker],
                { _, queue in
                    let before = (try? Self.workerHead(owner)) ?? -1
                    return Self.allowed(
                        { try queue.storage.rows("UPDATE fleet_audit_chains SET seq = seq + 1 WHERE chain = $1", [Self.workerChain]) },
                        happened: { try Self.workerHead(owner) != before })
                }
            ),
            (
                "add a line to a worker's chain (W9)", [.worker],
                { _, queue in
                    sequence += 1
                    return Self.allowed {
                        try queue.storage.rows(
                            "INSERT INTO fleet_audit (chain, seq, line) VALUES ($1, $2, '{}')", [Self.workerChain, String(sequence)])
                    }
                }
            ),
            (
                "extend its own operator chain", [.approver],
                { login, queue in
                    Self.allowed { try queue.appendAuditLine(chain: "operator:" + login) { _, _ in (line: "{}", sequence: 1, hash: "h") } }
                }
            ),
            (
                "extend another operator's chain", [],
                { _, queue in
                    Self.allowed {
                        try queue.appendAuditLine(chain: "operator:security-lead") { _, _ in (line: "{}", sequence: 1, hash: "h") }
                    }
                }
            ),
            (
                "read the audit chains", [.worker, .approver, .reader],
                { _, queue in Self.allowed { _ = try queue.auditSnapshot() } }
            ),
            (
                "delete audit lines", [],
                { _, queue in
                    Self.allowed(
                        { try queue.storage.rows("DELETE FROM fleet_audit WHERE chain = $1", [Self.workerChain]) },
                        happened: { try owner.auditLines(chain: Self.workerChain).isEmpty })
                }
            ),
        ]
        for action in actions {
            for role in FleetRole.allCases {
                let login = try #require(fleet.logins[role])
                let allowed = action.attempt(login.name, login.queue)
                #expect(allowed == action.allowedTo.contains(role), "\(role.rawValue): \(action.name)")
            }
        }
        // The approver's attempts left the worker's chain as the worker knows it: it extends it.
        #expect(try worker.auditLines(chain: Self.workerChain).count >= 1)
    }

    @Test("W9: an approver's `seq = seq + 1` on a worker's chain head moves nothing; the worker appends its next line")
    func approverCannotMoveAWorkersHead() throws {
        guard let fleet = try Self.fleet() else { return }
        let worker = try #require(fleet.logins[.worker]).queue
        let approver = try #require(fleet.logins[.approver]).queue
        try worker.appendAuditLine(chain: Self.workerChain) { _, _ in (line: "{\"n\":1}", sequence: 1, hash: "h1") }
        _ = try? approver.storage.rows("UPDATE fleet_audit_chains SET seq = seq + 1", [])
        _ = try? approver.storage.rows("UPDATE fleet_audit_chains SET seq = seq + 1 WHERE chain = $1", [Self.workerChain])
        #expect(try Self.workerHead(fleet.owner) == 1)
        // The worker sees its own head and links its next line to it.
        try worker.appendAuditLine(chain: Self.workerChain) { last, head in
            #expect(head?.sequence == 1 && last == "{\"n\":1}")
            return (line: "{\"n\":2}", sequence: 2, hash: "h2")
        }
        #expect(try fleet.owner.auditLines(chain: Self.workerChain) == ["{\"n\":1}", "{\"n\":2}"])
    }

    @Test("W7: another submitter holding my unique key first does not stop my submission; my own key still dedupes")
    func uniqueKeysAreTheSubmitters() throws {
        guard let fleet = try Self.fleet() else { return }
        let key = JobUniqueness(key: "scan:repo@main")
        let request = JobRequest(kind: .scan, spec: "{}", repository: "repo")
        let bobs = try fleet.bob.submit(request, unique: key)
        #expect(!bobs.existing)
        let alices = try fleet.alice.submit(request, unique: key)
        #expect(!alices.existing && alices.id != bobs.id)
        #expect(try fleet.alice.job(alices.id) != nil)
        let again = try fleet.alice.submit(request, unique: key)
        #expect(again.existing && again.id == alices.id)
        // A windowed key too, and requeue: bob's running key does not hold alice's dead job back.
        let windowed = JobUniqueness(key: "nightly", window: 3600)
        #expect(try !fleet.bob.submit(request, unique: windowed).existing)
        #expect(try !fleet.alice.submit(request, unique: windowed).existing)
    }

    @Test("W7 on SQLite: one tenant, a unique key still dedupes across every submission")
    func sqliteUniqueKeysStillDedupe() throws {
        let queue = try JobQueue(url: .sqlite(path: NSTemporaryDirectory() + "unique-" + UUID().uuidString + "/fleet.sqlite"))
        let key = JobUniqueness(key: "scan:repo@main")
        let first = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "repo"), unique: key)
        let second = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "repo"), unique: key)
        #expect(!first.existing && second.existing && second.id == first.id)
    }
}
