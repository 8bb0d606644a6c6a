import Support

extension Database {
    /// Brings `schema` to its latest version: the migrations past the stored version run in order,
    /// all in one transaction with the new version, so a failure leaves the file as it was. A file
    /// already current is only read (a read-only database still opens). Returns the version found.
    @discardableResult
    public func migrate(_ schema: Schema) throws -> Int {
        let found = try schemaVersion(of: schema)
        if found == schema.latestVersion { return found }
        try refuseNewer(found, schema)
        return try transaction {
            // Another process may have migrated between the read above and the write lock.
            let current = try schemaVersion(of: schema)
            try refuseNewer(current, schema)
            for migration in schema.migrations where migration.version > current {
                try migration.apply(self)
            }
            try execute(Self.versionsTable)
            let upsert = try prepare(
                """
                INSERT INTO store_versions(store, version) VALUES (?1, ?2)
                ON CONFLICT(store) DO UPDATE SET version = ?2
                """)
            upsert.bind(1, schema.store)
            upsert.bind(2, schema.latestVersion)
            try upsert.run()
            if schema.adoptsUserVersion { try execute("PRAGMA user_version = \(schema.latestVersion)") }
            return current
        }
    }

    /// Checks, without writing, that the file holds `schema` at its latest version: a read-only
    /// connection cannot bring it up to date, so an older one is refused with the schema's remedy.
    public func requireLatest(_ schema: Schema) throws {
        let found = try schemaVersion(of: schema)
        try refuseNewer(found, schema)
        guard found == schema.latestVersion else {
            let remedy = schema.remedy.map { "; \($0)" } ?? ""
            throw SentinelError(
                .invalidInput,
                "\(path): \(schema.title) schema \(found) is older than this build's (\(schema.latestVersion)) and this connection cannot update it\(remedy)"
            )
        }
    }

    /// The stored version of `schema` (0 for a store this file has never held).
    public func schemaVersion(of schema: Schema) throws -> Int {
        let table = try prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'store_versions'")
        if try table.step() {
            let row = try prepare("SELECT version FROM store_versions WHERE store = ?1")
            row.bind(1, schema.store)
            if try row.step() { return Int(row.int(0)) }
        }
        guard schema.adoptsUserVersion else { return 0 }
        let pragma = try prepare("PRAGMA user_version")
        try pragma.step()
        return Int(pragma.int(0))
    }

    private func refuseNewer(_ found: Int, _ schema: Schema) throws {
        guard found > schema.latestVersion else { return }
        let remedy = schema.remedy.map { "; \($0)" } ?? ""
        throw SentinelError(
            .invalidInput,
            "\(path): \(schema.title) schema \(found) is not supported (expected \(schema.latestVersion))\(remedy)")
    }

    private static let versionsTable = """
        CREATE TABLE IF NOT EXISTS store_versions(   -- one row per store kept in this file
            store TEXT PRIMARY KEY,
            version INTEGER NOT NULL
        )
        """
}
