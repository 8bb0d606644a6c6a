import Documents

/// `poetry.lock`: `[[package]]` with `[package.dependencies]`. The lockfile does not say which
/// packages the project asks for: pyproject.toml does, and without it direct ones are those no
/// locked package depends on.
public struct PoetryLockParser: ManifestAwareLockfileParser {
    /// The format name results carry.
    public static let format = "poetry.lock"
    /// File names this parser reads.
    public static let fileNames = ["poetry.lock"]

    /// A parser; it needs no configuration.
    public init() {}

    /// The manifest whose requirements are the direct dependencies.
    public static let manifestName = "pyproject.toml"

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String, manifest: [UInt8]?) throws -> LockfileResult {
        try PyPITOMLLock.parse(
            bytes, file: file, format: Self.format, manifest: manifest,
            describe: { table, name, line, result in
                var notes: [String: String] = [:]
                if let category = table.string("category") { notes["category"] = category }
                notes["groups"] = PyPITOMLLock.list(table, "groups")
                if let source = table.table("source"), let type = source.string("type") {
                    notes["source"] = type
                    if type == "directory" || type == "file" || type == "git" || type == "url" {
                        result.problems.append(
                            .init(
                                .info, file: file, line: line,
                                "\(name) comes from a \(type) source, matched by name and version only"))
                    }
                }
                return notes
            },
            requires: { table in (table.table("dependencies")?.entries ?? []).map { $0.key } })
    }
}
