import Audit
import Digest
import Foundation
import Store
import Support

extension SentinelError.Code {
    /// The fleet's audit chain is not what this machine knows it to be (an entry edited, its tail
    /// cut off, another key): it is not extended, and a retry would not change that.
    public static let auditChain = SentinelError.Code("audit-chain")
}

/// The fleet's audit chain, in its database: the lines `AuditLog` writes to a file, each naming its
/// sequence number, the link of the one before (`prev`) and the key (`key`), appended by every
/// worker and `fleet approve`/`deny` one at a time. A link is HMAC-SHA-256 under the fleet's key
/// (`AuditKey`), which the database never holds: whoever can write the database cannot edit a line
/// or chain one of hers. The head (the last line's number and link) is stored with the lines and,
/// for each machine, in its head file (`FleetAuditState`), which shows a tail cut off.
///
/// Before appending, a writer checks the last line against the stored head with its key, and that
/// the chain still holds the entry its own head file names: it never chains onto a rewrite, so its
/// new head cannot hide one. `fleet audit verify` checks the chain as `audit verify` checks the file.
public struct FleetAudit {
    let queue: JobQueue
    let state: FleetAuditState
    let redactor: Redactor

    /// The chain in `queue`'s database, linked with `state`'s key; every line goes through `redactor`.
    public init(queue: JobQueue, state: FleetAuditState, redactor: Redactor = .process) {
        self.queue = queue
        self.state = state
        self.redactor = redactor
    }

    /// Appends `entry` and advances this machine's head file. Throws `.auditChain` without writing
    /// when the chain is not what this machine knows it to be (see the type).
    public func append(_ entry: AuditEntry, at date: Date = Date()) throws {
        var written: AuditHead?
        try queue.appendAuditLine { last, stored in
            let previous = try tail(last: last, stored: stored)
            let sequence = (previous?.sequence ?? 0) + 1
            let link = previous?.link ?? AuditLog.genesis
            let line = redactor.redact(try AuditLog.encode(entry, sequence: sequence, previous: link, date: date, key: state.key.id))
            written = AuditHead(sequence: sequence, hash: state.key.link(previous: link, line: Array(line.utf8)))
            return (line, sequence, written?.hash ?? "")
        }
        guard let written else { return }
        do {
            // After the commit: a head file never names an entry the database did not take.
            try state.advance(to: written, for: queue.location)
        } catch {
            throw SentinelError(.auditChain, "entry \(written.sequence) was recorded, but this machine's head file was not: \(error)")
        }
    }

    /// Throws `.invalidInput` when the chain's last entry is linked with another key than this
    /// machine's: a worker started without the fleet's key would have every entry refused.
    public func checkKey() throws {
        try queue.checkAuditTail { last, _ in
            let object = last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            guard let id = object?["key"] as? String, id != state.key.id else { return }
            throw SentinelError(
                .invalidInput,
                "\(queue.location): the audit chain is linked with another key (id \(id)) than this machine's (id \(state.key.id), \(state.keyPath)): copy the workers' \(FleetAuditState.keyFileName) here or name it with --audit-key-file"
            )
        }
    }

    /// Throws as `append` would, writing nothing: whether this machine may extend the chain now.
    public func checkTail() throws {
        try queue.checkAuditTail { last, stored in _ = try tail(last: last, stored: stored) }
    }

    /// Checks every line's link and number, the stored head, and each of `heads` (by default this
    /// machine's head file for the database, when it has one).
    public func verify(heads: [AuditVerifier.Checkpoint]? = nil) throws -> AuditVerifier.Result {
        // Head files first: each names an entry committed before it was written, so before this read.
        let heads = try heads ?? localHeads()
        let snapshot = try queue.auditSnapshot()
        let bytes: [UInt8] = snapshot.lines.flatMap { Array($0.utf8) + [UInt8(0x0A)] }
        let head = snapshot.head.map { AuditHead(sequence: $0.sequence, hash: $0.hash) }
        var result = AuditVerifier.verify(
            bytes, key: state.key, anchor: head, anchorName: "the stored head (fleet_audit_head)", heads: heads)
        if result.intact, head == nil, !bytes.isEmpty {
            result.broken = AuditVerifier.Break(line: 1, reason: "lines without a stored head (fleet_audit_head was emptied)")
        }
        return result
    }

    /// This machine's head file for the database, as a checkpoint; none when it has not appended.
    public func localHeads() throws -> [AuditVerifier.Checkpoint] {
        try state.head(for: queue.location).map {
            [AuditVerifier.Checkpoint(head: $0, name: "this machine's head file (\(state.headPath(for: queue.location)))")]
        } ?? []
    }

    /// The last entry's number and link, after checking it against the stored head and this
    /// machine's head file against the chain; nil for an empty chain.
    private func tail(last: String?, stored: (sequence: Int, hash: String)?) throws -> (sequence: Int, link: String)? {
        let location = queue.location
        var tail: (sequence: Int, link: String)?
        if let last {
            tail = try link(of: last)
            guard let stored else { throw refusal("entries without a stored head (fleet_audit_head was emptied)") }
            guard let tail, stored.sequence == tail.sequence, stored.hash == tail.link else {
                throw refusal("the last entry is not the one the stored head names: it was edited, or the head was")
            }
        } else if stored != nil {
            throw refusal("a stored head without entries: the chain was emptied")
        }
        if let held = try state.head(for: location) {
            let file = "this machine's head file (\(state.headPath(for: location)))"
            guard held.sequence <= (tail?.sequence ?? 0) else {
                throw refusal("\(file) names entry \(held.sequence), the chain ends at \(tail?.sequence ?? 0): entries were deleted")
            }
            guard let line = try queue.auditLine(held.sequence), try link(of: line).link == held.hash else {
                throw refusal("entry \(held.sequence) is not the one \(file) names: the chain was rewritten")
            }
        }
        return tail
    }

    /// A line's number and link: HMAC under this machine's key for a keyed line, SHA-256 for one
    /// written before the chain was keyed. A line of another key is refused.
    private func link(of line: String) throws -> (sequence: Int, link: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let sequence = object["seq"] as? Int, let previous = object["prev"] as? String
        else { throw refusal("an entry is not an audit entry") }
        switch object["key"] {
        case nil: return (sequence, SHA256.hex(line))
        case let id as String where id == state.key.id: return (sequence, state.key.link(previous: previous, line: Array(line.utf8)))
        case let id?:
            throw SentinelError(
                .auditChain,
                "\(queue.location): entry \(sequence) is linked with another key (id \(id)) than this machine's (id \(state.key.id)): copy the workers' \(FleetAuditState.keyFileName) into the state directory or name it with --audit-key-file"
            )
        }
    }

    private func refusal(_ problem: String) -> SentinelError {
        SentinelError(.auditChain, "\(queue.location): the audit chain was not extended: \(problem); run sentinel fleet audit verify")
    }
}
