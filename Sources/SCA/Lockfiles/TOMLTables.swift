import Documents

/// The table vocabulary the TOML lockfile parsers are written in, over `DocumentNode`.
extension DocumentNode {
    /// The members, in file order (a table's keys).
    var entries: [DocumentMember] { members }

    /// This node when it is a table.
    var table: DocumentNode? { isObject ? self : nil }

    /// The string at `key`.
    func string(_ key: String) -> String? { self[key]?.string }

    /// The table at `key`.
    func table(_ key: String) -> DocumentNode? { self[key]?.table }

    /// The array at `key`; empty when absent or not an array.
    func array(_ key: String) -> [DocumentNode] { self[key]?.elements ?? [] }
}
