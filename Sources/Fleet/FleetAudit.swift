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

/// The fleet's audit chains, in its database: the lines `AuditLog` writes to a file, each naming its
/// chain, its sequence number, the link of the one before (`prev`) and the key (`key`). Each writer
/// appends to a chain of its own (a worker's name, an operator's identity), serialised by a row lock
/// on that chain's head alone, so no writer can hold up another's appends; an outcome's entry is
/// appended in the transaction that records the outcome (`recording`). A link is HMAC-SHA-256 under
/// the fleet's key (`AuditKey`), which the database never holds: whoever can write the database
/// cannot edit a line, move it to another chain, or chain one of hers. Each chain's head (its last
/// line's number and link) is stored with the lines and, for each machine that appended to it, in
/// its head file (`FleetAuditState`), which shows a tail cut off.
///
/// Before appending, a writer checks its chain's last line against the stored head with its key,
/// and that the chain still holds the entry its own head file names: it never chains onto a
/// rewrite, so its new head cannot hide one. `fleet audit verify` checks every chain as `audit
/// verify` checks the file, and that every outcome has exactly one entry (`verifyAll`).
public struct FleetAudit {
    let queue: JobQueue
    let state: FleetAuditState
    let redactor: Redactor
    /// The chain this writer appends to.
    public let chain: String
    /// Called, instead of throwing, when an outcome and its entry committed but this machine's head
    /// file could not be written (a full disk): the outcome stands and must be reported as what it
    /// was, not as a refused chain. The head stays in memory and is written at the next append.
    /// Nil: `recording` throws `.auditChain`, as `append` always does.
    public var onHeadFileError: (@Sendable (any Error) -> Void)?

    /// The chain `chain` in `queue`'s database, linked with `state`'s key; every line goes through
    /// `redactor`. The default chain is the one every writer shared before per-writer chains.
    public init(queue: JobQueue, state: FleetAuditState, chain: String = JobQueue.legacyAuditChain, redactor: Redactor = .process) {
        self.queue = queue
        self.state = state
        self.chain = chain
        self.redactor = redactor
    }

    /// Appends `entry` to this writer's chain and advances this machine's head file: a standalone
    /// entry (an approval), in a transaction of its own. Throws `.auditChain` without writing when
    /// the chain is not what this machine knows it to be (see the type).
    public func append(_ entry: AuditEntry, at date: Date = Date()) throws {
        let written = try appendLine(entry, at: date)
        try advance(to: written)
    }

    /// Appends `entry` as the chain's next line, joining the caller's transaction when there is
    /// one; returns the new head, which the caller records in the head file after the commit.
    func appendLine(_ entry: AuditEntry, at date: Date) throws -> AuditHead {
        var written: AuditHead?
        try queue.extendAuditChain(chain) { stored, last in
            let previous = try tail(stored: stored, last: last)
            let sequence = (previous?.sequence ?? 0) + 1
            let link = previous?.link ?? AuditLog.genesis
            let line = redactor.redact(
                try AuditLog.encode(entry, sequence: sequence, previous: link, date: date, key: state.key.id, chain: chain))
            let head = AuditHead(sequence: sequence, hash: state.key.link(previous: link, line: Array(line.utf8)))
            written = head
            return (line, sequence, head.hash)
        }
        guard let written else { throw SentinelError(.database, "\(queue.location): the audit line was not appended") }
        return written
    }

    /// Records `written` in this machine's head file, after the commit: a head file never names an
    /// entry the database did not take.
    func advance(to written: AuditHead) throws {
        do {
            try state.advance(to: written, for: queue.location, chain: chain)
        } catch {
            throw SentinelError(
                .auditChain, "entry \(written.sequence) of \(chainName) was recorded, but this machine's head file was not: \(error)")
        }
    }

    /// The start of an operator's chain name (`operator:NAME`); a worker's name never starts so.
    public static let operatorChainPrefix = "operator:"

    /// Throws `.invalidInput` when this machine's key is not the fleet's: a worker or operator
    /// without the fleet's key would have every entry refused (or start a chain no one can check).
    /// The fleet's key is the one the workers' chains are linked with (the operators' when no
    /// worker has written yet); a chain linked with another (an operator's, written before
    /// operator commands checked their key) is `fleet audit verify`'s to report, and stops no one
    /// who holds the fleet's key.
    /// `lastLines`: the chains' last lines when the caller has just read them (`JobQueue.lastAuditLines`).
    public func checkKey(lastLines: [(chain: String, line: String)]? = nil) throws {
        let keys = try (lastLines ?? queue.lastAuditLines()).compactMap { chain, last -> (chain: String, id: String)? in
            let object = try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
            return (object?["key"] as? String).map { (chain, $0) }
        }
        let workers = keys.filter { !$0.chain.hasPrefix(Self.operatorChainPrefix) }
        let fleet = workers.isEmpty ? keys : workers
        guard !fleet.contains(where: { $0.id == state.key.id }) else { return }
        if let (chain, id) = fleet.first {
            throw SentinelError(
                .invalidInput,
                "\(queue.location): the audit chain\(chain == JobQueue.legacyAuditChain ? "" : " '\(chain)'") is linked with another key (id \(id)) than this machine's (id \(state.key.id), \(state.keyPath)): copy the workers' \(FleetAuditState.keyFileName) here or name it with --audit-key-file"
            )
        }
    }

    /// Throws as `append` would, writing nothing: whether this machine may extend its chain now.
    public func checkTail() throws {
        try queue.checkAuditTail(chain: chain) { last, stored in _ = try tail(stored: stored, last: { last }) }
    }

