import Foundation
import Support

/// Proves a queued proposal's files are the ones proposed before anything is committed or
/// published. The hash inside `proposal.json` cannot: whoever edits the patch edits it too. So
/// the digest of every file approval reads (`ProposalDigest`) was recorded outside the
/// directory when the proposal was made, in the queue row and in the audit log's `proposal`
/// entry (hash-chained and anchored, see `AuditHead`); both must agree, and the files must match.
public enum ProposalIntegrity {
    /// The files of `queued`, read once and checked against what the queue and the audit log at
    /// `auditLog` recorded. Throws `.invalidInput` naming the file that changed, or saying which
    /// record is missing or disagrees.
    public static func verified(_ queued: QueuedProposal, auditLog: String) throws -> ProposalFiles {
        guard let recorded = queued.digest.flatMap(ProposalDigest.init(parsing:)) else {
            throw SentinelError(
                .invalidInput,
                "proposal \(queued.id): the approval queue holds no digest of its files (an older Sentinel queued it); "
                    + "propose it again")
        }
        guard firstAudited(queued.id, in: auditLog) == recorded else {
            throw SentinelError(
                .invalidInput,
                "\(auditLog): the proposal entry of \(queued.id) is missing or records other files than the approval "
                    + "queue; not approved")
        }
        return try ProposalWriter.read(queued.directory, expected: recorded)
    }

    /// The digest in the first `proposal` entry for `id`, nil when there is none. The first: an
    /// entry appended later does not count, and changing the first one means rewriting the chain
    /// from there, which a head kept out of band shows (`audit verify --expect-head`).
    static func firstAudited(_ id: String, in path: String) -> ProposalDigest? {
        guard let data = try? BoundedFile.read(path, limit: 1 << 30, followLinks: false) else { return nil }
        for line in data.split(separator: 0x0A) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                object["event"] as? String == "proposal",
                (object["details"] as? [String: Any])?["proposal"] as? String == id
            else { continue }
            return ((object["inputs"] as? [String: Any])?["proposal"] as? String).flatMap(ProposalDigest.init(parsing:))
        }
        return nil
    }
}
