import Store

extension OSVDatabase {
    /// The OSV index's tables. Files written before `store_versions` kept the version in
    /// `PRAGMA user_version`, which this store adopts.
    static let schema = Schema(
        store: "osv", title: "OSV database", migrations: [recordsAndAffected, aliasesAndFeeds],
        adoptsUserVersion: true, remedy: "delete it and import again")

    /// 1: records and their affected packages, indexed by (ecosystem, normalised name).
    static let recordsAndAffected = Migration(
        version: 1,
        sql: """
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
            """)

    /// 2: the alias index (so that aliases resolve both ways) and the per-ecosystem feed state.
    /// Version 1 kept aliases only as text in `records`: index the ones already stored.
    static let aliasesAndFeeds = Migration(version: 2) { database in
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS aliases(
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
            """)
        let rows = try database.prepare("SELECT rid, aliases FROM records")
        let insert = try database.prepare("INSERT INTO aliases(rid, alias) VALUES (?, ?)")
        while try rows.step() {
            for alias in (rows.text(1) ?? "").split(separator: "\n") {
                insert.reset()
                insert.bind(1, rows.int(0))
                insert.bind(2, String(alias))
                try insert.step()
            }
        }
    }
}
