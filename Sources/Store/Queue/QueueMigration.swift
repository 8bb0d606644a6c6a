/// One numbered step of the fleet's schema, applied once, in order, in a transaction of its own
/// together with its row in `fleet_schema_migrations`. Its SQL is frozen once released: a change
/// to the schema is a new migration, never an edit of an old one (a database that ran the old text
/// would never run the new).
struct QueueMigration: Sendable {
    /// 1, 2, 3...: consecutive, the order they run in.
    let version: Int
    /// `001_initial`: the version and what it does, recorded with it.
    let name: String
    /// The statements on PostgreSQL (`{serial}` and `{now}` as in every queue statement).
    let postgres: String
    /// The statements on SQLite, which cannot alter a table's constraints in place.
    let sqlite: String

    /// A step whose SQL is the same on both backends.
    init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name, postgres: sql, sqlite: sql)
    }

    /// A step with SQL of its own per backend.
    init(version: Int, name: String, postgres: String, sqlite: String) {
        self.version = version
        self.name = name
        self.postgres = postgres
        self.sqlite = sqlite
    }

    /// The statements for `storage`'s backend.
    func sql(for storage: any QueueStorage) -> String { storage.isServer ? postgres : sqlite }
}