    /// Checks this writer's chain: every line's link, number and chain, its stored head, and each of
    /// `heads` (by default this machine's head file for the chain, when it has one). `verifyAll`
    /// checks every chain and the outcomes.
    public func verify(heads: [AuditVerifier.Checkpoint]? = nil) throws -> AuditVerifier.Result {
        // Head files first: each names an entry committed before it was written, so before this read.
        let heads = try heads ?? localHeads()
        let snapshot = try queue.auditSnapshot().chains.first { $0.chain == chain }
        return verify(snapshot ?? AuditChainSnapshot(chain: chain, lines: [], head: nil), heads: heads)
    }

    /// Checks one chain as read in a snapshot against `heads`.
    func verify(_ snapshot: AuditChainSnapshot, heads: [AuditVerifier.Checkpoint]) -> AuditVerifier.Result {
        let bytes: [UInt8] = snapshot.lines.flatMap { Array($0.utf8) + [UInt8(0x0A)] }
        let head = snapshot.head.map { AuditHead(sequence: $0.sequence, hash: $0.hash) }
        var result = AuditVerifier.verify(
            bytes, key: state.key, anchor: head, anchorName: "the stored head (fleet_audit_chains)", heads: heads)
        if result.intact, head == nil, !bytes.isEmpty {
            result.broken = AuditVerifier.Break(line: 1, reason: "lines without a stored head (its fleet_audit_chains row was deleted)")
            result.validLines = 0
        }
        // Each line names the chain it was appended to (the shared chain's oldest lines, none).
        for (index, line) in snapshot.lines.prefix(result.validLines).enumerated() {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let named = object?["chain"] as? String
            if named == snapshot.chain || (named == nil && snapshot.chain == JobQueue.legacyAuditChain && object?["chain"] == nil) {
                continue
            }
            result.broken = AuditVerifier.Break(
                line: index + 1, reason: "names the chain '\(named ?? "none")', not '\(snapshot.chain)': moved from another chain")
            result.validLines = index
            result.head = nil
            break
        }
        return result
    }

    /// This machine's head file for this writer's chain, as a checkpoint; none when it has not appended.
    public func localHeads() throws -> [AuditVerifier.Checkpoint] {
        try state.head(for: queue.location, chain: chain).map {
            [AuditVerifier.Checkpoint(head: $0, name: "this machine's head file (\(state.headPath(for: queue.location, chain: chain)))")]
        } ?? []
    }

    /// "the audit chain" for the shared chain (as before per-writer chains), "the audit chain 'NAME'" else.
    var chainName: String { chain == JobQueue.legacyAuditChain ? "the audit chain" : "the audit chain '\(chain)'" }

    /// The last entry's number and link, after checking it against the stored head and this
    /// machine's head file against the chain; nil for an empty chain. When the stored head is the
    /// one this process committed last, that is the tail: the line is not read again (an edit of
    /// it stays visible, since the next entry links to what was committed, not to what is there).
    private func tail(stored: (sequence: Int, hash: String)?, last read: () throws -> String?) throws -> (sequence: Int, link: String)? {
        let location = queue.location
        if let stored, let mine = state.committedHead(for: location, chain: chain), mine.sequence == stored.sequence,
            mine.hash == stored.hash
        {
            return (stored.sequence, stored.hash)
        }
        var tail: (sequence: Int, link: String)?
        if let last = try read() {
            tail = try link(of: last)
            guard let stored else { throw refusal("entries without a stored head (its fleet_audit_chains row was emptied)") }
            guard let tail, stored.sequence == tail.sequence, stored.hash == tail.link else {
                throw refusal("the last entry is not the one the stored head names: it was edited, or the head was")
            }
        } else if stored != nil {
            throw refusal("a stored head without entries: the chain was emptied")
        }
        if let held = try state.knownHead(for: location, chain: chain) {
            let file = "this machine's head file (\(state.headPath(for: location, chain: chain)))"
            guard held.sequence <= (tail?.sequence ?? 0) else {
                throw refusal("\(file) names entry \(held.sequence), the chain ends at \(tail?.sequence ?? 0): entries were deleted")
            }
            // Usually the head file names the last entry, read already: no second read then.
            let heldLink =
                try held.sequence == tail?.sequence
                ? tail?.link : queue.auditLine(held.sequence, chain: chain).map { try link(of: $0).link }
            guard heldLink == held.hash else {
                throw refusal("entry \(held.sequence) is not the one \(file) names: the chain was rewritten")
            }
        }
        return tail
    }

    /// A line's number and link: HMAC under this machine's key for a keyed line, SHA-256 for one
    /// written before the chain was keyed. A line of another key, or naming another chain, is refused.
    private func link(of line: String) throws -> (sequence: Int, link: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let sequence = object["seq"] as? Int, let previous = object["prev"] as? String
        else { throw refusal("an entry is not an audit entry") }
        let named = object["chain"] as? String
        guard named == chain || (object["chain"] == nil && chain == JobQueue.legacyAuditChain) else {
            throw refusal("entry \(sequence) names the chain '\(named ?? "none")': moved from another chain")
        }
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

    /// A line's JSON object; nil when it is not one.
    static func object(of line: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    private func refusal(_ problem: String) -> SentinelError {
        SentinelError(.auditChain, "\(queue.location): \(chainName) was not extended: \(problem); run sentinel fleet audit verify")
    }
}
