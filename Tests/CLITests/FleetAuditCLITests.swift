import Audit
import Digest
import Fleet
import Foundation
import Store
import TestSupport
import Testing

/// Red-team R5: whoever could write the fleet database deleted and edited audit entries, chained
/// them again with SHA-256, stored a new head, and `fleet audit verify` said intact. The chain is
/// keyed now (a key the database never holds) and every writer keeps its head in its own state
/// directory, so each of those rewrites is found, and the writer refuses to chain onto them.
@Suite("Fleet audit chain against a database writer, end to end")
struct FleetAuditCLITests {
    /// What someone holding the database, but neither the key nor a head file, does to the chain.
    enum Tampering: String, CaseIterable, Sendable {
        /// Entry 2 edited and entry 4 deleted, the rest chained again by SHA-256 and the head stored.
        case rechained
        /// The same, every line's `key` removed as well (the chain as an unkeyed writer made it).
        case rechainedWithoutKeys
        /// Entry 4 deleted and the stored head set to entry 3 (its link is entry 4's `prev`).
        case tailDeleted
    }

    /// The operator's chain: `fleet approve` and `deny` append to the chain of the one who runs them.
    /// The operator's chain: the OS account the tests run as (never `$USER`, which they set to "tester").
    static let chain = "operator:" + JobQueue.effectiveAccount()

    /// A fleet on SQLite with four decisions in its operator's audit chain, each appended by `fleet
    /// approve` or `fleet deny` from one state directory.
    static func fleetWithDecisions() throws -> (environment: [String: String], path: String, queue: JobQueue) {
        let path = NSTemporaryDirectory() + "fleet-audit-" + UUID().uuidString + "/fleet.sqlite"
        var environment = try CLI.fleetEnvironment(database: "sqlite:" + path)
        environment["USER"] = "tester"
        let queue = try JobQueue(url: .sqlite(path: path))
        for n in 1...4 {
            let (id, digest) = try awaitingPatch(queue)
            let decided = try CLI.run(
                ["fleet", n == 3 ? "deny" : "approve", String(id), "--patch", digest, "--reason", "r\(n)"], environment: environment)
            #expect(decided.status == 0, "\(decided.stderr)")
        }
        return (environment, path, queue)
    }

