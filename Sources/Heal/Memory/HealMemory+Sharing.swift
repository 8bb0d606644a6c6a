import Digest
import Foundation
import Store
import Support

/// One remembered attempt as another memory receives it (a fleet's workers share what each learnt):
/// every column but the local row id, and the MAC a worker's memory key made over all of them
/// (``signed(with:)``): a shared store is writable by submitters, so only an attempt whose MAC
/// verifies is ever taken in (``HealMemory/importShared(_:key:)``). `key` is the SHA-256 of its
/// canonical JSON, so a shared store keeps each attempt once however often it is sent.
public struct SharedAttempt: Sendable, Hashable, Codable {
    /// The signal's fingerprint, kind and message, and what makes signals similar.
    public var fingerprint: String
    /// The signal's kind.
    public var kind: String
    /// The signal's one-line message (redacted).
    public var signalMessage: String
    /// Exception type.
    public var exceptionType: String?
    /// The innermost frame.
    public var topFrame: String?
    /// The rule.
    public var ruleId: String?
    /// The package.
    public var package: String?
    /// The actor, strategy and description of the change.
    public var actor: String
    /// The template or strategy.
    public var strategy: String
    /// The proposal's description (redacted).
    public var description: String
    /// SHA-256 of the patch.
    public var patchHash: String
    /// The patch.
    public var patch: String
    /// How it ended (its raw value on the wire and under the MAC).
    public var verdict: Verdict
    /// The lesson (redacted).
    public var lesson: String?
    /// When it was recorded.
    public var created: String
    /// The change's key (memory skips failed changes by it).
    public var changeKey: String?
    /// The repository it was made on (``RepositoryIdentity``): memory replays it there alone.
    public var repository: String? = nil
    /// HMAC-SHA256 of every other field (``authenticatedBytes``) under a worker's memory key, in hex.
    public var mac: String? = nil

    /// The canonical JSON: what is sent and stored.
    public func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// SHA-256 of `encoded()`.
    public func key() throws -> String { SHA256.hex(try encoded()) }
}

extension HealMemory {
    /// Attempts recorded after row `rowID`, oldest first, at most `limit`, with their row ids (the
    /// caller's cursor for the next call).
    public func attempts(after rowID: Int64, limit: Int = 500) throws -> [(rowID: Int64, attempt: SharedAttempt)] {
        try withDatabase { database in
            let query = try database.prepare(
                """
                SELECT id, fingerprint, kind, signal_message, exception_type, top_frame, rule_id, package, actor, strategy,
                    description, patch_hash, patch, verdict, lesson, created, change_key, repository
                FROM heal_attempts WHERE id > ?1 ORDER BY id LIMIT ?2
                """)
            query.bind(1, rowID)
            query.bind(2, limit)
            var rows: [(Int64, SharedAttempt)] = []
            while try query.step() {
                let attempt = SharedAttempt(
                    fingerprint: query.text(1) ?? "", kind: query.text(2) ?? "", signalMessage: query.text(3) ?? "",
                    exceptionType: query.text(4), topFrame: query.text(5), ruleId: query.text(6), package: query.text(7),
                    actor: query.text(8) ?? "", strategy: query.text(9) ?? "", description: query.text(10) ?? "",
                    patchHash: query.text(11) ?? "", patch: query.text(12) ?? "", verdict: Verdict(stored: query.text(13)),
                    lesson: query.text(14), created: query.text(15) ?? "", changeKey: query.text(16), repository: query.text(17))
                rows.append((query.int(0), attempt))
            }
            return rows
        }
    }

    /// Adds attempts another memory recorded, skipping those already here (the same signal,
    /// repository, time, actor, strategy, patch and verdict); their prose goes through this
    /// memory's redactor like its own records'. Returns how many were added. Not public: what
    /// comes from a shared store enters through ``importShared(_:key:)``, which checks MACs.
    @discardableResult
    func importAttempts(_ attempts: [SharedAttempt]) throws -> Int {
        try withDatabase { database in
            try database.transaction {
                var added = 0
                for attempt in attempts {
                    let present = try database.prepare(
                        """
                        SELECT 1 FROM heal_attempts WHERE fingerprint = ?1 AND created = ?2 AND actor = ?3 AND strategy = ?4
                            AND patch_hash = ?5 AND verdict = ?6 AND repository IS ?7 LIMIT 1
                        """)
                    present.bind(1, attempt.fingerprint)
                    present.bind(2, attempt.created)
                    present.bind(3, attempt.actor)
                    present.bind(4, attempt.strategy)
                    present.bind(5, attempt.patchHash)
                    present.bind(6, attempt.verdict.rawValue)
                    present.bind(7, attempt.repository)
                    if try present.step() { continue }
                    let insert = try database.prepare(
                        """
                        INSERT INTO heal_attempts(fingerprint, kind, signal_message, exception_type, top_frame, rule_id, package,
                            actor, strategy, description, patch_hash, patch, verdict, lesson, created, change_key, repository)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
                        """)
                    insert.bind(1, attempt.fingerprint)
                    insert.bind(2, attempt.kind)
                    insert.bind(3, redactor.redact(attempt.signalMessage))
                    insert.bind(4, attempt.exceptionType)
                    insert.bind(5, attempt.topFrame)
                    insert.bind(6, attempt.ruleId)
                    insert.bind(7, attempt.package)
                    insert.bind(8, attempt.actor)
                    insert.bind(9, attempt.strategy)
                    insert.bind(10, redactor.redact(attempt.description))
                    insert.bind(11, attempt.patchHash)
                    insert.bind(12, attempt.patch)
                    insert.bind(13, attempt.verdict.rawValue)
                    insert.bind(14, attempt.lesson.map { redactor.redact($0) })
                    insert.bind(15, attempt.created)
                    insert.bind(16, attempt.changeKey)
                    insert.bind(17, attempt.repository)
                    try insert.run()
                    added += 1
                }
                return added
            }
        }
    }
}
