import Audit
import Digest
import Foundation
import Store
import Support

/// The fleet's audit chain, in its database: the same lines as `AuditLog` writes to a file (each
/// holding the SHA-256 of the one before and its sequence number), appended by every worker and
/// `fleet approve`/`deny` one at a time, with the head stored apart from the lines so that a deleted
/// tail shows. `fleet audit verify` checks it as `audit verify` checks the file.
public struct FleetAudit {
    let queue: JobQueue
    let redactor: Redactor

    /// The chain in `queue`'s database; every line goes through `redactor`.
    public init(queue: JobQueue, redactor: Redactor = .process) {
        self.queue = queue
        self.redactor = redactor
    }

    /// Appends `entry`.
    public func append(_ entry: AuditEntry, at date: Date = Date()) throws {
        try queue.appendAuditLine { last in
            var sequence = 1
            var previous = AuditLog.genesis
            if let last {
                guard let object = try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any],
                    let number = object["seq"] as? Int
                else {
                    throw SentinelError(
                        .invalidInput, "\(queue.location): the audit chain's last line is not an entry; run sentinel fleet audit verify")
                }
                sequence = number + 1
                previous = SHA256.hex(last)
            }
            let line = redactor.redact(try AuditLog.encode(entry, sequence: sequence, previous: previous, date: date))
            return (line, sequence, SHA256.hex(line))
        }
    }

    /// Checks every line's link and number, and the stored head.
    public func verify() throws -> AuditVerifier.Result {
        let bytes: [UInt8] = try queue.auditLines().flatMap { Array($0.utf8) + [UInt8(0x0A)] }
        let head = try queue.auditHead().map { AuditHead(sequence: $0.sequence, hash: $0.hash) }
        var result = AuditVerifier.verify(bytes, anchor: head, anchorName: "the stored head (fleet_audit_head)")
        if result.intact, head == nil, !bytes.isEmpty {
            result.broken = AuditVerifier.Break(line: 1, reason: "lines without a stored head (fleet_audit_head was emptied)")
        }
        return result
    }
}