    /// A heal job whose worker (this test) recorded a verified patch and waits for a decision.
    static func awaitingPatch(_ queue: JobQueue, patch: String = "--- a/app.py\n+++ b/app.py\n") throws -> (id: Int64, digest: String) {
        let id = try queue.submit(JobRequest(kind: .heal, spec: "{}", repository: "repo"))
        let lease = try #require(try queue.claim(owner: "test-worker", leaseSeconds: 3600)?.lease)
        #expect(lease.jobID == id)
        let digest = try #require(
            try queue.recordPatch(lease, patch: patch, description: "fix", actor: "test", evidence: "{}", awaiting: true))
        return (id, digest)
    }

    /// The SHA-256 hex of `text`'s UTF-8 bytes.
    static func sha256(_ text: String) -> String { SHA256.hex(text) }

    /// Rewrites the chain in the database as `tampering` says, without the key.
    static func tamper(_ tampering: Tampering, path: String, queue: JobQueue) throws {
        let lines = try queue.auditLines(chain: chain)
        #expect(lines.count == 4)
        let database = try Database(path: path)
        switch tampering {
        case .tailDeleted:
            let last = try #require(try JSONSerialization.jsonObject(with: Data(lines[3].utf8)) as? [String: Any])
            let link = try #require(last["prev"] as? String)
            try database.execute("DELETE FROM fleet_audit WHERE seq = 4")
            try database.execute("UPDATE fleet_audit_chains SET seq = 3, hash = '\(link)'")
        case .rechained, .rechainedWithoutKeys:
            try database.execute("DELETE FROM fleet_audit WHERE seq = 4")
            var previous = String(repeating: "0", count: 64)
            for (index, line) in lines.prefix(3).enumerated() {
                var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if index == 1 { object["actor"] = "mallory" }
                if tampering == .rechainedWithoutKeys { object["key"] = nil }
                object["prev"] = previous
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                let rewritten = String(decoding: data, as: UTF8.self)
                let update = try database.prepare("UPDATE fleet_audit SET line = ? WHERE seq = ? AND chain = '\(Self.chain)'")
                update.bind(1, rewritten)
                update.bind(2, index + 1)
                try update.run()
                previous = sha256(rewritten)
            }
            try database.execute("UPDATE fleet_audit_chains SET seq = 3, hash = '\(previous)'")
        }
    }

    /// The head file `fleet approve` and `deny` kept for their chain of the database at `path`, in
    /// the state directory.
    static func headFile(_ environment: [String: String], path: String) throws -> String {
        try #require(environment["SENTINEL_HOME"]) + "/fleet-audit-" + SHA256.hex(path).prefix(16) + "-" + SHA256.hex(chain).prefix(16)
            + ".head"
    }

    @Test("a rewritten, re-chained or cut chain is found by fleet audit verify", arguments: Tampering.allCases)
    func tamperingIsFound(_ tampering: Tampering) throws {
        let (environment, path, queue) = try Self.fleetWithDecisions()
        let head = try Self.headFile(environment, path: path)
        let intact = try CLI.run(["fleet", "audit", "verify"], environment: environment)
        #expect(intact.status == 0, "\(intact.stdout)\(intact.stderr)")
        let link = try #require(try queue.auditHead(chain: Self.chain)?.hash)
        #expect(
            intact.stdout
                == "chain \(Self.chain): intact, 4 entries, head 4:\(link)\n  checked against this machine's head file (\(head)): entry 4\n"
                + "fleet audit intact: 1 chain, 4 entries; every outcome has one entry (4 jobs after job 0, 0 lease expiries) (\(path))\n"
        )

        try Self.tamper(tampering, path: path, queue: queue)
        let verified = try CLI.run(["fleet", "audit", "verify"], environment: environment)
        #expect(verified.status == 1, "\(verified.stdout)\(verified.stderr)")
        let (line, reason) =
            switch tampering {
            case .rechained: (2, "prev does not match the link of line 1 (edited, deleted or reordered)")
            case .rechainedWithoutKeys:
                (
                    1,
                    "no entry is keyed: written before the chain was keyed (the next append vouches for them) or rewritten by someone without the key"
                )
            case .tailDeleted: (4, "truncated: this machine's head file (\(head)) names 4 entries, the log holds 3")
            }
        #expect(
            verified.stdout
                == "\(path): chain \(Self.chain): entry \(line): \(reason)\n"
                + "chain \(Self.chain): broken at entry \(line) (\(line - 1) entries before it chain correctly)\n"
                + "fleet audit broken: 1 of 1 chains broken, 0 other problems (outcomes checked: 4 jobs after job 0, 0 lease expiries)\n")
    }

    @Test("a writer whose head the database no longer holds refuses to chain onto it, and records no decision")
    func appendAfterTamperingIsRefused() throws {
        let (environment, path, queue) = try Self.fleetWithDecisions()
        try Self.tamper(.tailDeleted, path: path, queue: queue)
        let (id, digest) = try Self.awaitingPatch(queue)
        let refused = try CLI.run(["fleet", "approve", String(id), "--patch", digest], environment: environment)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(
            refused.stderr
                == "sentinel: \(path): the audit chain '\(Self.chain)' was not extended: this machine's head file (\(try Self.headFile(environment, path: path))) names entry 4, the chain ends at 3: entries were deleted; run sentinel fleet audit verify\n"
        )
        #expect(try queue.auditLines(chain: Self.chain).count == 3 && queue.decisions(id).isEmpty)
    }

    @Test("a worker given another key than the chain's does not start")
    func workerWithAnotherKey() throws {
        let (environment, path, _) = try Self.fleetWithDecisions()
        let elsewhere = try CLI.fleetEnvironment(database: "sqlite:" + path)
        let worker = try CLI.run(["fleet", "worker"], environment: elsewhere, timeout: 30)
        let fleetKey = try FleetKeyID.of(home: try #require(environment["SENTINEL_HOME"]))
        let ownKey = try #require(elsewhere["SENTINEL_HOME"]) + "/fleet-audit.key"
        #expect(worker.status == 2)
        #expect(
            worker.stderr
                == "sentinel: \(path): the audit chain '\(Self.chain)' is linked with another key (id \(fleetKey)) than this machine's (id \(try FleetKeyID.of(home: try #require(elsewhere["SENTINEL_HOME"]))), \(ownKey)): copy the workers' fleet-audit.key here or name it with --audit-key-file\n"
        )
    }

    /// Issue 81: `fleet cancel` without the operator key exited 0 and wrote an operator chain
    /// linked with a key it made; `verify` with the fleet's key then failed and every worker
    /// started afterwards exited 2. An operator command now refuses before writing anything.
    @Test("an operator command without the fleet's key, or with another key, is refused and writes nothing")
    func operatorWithoutTheFleetsKeyWritesNothing() throws {
        let (environment, path, queue) = try Self.fleetWithDecisions()
        let (awaiting, digest) = try Self.awaitingPatch(queue)
        let id = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "repo"))
        let elsewhere = try CLI.fleetEnvironment(database: "sqlite:" + path)
        let home = try #require(elsewhere["SENTINEL_HOME"])
        let chains = try queue.auditChains()
        let lines = try queue.allAuditLines()

        let missing = try CLI.run(["fleet", "cancel", String(id)], environment: elsewhere)
        #expect(missing.status == 2, "\(missing.stdout)\(missing.stderr)")
        #expect(
            missing.stderr
                == "sentinel: \(home)/fleet-audit.key: no such file: copy the workers' fleet-audit.key here (mode 600), or name it with --audit-key-file\n"
        )
        #expect(!FileManager.default.fileExists(atPath: home + "/fleet-audit.key"))

        // A key of another fleet (made by a worker elsewhere), named with --audit-key-file.
        let other = try CLI.fleetEnvironment(database: "sqlite:" + NSTemporaryDirectory() + "fleet-other-" + UUID().uuidString + ".sqlite")
        let otherHome = try #require(other["SENTINEL_HOME"])
        _ = try FleetAuditState.open(stateDirectory: otherHome)
        let otherKey = otherHome + "/fleet-audit.key"
        let wrong = try CLI.run(["fleet", "cancel", String(id), "--audit-key-file", otherKey], environment: elsewhere)
        #expect(wrong.status == 2, "\(wrong.stdout)\(wrong.stderr)")
        #expect(
            wrong.stderr
                == "sentinel: \(path): the audit chain '\(Self.chain)' is linked with another key (id \(try FleetKeyID.of(home: try #require(environment["SENTINEL_HOME"])))) than this machine's (id \(try FleetKeyID.of(home: otherHome)), \(otherKey)): copy the workers' fleet-audit.key here or name it with --audit-key-file\n"
        )
        let approve = try CLI.run(["fleet", "approve", String(awaiting), "--patch", digest], environment: elsewhere)
        #expect(approve.status == 2, "\(approve.stdout)\(approve.stderr)")

        #expect(try queue.job(id)?.state == .queued)
        #expect(try queue.decisions(awaiting).isEmpty)
        #expect(try queue.auditChains() == chains && queue.allAuditLines() == lines)
        // The fleet's own key still works, and the chain is intact.
        let cancelled = try CLI.run(["fleet", "cancel", String(id)], environment: environment)
        #expect(cancelled.status == 0, "\(cancelled.stdout)\(cancelled.stderr)")
        let verified = try CLI.run(["fleet", "audit", "verify"], environment: environment)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    /// Issue 81 on PostgreSQL, as reported: an approver login (its own chain, `operator:ROLE`) with
    /// no key of the fleet's ran `fleet cancel`, exited 0 and chained with a key of its own.
    @Test("on PostgreSQL, an approver without the fleet's key approves nothing; with it, the approval is chained")
    func approverWithoutTheKeyOnPostgres() throws {
        guard PostgresServer.available else { return }
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let name = PostgresServer.databaseName(database)
        let owner = try CLI.fleetEnvironment(database: database)
        #expect(try CLI.run(["fleet", "init-db"], environment: owner).status == 0)
        let suffix = String(UUID().uuidString.prefix(8)).lowercased()
        func login(_ role: String, _ group: String) throws -> String {
            try CLI.postgresLogin(role, in: group, server: server, database: name)
        }
        let worker = try login("wrk_\(suffix)", "sentinel_worker")
        let approver = try login("ann_\(suffix)", "sentinel_approver")
        // A worker of the fleet has written its chain with the fleet's key.
        let workerEnvironment = try CLI.fleetEnvironment(database: worker)
        let fleetHome = try #require(workerEnvironment["SENTINEL_HOME"])
        let workers = try JobQueue(url: DatabaseURL(parsing: worker))
        try FleetAudit(queue: workers, state: try FleetAuditState.open(stateDirectory: fleetHome), chain: "wrk-a")
            .append(AuditEntry(event: "job.succeeded", actor: "wrk-a"))
        let id = try JobQueue(url: DatabaseURL(parsing: database)).submit(JobRequest(kind: .heal, spec: "{}", repository: "repo"))
        let lease = try #require(try workers.claim(owner: "wrk-a", leaseSeconds: 3600)?.lease)
        let digest = try #require(try workers.recordPatch(lease, patch: "p\n", description: nil, actor: nil, evidence: nil, awaiting: true))

        let environment = try CLI.fleetEnvironment(database: approver)
        let refused = try CLI.run(["fleet", "approve", String(id), "--patch", digest], environment: environment)
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("fleet-audit.key: no such file"), "\(refused.stderr)")
        #expect(try workers.decision(id, digest: digest) == nil)
        #expect(try workers.auditChains() == ["wrk-a"])
        let cancelled = try CLI.run(
            ["fleet", "approve", String(id), "--patch", digest, "--audit-key-file", fleetHome + "/fleet-audit.key"],
            environment: environment)
        #expect(cancelled.status == 0, "\(cancelled.stdout)\(cancelled.stderr)")
        #expect(try workers.decision(id, digest: digest)?.approver == "ann_\(suffix)")
        #expect(try workers.auditChains().sorted() == ["operator:ann_\(suffix)", "wrk-a"])
        let verified = try CLI.run(["fleet", "audit", "verify", "--audit-key-file", fleetHome + "/fleet-audit.key"], environment: owner)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    /// Issue 81: a chain linked with an unknown key (an operator's, written before operator
    /// commands checked theirs) is `verify`'s to report: it no longer stops a worker that holds
    /// the fleet's key.
    @Test("an operator chain linked with another key does not stop a worker holding the fleet's key", .enabled(if: TestHost.canSandbox))
    func aStrangeOperatorChainDoesNotStopWorkers() throws {
        let path = NSTemporaryDirectory() + "fleet-audit-" + UUID().uuidString + "/fleet.sqlite"
        let environment = try CLI.fleetEnvironment(database: "sqlite:" + path)
        let queue = try JobQueue(url: .sqlite(path: path))
        let fleet = try FleetAuditState.open(stateDirectory: try #require(environment["SENTINEL_HOME"]))
        try FleetAudit(queue: queue, state: fleet, chain: "worker-a").append(AuditEntry(event: "job.succeeded", actor: "worker-a"))
        let strangerHome = try #require(try CLI.fleetEnvironment(database: "sqlite:" + path)["SENTINEL_HOME"])
        let stranger = try FleetAuditState.open(stateDirectory: strangerHome)
        for _ in 0..<3 {
            try FleetAudit(queue: queue, state: stranger, chain: "operator:mallory").append(
                AuditEntry(event: "job.cancelled", actor: "mallory"))
        }

        let worker = try FleetProcess(["worker"], environment: environment)
        #expect(eventually(timeout: 120) { !worker.events("worker.started").isEmpty || !worker.process.isRunning }, "\(worker.events)")
        #expect(worker.process.isRunning, "\(worker.events)")
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0, "\(worker.events)")
        let verified = try CLI.run(["fleet", "audit", "verify"], environment: environment)
        #expect(verified.status == 1)
        #expect(verified.stdout.contains("operator:mallory"), "\(verified.stdout)")
        // Which entries, whose key, and what to do about them.
        let strangerKey = try FleetKeyID.of(home: strangerHome)
        let fleetKey = try FleetKeyID.of(home: try #require(environment["SENTINEL_HOME"]))
        #expect(
            verified.stdout.contains(
                "  3 entries from 1 to 3 are linked with key id \(strangerKey), not the fleet's (id \(fleetKey)): written on a machine holding another fleet-audit.key. To repair: check them on that machine (sentinel fleet audit verify --audit-key-file ITS-KEY)"
            ), "\(verified.stdout)")
    }

    @Test("verify without the key, and with another machine's head file")
    func keyAndHeadsFromTheOperator() throws {
        let (environment, path, _) = try Self.fleetWithDecisions()
        var elsewhere = try CLI.fleetEnvironment(database: "sqlite:" + path)
        let missing = try CLI.run(["fleet", "audit", "verify"], environment: elsewhere)
        let keyPath = try #require(elsewhere["SENTINEL_HOME"]) + "/fleet-audit.key"
        #expect(missing.status == 2)
        #expect(
            missing.stderr
                == "sentinel: \(keyPath): no such file: copy the workers' fleet-audit.key here (mode 600), or name it with --audit-key-file\n"
        )
        let key = try #require(environment["SENTINEL_HOME"]) + "/fleet-audit.key"
        let head = try Self.headFile(environment, path: path)
        elsewhere["SENTINEL_DATABASE_URL"] = "sqlite:" + path
        let given = try CLI.run(["fleet", "audit", "verify", "--audit-key-file", key, "--head", head], environment: elsewhere)
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stdout.contains("\n  checked against the head file \(head): entry 4\n"), "\(given.stdout)")
    }
}

/// The id a key file's key is named by in the lines it links: the first 16 hex digits of its
/// HMAC-SHA-256 of a fixed text.
enum FleetKeyID {
    static func of(home: String) throws -> String {
        let text = try String(contentsOfFile: home + "/fleet-audit.key", encoding: .utf8)
        let hex = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        let key = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0 }
        return String(HMACSHA256.hex(Array("sentinel audit key id".utf8), key: key).prefix(16))
    }
}
