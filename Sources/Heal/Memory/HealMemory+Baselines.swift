import Foundation
import Store

/// The baseline cache (issue 79, "cache the baseline per tree digest"): the verify command's
/// result on an unchanged tree, kept in the heal memory by ``BaselineKey``, so that a heal of a
/// tree already healed from (another finding, a heal run again after a refused proposal) does
/// not run the command on it again. Only a run that ended by itself is kept: a timeout or a
/// sandbox that could not start says nothing about the tree.
extension HealMemory {
    /// How long a cached baseline is used: the key holds the tree, the command and the sandbox,
    /// not what the sandbox lends read-only from the host (an interpreter upgraded meanwhile).
    public static let baselineLifetime: Double = 24 * 3600

    /// The most baselines kept; the oldest go first.
    static let baselineLimit = 256

    /// The baseline kept for `key` within ``baselineLifetime``, with its output; nil when none is.
    /// A row this build cannot read is no baseline (the command then runs).
    public func baseline(_ key: BaselineKey, now: Date = Date()) throws -> (verification: Verification, output: String)? {
        try withDatabase { database in
            let query = try database.prepare("SELECT verification, output, created FROM heal_baselines WHERE key = ?1")
            query.bind(1, key.digest)
            guard try query.step(), let text = query.text(0), let output = query.text(1) else { return nil }
            let created = query.double(2)
            guard now.timeIntervalSince1970 - created < Self.baselineLifetime, now.timeIntervalSince1970 >= created,
                let verification = try? JSONDecoder().decode(Verification.self, from: Data(text.utf8))
            else { return nil }
            return (verification, output)
        }
    }

    /// Keeps `verification` (with its `output`) as `key`'s baseline when the run ended by itself.
    public func rememberBaseline(_ key: BaselineKey, _ verification: Verification, output: String, now: Date = Date()) throws {
        guard verification.reason == .exited else { return }
        let encoded = String(decoding: try JSONEncoder().encode(verification), as: UTF8.self)
        try withDatabase { database in
            try database.transaction {
                let upsert = try database.prepare(
                    "INSERT OR REPLACE INTO heal_baselines(key, verification, output, created) VALUES (?1, ?2, ?3, ?4)")
                upsert.bind(1, key.digest)
                upsert.bind(2, encoded)
                upsert.bind(3, output)
                upsert.bind(4, now.timeIntervalSince1970)
                try upsert.run()
                let trim = try database.prepare(
                    "DELETE FROM heal_baselines WHERE key NOT IN (SELECT key FROM heal_baselines ORDER BY created DESC LIMIT ?1)")
                trim.bind(1, Self.baselineLimit)
                try trim.run()
            }
        }
    }
}
