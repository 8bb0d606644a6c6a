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
