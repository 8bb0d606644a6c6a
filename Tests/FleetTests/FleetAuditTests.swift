import Audit
import Fleet
import Foundation
import Store
import Support
import TestSupport
import Testing

/// The fleet's audit chain in its database keeps the file log's guarantees on both backends: any
/// edited, deleted or reordered entry breaks the chain where it happened, a deleted tail shows
/// against the stored head, and writers on many connections append one at a time.
@Suite("Fleet audit chain (SQLite and PostgreSQL)")
struct FleetAuditTests {
    enum Backend: String, CaseIterable, Sendable { case sqlite, postgres }
    static let backends: [Backend] = PostgresServer.available ? Backend.allCases : [.sqlite]

    static func freshURL(_ backend: Backend) throws -> DatabaseURL {
        switch backend {
        case .sqlite: return .sqlite(path: NSTemporaryDirectory() + "audit-" + UUID().uuidString + "/fleet.sqlite")
        case .postgres:
            return try DatabaseURL(parsing: try #require(PostgresServer.shared, "no PostgreSQL test server").createDatabase())
        }
    }

    static func entry(_ n: Int) -> AuditEntry {
        AuditEntry(event: "fleet.job.succeeded", actor: "w\(n % 4)", details: ["job": String(n)])
    }

    @Test("appends from four connections at once chain into one intact log", arguments: backends)
    func concurrentAppends(_ backend: Backend) throws {
        let url = try Self.freshURL(backend)
        _ = try JobQueue(url: url)
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            do {
                let audit = FleetAudit(queue: try JobQueue(url: url))
                for n in 0..<25 { try audit.append(Self.entry(writer * 100 + n)) }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let result = try FleetAudit(queue: JobQueue(url: url)).verify()
        #expect(result.intact && result.validLines == 100 && result.head?.sequence == 100)
    }

    @Test("an edited entry, a deleted one and a deleted tail are each found", arguments: backends)
    func tampering(_ backend: Backend) throws {
        let url = try Self.freshURL(backend)
        let queue = try JobQueue(url: url)
        let audit = FleetAudit(queue: queue, redactor: Redactor(secrets: ["token-value-123456"]))
        for n in 1...5 { try audit.append(Self.entry(n)) }
        try audit.append(AuditEntry(event: "fleet.approval", actor: "alice", details: ["reason": "token-value-123456"]))
        #expect(try queue.auditLines().last?.contains("token-value-123456") == false)
        #expect(try audit.verify().intact)

        let tamper = try SQLHandle(url)
        try tamper.run("UPDATE fleet_audit SET line = replace(line, '\"w3\"', '\"mallory\"') WHERE seq = 3")
        #expect(try audit.verify().broken?.line == 4)
        try tamper.run("DELETE FROM fleet_audit WHERE seq >= 3")
        let truncated = try audit.verify()
        #expect(truncated.broken?.line == 3 && truncated.validLines == 2)
        try tamper.run("DELETE FROM fleet_audit_head")
        #expect(try audit.verify().broken?.reason.contains("without a stored head") == true)
    }
}

/// Raw SQL on a fleet database, as someone with write access to it would tamper.
struct SQLHandle {
    let url: DatabaseURL
    init(_ url: DatabaseURL) throws { self.url = url }

    func run(_ sql: String) throws {
        switch url {
        case .postgres: try PostgresConnection(url: url).execute(sql)
        case .sqlite(let path): try Database(path: path).execute(sql)
        }
    }
}

/// Errors collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    func add(_ error: String) { lock.withLock { errors.append(error) } }
    var all: [String] { lock.withLock { errors } }
}
