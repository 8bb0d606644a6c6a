import Foundation
import Store
import Support

/// The offline OSV index: advisories in SQLite, their affected packages indexed by
/// (ecosystem, normalised name) so that a dependency lookup is one indexed query.
///
/// The CLI decides where the file lives (`StateDirectory.osvDatabase`: `$SENTINEL_HOME/osv.sqlite`
/// or `~/.cache/sentinel/osv.sqlite`).
/// A connection is not thread-safe; open one per thread or task.
public final class OSVDatabase {
    /// The database file.
    public let path: String
    let connection: Database
    /// The last lookup's statement and caches, reused until an import changes the data.
    var cachedLookup: Lookup?

    /// Opens (creating the file and its directory if needed) the database at `path`, bringing
    /// an older schema up to date.
    /// A descriptor path (`/proc/self/fd/N`: the database root lends the analysis sandbox) is
    /// read from that descriptor, read-only, and must already be at this build's schema.
    public init(path: String) throws {
        self.path = path
        if let fd = Self.lentDescriptor(path) {
            connection = try Database(mapping: fd, name: path)
            try connection.execute("PRAGMA cache_size = -16000;")
            try connection.requireLatest(Self.schema)
            return
        }
        connection = try Database(path: path)
        try connection.execute("PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000;")
        try connection.migrate(Self.schema)
    }

    /// The descriptor `/proc/self/fd/N` names, or nil for any other path.
    static func lentDescriptor(_ path: String) -> Int32? {
        let prefix = "/proc/self/fd/"
        guard path.hasPrefix(prefix), let fd = Int32(path.dropFirst(prefix.count)), fd >= 0 else { return nil }
        return fd
    }

    // MARK: Status

    /// Record counts per ecosystem and overall facts about the database.
    public struct Status: Sendable, Hashable {
        /// One ecosystem's share of the database.
        public struct EcosystemCount: Sendable, Hashable {
            /// The OSV ecosystem name (`PyPI`, `crates.io`).
            public var ecosystem: String
            /// Records with at least one affected package in the ecosystem (withdrawn included).
            public var records: Int
            /// Withdrawn records among them.
            public var withdrawn: Int
            /// The newest `modified` among them, as written.
            public var newestModified: String?
        }
        /// The database file's path.
        public var path: String
        /// The database file's size, bytes.
        public var fileSize: Int64
        /// Records in the database, withdrawn included.
        public var records: Int
        /// Withdrawn records among them.
        public var withdrawn: Int
        /// The newest `modified` of any record, as written; nil when the database is empty.
        public var newestModified: String?
        /// Counts per ecosystem.
        public var ecosystems: [EcosystemCount]
    }

    /// What the database holds.
    public func status() throws -> Status {
        let totals = try connection.prepare("SELECT COUNT(*), COUNT(withdrawn), MAX(modified_key) FROM records")
        try totals.step()
        let newestKey = totals.text(2)
        var newest: String?
        if let newestKey {
            let q = try connection.prepare("SELECT modified FROM records WHERE modified_key = ? LIMIT 1")
            q.bind(1, newestKey)
            if try q.step() { newest = q.text(0) }
        }
        let perEcosystem = try connection.prepare(
            """
            SELECT a.ecosystem, COUNT(DISTINCT r.rid), COUNT(DISTINCT CASE WHEN r.withdrawn IS NOT NULL THEN r.rid END),
                   MAX(r.modified_key)
            FROM affected a JOIN records r ON r.rid = a.rid
            GROUP BY a.ecosystem ORDER BY a.ecosystem
            """)
        var ecosystems = [Status.EcosystemCount]()
        let modifiedOf = try connection.prepare("SELECT modified FROM records WHERE modified_key = ? LIMIT 1")
        while try perEcosystem.step() {
            var newestHere: String?
            if let key = perEcosystem.text(3) {
                modifiedOf.reset()
                modifiedOf.bind(1, key)
                if try modifiedOf.step() { newestHere = modifiedOf.text(0) }
            }
            ecosystems.append(
                .init(
                    ecosystem: perEcosystem.text(0) ?? "", records: Int(perEcosystem.int(1)),
                    withdrawn: Int(perEcosystem.int(2)), newestModified: newestHere))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        return Status(
            path: path, fileSize: size, records: Int(totals.int(0)), withdrawn: Int(totals.int(1)),
            newestModified: newest, ecosystems: ecosystems)
    }

    /// The stored record with `id`, decoded from its kept JSON; nil when absent.
    public func record(id: String) throws -> OSVRecord? {
        let q = try connection.prepare("SELECT raw, raw_size, source FROM records WHERE id = ?")
        q.bind(1, id)
        guard try q.step() else { return nil }
        let json = try Compression.uncompress(q.blob(0), size: Int(q.int(1)))
        return try OSVDecoder.decodeJSON(Data(json), source: q.text(2) ?? id)
    }
}
