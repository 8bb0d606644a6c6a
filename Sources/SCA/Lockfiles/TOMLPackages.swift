import Documents

/// Shared walk over `[[package]]` tables of the TOML lockfiles (poetry, uv, pdm, Cargo).
enum TOMLPackages {
    /// The `[[package]]` tables; throws when `package` exists but is not an array of tables.
    static func tables(in root: DocumentNode, file: String) throws -> [DocumentNode] {
        guard let value = root["package"] else { return [] }
        guard case .array(let tables) = value.value, tables.allSatisfy(\.isObject) else {
            let line = root.entries.first { $0.key == "package" }?.line ?? 0
            throw malformed(file, line, "'package' must be an array of tables ([[package]])")
        }
        return tables
    }

    /// Name, version and the line of the `name` key; throws when either field is missing.
    static func identity(of table: DocumentNode, file: String) throws -> (name: String, version: String, line: Int) {
        guard let nameEntry = table.entries.first(where: { $0.key == "name" }), let name = nameEntry.value.string else {
            throw malformed(file, table.line, "[[package]] without a string 'name'")
        }
        guard let version = table.string("version") else {
            throw malformed(file, nameEntry.line, "package \(name) has no string 'version'")
        }
        return (name, version, nameEntry.line)
    }
}
