/// The tables of one store (the OSV index, heal memory, the approval queue...): its name, which
/// keys its version in the `store_versions` table so that several stores can share one file, and
/// its migrations in order.
public struct Schema: Sendable {
    /// The key of this store's row in `store_versions` ("osv").
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
