import Documents

/// `pdm.lock`: `[[package]]` with `dependencies` as PEP 508 strings. Direct dependencies come
/// from pyproject.toml when given, else they are those no locked package depends on.
public struct PDMLockParser: ManifestAwareLockfileParser {
    /// The format name results carry.
    public static let format = "pdm.lock"
    /// File names this parser reads.
    public static let fileNames = ["pdm.lock"]

    /// A parser; it needs no configuration.
    public init() {}

    /// The manifest whose requirements are the direct dependencies.
    public static let manifestName = "pyproject.toml"

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String, manifest: [UInt8]?) throws -> LockfileResult {
        try PyPITOMLLock.parse(
            bytes, file: file, format: Self.format, manifest: manifest,
            describe: { table, _, _, _ in
                var notes: [String: String] = [:]
                notes["groups"] = PyPITOMLLock.list(table, "groups")
                notes["extras"] = PyPITOMLLock.list(table, "extras")
                return notes
            },
            requires: { table in
                table.array("dependencies").compactMap { value in
                    value.string.flatMap { Requirement(ArraySlice($0.utf8)) }?.name
                }
            })
    }
}
