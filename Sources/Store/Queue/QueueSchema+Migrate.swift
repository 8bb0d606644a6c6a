import Support

extension QueueSchema {
    /// Which migrations ran, and when: one row per version.
    static let migrationsTable = """
        CREATE TABLE IF NOT EXISTS fleet_schema_migrations (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at DOUBLE PRECISION NOT NULL
        )
        """

    /// The advisory lock migrators take on PostgreSQL: the key builds before numbered migrations
    /// took too, so an old and a new build starting together still create the tables one at a time.
    static let migrationLock = "sentinel-fleet-schema"

    /// Brings `storage`'s fleet tables to `latestVersion`: every migration past the recorded one
    /// runs, each with its row in `fleet_schema_migrations`, in one transaction under the migration
    /// lock (an advisory transaction lock on PostgreSQL, the write lock of `BEGIN IMMEDIATE` on
    /// SQLite), and the version is read again under that lock, so concurrent migrators apply each
    /// migration once and a running worker sees the tables before the upgrade or after it, never
    /// between two steps (its claim checks the version: ``JobQueue/claim(owner:leaseSeconds:)``).
    /// A database newer than this build is refused, never written.
    static func migrate(_ storage: any QueueStorage) throws {
        // Every worker and command opens the queue: when the tables are current, no DDL and no lock
        // (on PostgreSQL even a CREATE INDEX IF NOT EXISTS locks fleet_jobs against every claim).
        // A database from before numbered migrations has no such table yet: the locked path adopts it.
        if let found = try? recordedVersion(storage), found == latestVersion { return }
        try storage.transaction { while try migrateOneStep(storage) {} }
    }

    /// In the migration's transaction, under the lock: applies the next migration and returns
    /// true, or returns false when there is none left.
    static func migrateOneStep(_ storage: any QueueStorage) throws -> Bool {
        if storage.isServer {
            // A migration may wait for another migrator and rewrite whole tables: past the session's short limits.
            try storage.script("SET LOCAL lock_timeout = '10min'; SET LOCAL statement_timeout = '60min'")
            try storage.rows("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [migrationLock])
        }
        try storage.script(migrationsTable)
        var current = try recordedVersion(storage) ?? 0
        if current == 0, let legacy = try legacyVersion(storage) {
            // Before numbered migrations, `fleet_schema` held the version; only 1 was ever released.
            guard legacy == 1 else { throw newer(storage, legacy) }
            try record(initial, storage)
            current = 1
        }
        guard current <= latestVersion else { throw newer(storage, current) }
        guard let next = migrations.first(where: { $0.version == current + 1 }) else { return false }
        try storage.script(next.sql(for: storage))
        try record(next, storage)
        // Builds from before numbered migrations read only `fleet_schema` and refuse a version above
        // theirs: kept at the latest, it stops them writing tables they no longer know.
        try storage.rows("DELETE FROM fleet_schema", [])
        try storage.rows("INSERT INTO fleet_schema (version) VALUES ($1)", [String(next.version)])
        return true
    }

    /// The highest migration recorded; nil when none is (or, outside the locked path, no table).
    static func recordedVersion(_ storage: any QueueStorage) throws -> Int? {
        try storage.first(storage.rows("SELECT max(version) AS version FROM fleet_schema_migrations", []), table: "fleet_schema_migrations")
        {
            row throws(RowDecodingError) in try row.optionalText("version") == nil ? nil : row.int("version")
        } ?? nil
    }

    /// The version in `fleet_schema`, the only record before numbered migrations; nil without one.
    private static func legacyVersion(_ storage: any QueueStorage) throws -> Int? {
        guard try storage.tableExists("fleet_schema") else { return nil }
        return try storage.first(storage.rows("SELECT max(version) AS version FROM fleet_schema", []), table: "fleet_schema") {
            row throws(RowDecodingError) in try row.optionalText("version") == nil ? nil : row.int("version")
        } ?? nil
    }

    private static func record(_ migration: QueueMigration, _ storage: any QueueStorage) throws {
        try storage.rows(
            "INSERT INTO fleet_schema_migrations (version, name, applied_at) VALUES ($1, $2, {now})",
            [String(migration.version), migration.name])
    }

    private static func newer(_ storage: any QueueStorage, _ found: Int) -> SentinelError {
        SentinelError(
            .database,
            "\(storage.name): the fleet tables are at migration \(found), newer than this sentinel knows (\(latestVersion)); upgrade sentinel"
        )
    }
}
