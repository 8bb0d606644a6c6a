import Audit
import Digest
import Fleet
import Foundation
import Store
import Support
import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The fleet's audit chain in its database keeps the file log's guarantees on both backends: any
/// edited, deleted or reordered entry breaks the chain where it happened, a deleted tail shows
/// against the stored head, and writers on many connections append one at a time. It is keyed and
/// each machine holds its head (red team R5): someone who can write the database but holds neither
/// cannot cut the tail off, edit, or chain entries of her own unseen.
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

    /// Machines of one fleet: a state directory each, one key file they were all given.
    static func machines(_ count: Int) throws -> [FleetAuditState] {
        let key = try FleetAuditState.scratch()
        let keyFile = key.path + "/" + FleetAuditState.keyFileName
        return try (0..<count).map { _ in
            try FleetAuditState.open(stateDirectory: NSTemporaryDirectory() + "fleet-state-" + UUID().uuidString, keyFile: keyFile)
        }
    }

    @Test("appends from four machines at once chain into one intact log, which holds each machine's head", arguments: backends)
    func concurrentAppends(_ backend: Backend) throws {
        let url = try Self.freshURL(backend)
        _ = try JobQueue(url: url)
        let machines = try Self.machines(4)
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            do {
                let audit = FleetAudit(queue: try JobQueue(url: url), state: machines[writer])
                for n in 0..<25 { try audit.append(Self.entry(writer * 100 + n)) }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let queue = try JobQueue(url: url)
        let heads = try machines.map { state in
            AuditVerifier.Checkpoint(head: try #require(try state.head(for: queue.location)), name: state.path)
        }
        #expect(heads.contains { $0.head.sequence == 100 })
        let result = try FleetAudit(queue: queue, state: machines[0]).verify(heads: heads)
        #expect(result.intact && result.validLines == 100 && result.head?.sequence == 100 && result.unkeyedLines == 0)
    }

    @Test("an edited entry, a deleted one and a deleted tail are each found", arguments: backends)
    func tampering(_ backend: Backend) throws {
        let url = try Self.freshURL(backend)
        let queue = try JobQueue(url: url)
        let audit = FleetAudit(queue: queue, state: try .scratch(), redactor: Redactor(secrets: ["token-value-123456"]))
        for n in 1...5 { try audit.append(Self.entry(n)) }
        try audit.append(AuditEntry(event: "fleet.approval", actor: "alice", details: ["reason": "token-value-123456"]))
        #expect(try queue.auditLines().last?.contains("token-value-123456") == false)
        #expect(try audit.verify().intact)

        let tamper = try SQLHandle(url)
        try tamper.run("UPDATE fleet_audit SET line = replace(line, '\"w3\"', '\"mallory\"') WHERE seq = 3")
        #expect(try audit.verify().broken?.line == 4)
        try tamper.run("DELETE FROM fleet_audit WHERE seq >= 3")
        // The database's own head, then this machine's head file, each show the cut.
        let truncated = try audit.verify(heads: [])
        #expect(truncated.broken?.line == 3 && truncated.validLines == 2)
        try tamper.run("DELETE FROM fleet_audit_chains")
        #expect(try audit.verify(heads: []).broken?.reason.contains("without a stored head") == true)
        let held = try audit.verify()
        #expect(held.broken?.line == 3 && held.broken?.reason.hasPrefix("truncated: this machine's head file (") == true)
    }

    /// A worker appends an entry per job: its head file is written at most every `headFileLag`
    /// seconds and at `flush`, and what it committed meanwhile is held in memory.
    @Test(
        "a lagging head file: written at the first append and at flush; the writer's own head still refuses a cut tail", arguments: backends
    )
    func laggingHeadFile(_ backend: Backend) throws {
        let url = try Self.freshURL(backend)
        let queue = try JobQueue(url: url)
        let scratch = try FleetAuditState.scratch()
        let state = try FleetAuditState.open(stateDirectory: scratch.path, headFileLag: 3600)
        let audit = FleetAudit(queue: queue, state: state, chain: "w1")
        for n in 1...4 { try audit.append(Self.entry(n)) }
        #expect(try state.head(for: queue.location, chain: "w1")?.sequence == 1)
        try state.flush()
        #expect(try state.head(for: queue.location, chain: "w1")?.sequence == 4)
        #expect(try audit.verify().intact)

        // Entries 5 and 6 are in no head file yet; cut off with the stored head pointed at entry 4.
        try audit.append(Self.entry(5))
        try audit.append(Self.entry(6))
        let fifthLine = try #require(try queue.auditLine(5, chain: "w1"))
        let fifth = try #require(try JSONSerialization.jsonObject(with: Data(fifthLine.utf8)) as? [String: Any])
        let tamper = try SQLHandle(url)
        try tamper.run("DELETE FROM fleet_audit WHERE chain = 'w1' AND seq >= 5")
        try tamper.run("UPDATE fleet_audit_chains SET seq = 4, hash = '\(try #require(fifth["prev"] as? String))' WHERE chain = 'w1'")
        #expect {
            try audit.append(Self.entry(7))
        } throws: { error in
            (error as? SentinelError)?.code == .auditChain
                && "\(error)".contains("names entry 6, the chain ends at 4: entries were deleted")
        }
        // Flushed, the head file shows the cut to any verifier on this machine.
        try state.flush()
        #expect(
            try FleetAudit(queue: queue, state: try FleetAuditState.open(stateDirectory: scratch.path), chain: "w1").verify().broken?.line
                == 5)
    }

    @Test("the writer's last entry is not read back before its next append: an edit of it stays visible to verify", arguments: backends)
    func editedOwnTail(_ backend: Backend) throws {
        let url = try Self.freshURL(backend)
        let queue = try JobQueue(url: url)
        let audit = FleetAudit(queue: queue, state: try .scratch(), chain: "w1")
        for n in 1...3 { try audit.append(Self.entry(n)) }
        try SQLHandle(url).run("UPDATE fleet_audit SET line = replace(line, '\"w3\"', '\"mallory\"') WHERE chain = 'w1' AND seq = 3")
        // Entry 4 links to entry 3 as it was committed, not as it reads now.
        try audit.append(Self.entry(4))
        let result = try audit.verify()
        #expect(result.broken?.line == 4, "\(result)")
    }

    /// R5, as the red team did it and as the key and the head files answer: the tail of one machine's
    /// entries cut off, the stored head pointed at what is left, and another machine appending on.
    @Test("several machines: each head file holds the chain to its own last append", arguments: backends)
    func headsOfSeveralMachines(_ backend: Backend) throws {
        let url = try Self.freshURL(backend)
        let queue = try JobQueue(url: url)
        let machines = try Self.machines(2)
        let (a, b) = (FleetAudit(queue: queue, state: machines[0]), FleetAudit(queue: queue, state: machines[1]))
        for n in 1...3 { try a.append(Self.entry(n)) }
        for n in 4...5 { try b.append(Self.entry(n)) }
        try a.append(Self.entry(6))
        // Entry 6 (a's) deleted; the stored head set to entry 5, whose link is entry 6's `prev`.
        let sixthLine = try #require(try queue.auditLine(6))
        let sixth = try #require(try JSONSerialization.jsonObject(with: Data(sixthLine.utf8)) as? [String: Any])
        let tamper = try SQLHandle(url)
        try tamper.run("DELETE FROM fleet_audit WHERE seq = 6")
        try tamper.run("UPDATE fleet_audit_chains SET seq = 5, hash = '\(try #require(sixth["prev"] as? String))' WHERE chain = 'fleet'")

        // b's head file covers entries 1-5 only: the cut is past it (the trade-off its doc names).
        #expect(try b.verify().intact)
        let seenByA = try a.verify()
        #expect(seenByA.broken?.line == 6)
        #expect(
            seenByA.broken?.reason.hasPrefix("truncated: this machine's head file (\(machines[0].headPath(for: queue.location))) names 6")
                == true)
        // b appends on: its head holds, so it may; a's head file then names a line that is not there.
        try b.append(Self.entry(7))
        #expect(try a.verify().broken?.reason.contains("not the line this machine's head file") == true)
        #expect(throws: SentinelError.self) { try a.append(Self.entry(8)) }
        do {
            try a.append(Self.entry(8))
        } catch let error as SentinelError {
            #expect(error.code == .auditChain)
            #expect(
                error.message
                    == "\(queue.location): the audit chain was not extended: entry 6 is not the one this machine's head file (\(machines[0].headPath(for: queue.location))) names: the chain was rewritten; run sentinel fleet audit verify"
            )
        }
        #expect(try queue.auditLines().count == 6)
    }

    @Test("a chain linked with another key is refused: verify names both keys, an append writes nothing", arguments: backends)
    func anotherKey(_ backend: Backend) throws {
        let url = try Self.freshURL(backend)
        let queue = try JobQueue(url: url)
        let fleet = try FleetAuditState.scratch()
        let stranger = try FleetAuditState.scratch()
        try FleetAudit(queue: queue, state: fleet).append(Self.entry(1))
        let result = try FleetAudit(queue: queue, state: stranger).verify()
        var expected = AuditVerifier.Break(
            line: 1,
            reason: "linked with another key (id \(fleet.key.id)), not this one (id \(stranger.key.id)): not the fleet's key, or forged")
        // Which key and which of the chain's lines it wrote (here its only one), for `verify`'s repair line.
        (expected.otherKey, expected.otherKeyLines, expected.otherKeyLastLine) = (fleet.key.id, 1, 1)
        #expect(result.broken == expected)
        #expect(
            throws: SentinelError(
                .auditChain,
                "\(queue.location): entry 1 is linked with another key (id \(fleet.key.id)) than this machine's (id \(stranger.key.id)): copy the workers' fleet-audit.key into the state directory or name it with --audit-key-file"
            )
        ) {
            try FleetAudit(queue: queue, state: stranger).append(Self.entry(2))
        }
        #expect(try queue.auditLines().count == 1)
    }

    @Test("entries written before the chain was keyed: vouched for by the first keyed entry after them, refused alone")
    func unkeyedPrefix() throws {
        let url = try Self.freshURL(.sqlite)
        let queue = try JobQueue(url: url)
        // Two entries as an earlier Sentinel wrote them: linked by SHA-256, no key named.
        for n in 1...2 {
            try queue.appendAuditLine { last, _ in
                let previous = last.map { SHA256.hex($0) } ?? AuditLog.genesis
                let line = try AuditLog.encode(Self.entry(n), sequence: n, previous: previous, date: Date())
                return (line, n, SHA256.hex(line))
            }
        }
        let audit = FleetAudit(queue: queue, state: try .scratch())
        let alone = try audit.verify()
        #expect(alone.broken?.line == 1 && alone.broken?.reason.hasPrefix("no entry is keyed: ") == true)
        try audit.append(Self.entry(3))
        let vouched = try audit.verify()
        #expect(vouched.intact && vouched.validLines == 3 && vouched.unkeyedLines == 2)
        // An unkeyed entry after a keyed one is somebody's without the key.
        try queue.appendAuditLine { last, _ in
            let line = try AuditLog.encode(Self.entry(4), sequence: 4, previous: SHA256.hex(try #require(last)), date: Date())
            return (line, 4, SHA256.hex(line))
        }
        #expect(
            try audit.verify(heads: []).broken
                == AuditVerifier.Break(line: 4, reason: "prev does not match the link of line 3 (edited, deleted or reordered)"))
    }

    @Test(
        "the key file: made on first use (mode 600), the same key after; refused when others may read it, another user owns it, or it is a link"
    )
    func keyFile() throws {
        let state = NSTemporaryDirectory() + "fleet-state-" + UUID().uuidString
        let made = try FleetAuditState.open(stateDirectory: state)
        let path = state + "/fleet-audit.key"
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & 0o7777 == 0o600 && info.st_mode & S_IFMT == S_IFREG)
        #expect(try FleetAuditState.open(stateDirectory: state).key.id == made.key.id)
        #expect(try String(contentsOfFile: path, encoding: .utf8).count == 65)

        #expect(chmod(path, 0o640) == 0)
        #expect(
            throws: SentinelError(
                .invalidInput,
                "\(path): group or others may read or write it (mode 640): whoever reads it can forge the audit chain; chmod 600 it")
        ) { try FleetAuditState.open(stateDirectory: state) }
        #expect(chmod(path, 0o600) == 0 && chown(path, 65_534, 65_534) == 0)
        #expect(
            throws: SentinelError(
                .invalidInput, "\(path): owned by uid 65534, not by you (uid 0): whoever owns it can swap the key; keep your own copy")
        ) { try FleetAuditState.open(stateDirectory: state) }
        let elsewhere = NSTemporaryDirectory() + "fleet-state-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: elsewhere + "/fleet-audit.key", withDestinationPath: path)
        #expect(
            throws: SentinelError(
                .invalidInput, "\(elsewhere)/fleet-audit.key: is a symbolic link; name the key file itself", errno: Errno(rawValue: ELOOP))
        ) { try FleetAuditState.open(stateDirectory: elsewhere) }
        // `fleet audit verify` makes no key: a new one could verify nothing.
        let empty = NSTemporaryDirectory() + "fleet-state-" + UUID().uuidString
        #expect(
            throws: SentinelError(
                .invalidInput,
                "\(empty)/fleet-audit.key: no such file: copy the workers' fleet-audit.key here (mode 600), or name it with --audit-key-file"
            )
        ) { try FleetAuditState.open(stateDirectory: empty, createKey: false) }
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
final class Failures: Sendable {
    private let errors = Mutex<[String]>([])
    func add(_ error: String) { errors.withLock { $0.append(error) } }
    var all: [String] { errors.withLock { $0 } }
}

extension FleetAuditState {
    /// A fresh state directory of its own, its key made in it.
    static func scratch() throws -> FleetAuditState {
        try FleetAuditState.open(stateDirectory: NSTemporaryDirectory() + "fleet-state-" + UUID().uuidString)
    }
}
