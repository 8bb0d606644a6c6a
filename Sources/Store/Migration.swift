/// One step of a store's schema, applied once and in order, inside the migration transaction.
public struct Migration: Sendable {
    /// The schema version this step produces (1 for the first; versions are consecutive).
    public let version: Int
    /// Changes the schema (and moves data) from `version - 1` to `version`.
    public let apply: @Sendable (Database) throws -> Void

    /// A step given as code, for data moves that SQL alone cannot express.
    public init(version: Int, apply: @escaping @Sendable (Database) throws -> Void) {
        self.version = version
        self.apply = apply
    }

    /// A step given as `;`-separated SQL statements.
    public init(version: Int, sql: String) {
        self.init(version: version) { try $0.execute(sql) }
    }
}

/// The tables of one store (the OSV index, heal memory, the approval queue...): its name, which
/// keys its version in the `store_versions` table so that several stores can share one file, and
/// its migrations in order.
public struct Schema: Sendable {
    /// The key of this store's version; also used in messages.
    public let store: String
    /// What users call the store in messages ("OSV database").
    public let title: String
    /// Every migration, version 1 first.
    public let migrations: [Migration]
    /// For a store whose files predate `store_versions`: with no row of its own, its version is
    /// the file's `PRAGMA user_version`, which migrations also keep up to date (one such store a file).
    public let adoptsUserVersion: Bool
    /// Appended to the message for a file newer than this build knows ("delete it and import again").
    public let remedy: String?

    /// A schema; `migrations` must be numbered 1, 2, 3... in order.
    public init(
        store: String, title: String, migrations: [Migration], adoptsUserVersion: Bool = false,
        remedy: String? = nil
    ) {
        precondition(
            migrations.enumerated().allSatisfy { $0.element.version == $0.offset + 1 },
            "\(store): migrations must be numbered 1, 2, 3... in order")
        self.store = store
        self.title = title
        self.migrations = migrations
        self.adoptsUserVersion = adoptsUserVersion
        self.remedy = remedy
    }

    /// The version after every migration.
    public var latestVersion: Int { migrations.count }
}
