import Foundation
import Support

/// The offline OSV index: advisories in SQLite, their affected packages indexed by
/// (ecosystem, normalised name) so that a dependency lookup is one indexed query.
///
/// The CLI decides where the file lives (`$SENTINEL_HOME/osv.sqlite` or `.sentinel/osv.sqlite`).
/// A connection is not thread-safe; open one per thread or task.
public final class OSVDatabase {
    /// The database file.
    public let path: String
    let connection: SQLiteConnection
    /// The last lookup's statement and caches, reused until an import changes the data.
    var cachedLookup: Lookup?

    /// Opens (creating if needed) the database at `path`.
    public init(path: String) throws {
        self.path = path
        connection = try SQLiteConnection(path: path)
        try connection.execute(Self.schema)
        let version = try connection.prepare("PRAGMA user_version")
        try version.step()
        let found = version.int(0)
        guard found == 0 || found == 1 || found == Self.schemaVersion else {
            throw SentinelError(.invalidInput, "\(path): OSV database schema \(found) is not supported (expected \(Self.schemaVersion)); delete it and import again")
        }
        if found == 1 { try migrateFromVersion1() }
        if found != Self.schemaVersion { try connection.execute("PRAGMA user_version = \(Self.schemaVersion)") }
    }

    /// 2 added the alias index and the per-ecosystem feed state.
    static let schemaVersion: Int64 = 2

    /// Version 1 kept aliases only as text in `records`: index them (the new tables exist already).
    private func migrateFromVersion1() throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let rows = try connection.prepare("SELECT rid, aliases FROM records")
            let insert = try connection.prepare("INSERT INTO aliases(rid, alias) VALUES (?, ?)")
            while try rows.step() {
                for alias in (rows.text(1) ?? "").split(separator: "\n") {
                    insert.reset()
                    insert.bind(1, rows.int(0))
                    insert.bind(2, String(alias))
                    try insert.step()
                }
            }
            try connection.execute("PRAGMA user_version = \(Self.schemaVersion); COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    static let schema = """
        PRAGMA foreign_keys = ON;
        PRAGMA cache_size = -16000;
        CREATE TABLE IF NOT EXISTS records(
            rid INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            modified TEXT NOT NULL,      -- as written
            modified_key TEXT NOT NULL,  -- normalised so that text order is time order
            published TEXT,
            withdrawn TEXT,
            summary TEXT,
            aliases TEXT NOT NULL,       -- newline-separated
            severity TEXT NOT NULL,      -- TYPE<tab>score lines
            db_severity TEXT,
            refs TEXT NOT NULL,          -- TYPE<tab>url lines
            source TEXT NOT NULL,        -- the file it was imported from
            raw BLOB NOT NULL,           -- zlib-compressed JSON of the record
            raw_size INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS affected(
            rid INTEGER NOT NULL REFERENCES records(rid) ON DELETE CASCADE,
            ecosystem TEXT NOT NULL,
            name TEXT NOT NULL,          -- normalised per ecosystem
            ranges TEXT NOT NULL,        -- StoredAffected form
            versions TEXT NOT NULL,      -- equality keys, newline-separated
            severity TEXT
        );
        CREATE INDEX IF NOT EXISTS affected_package ON affected(ecosystem, name);
        CREATE INDEX IF NOT EXISTS affected_record ON affected(rid);
        CREATE TABLE IF NOT EXISTS aliases(   -- each record's aliases, so that aliases resolve both ways
            rid INTEGER NOT NULL REFERENCES records(rid) ON DELETE CASCADE,
            alias TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS aliases_alias ON aliases(alias);
        CREATE INDEX IF NOT EXISTS aliases_record ON aliases(rid);
        CREATE TABLE IF NOT EXISTS feeds(     -- where each ecosystem's data last came from, and when
            ecosystem TEXT PRIMARY KEY,
            source TEXT NOT NULL,        -- the export URL, or `import PATH`
            etag TEXT,
            last_modified TEXT,
            refreshed_at INTEGER NOT NULL  -- Unix seconds of the last import or up-to-date check
        );
        """

    // MARK: Status

    /// Record counts per ecosystem and overall facts about the database.
    public struct Status: Sendable, Hashable {
        /// One ecosystem's share of the database.
        public struct EcosystemCount: Sendable, Hashable {
            public var ecosystem: String
            /// Records with at least one affected package in the ecosystem (withdrawn included).
            public var records: Int
            /// Withdrawn records among them.
            public var withdrawn: Int
            /// The newest `modified` among them, as written.
            public var newestModified: String?
        }
        public var path: String
        public var fileSize: Int64
        public var records: Int
        public var withdrawn: Int
        public var newestModified: String?
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
        let perEcosystem = try connection.prepare("""
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
            ecosystems.append(.init(ecosystem: perEcosystem.text(0) ?? "", records: Int(perEcosystem.int(1)),
                                    withdrawn: Int(perEcosystem.int(2)), newestModified: newestHere))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        return Status(path: path, fileSize: size, records: Int(totals.int(0)), withdrawn: Int(totals.int(1)),
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
