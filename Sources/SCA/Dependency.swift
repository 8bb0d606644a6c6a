/// One resolved dependency read from a lockfile or manifest: what SCA matches against OSV.
public struct Dependency: Hashable, Sendable, Codable {
    /// The ecosystem whose advisories apply to it.
    public var ecosystem: Ecosystem
    /// The name as written in the lockfile (normalisation happens at lookup).
    public var name: String
    /// The exact version, or nil when the manifest does not pin one (reported as "not pinned").
    public var version: String?
    /// The lockfile this came from, as given to the parser (relative to the scan root).
    public var file: String
    /// 1-based line of the entry in `file`, 0 when the format gives no line.
    public var line: Int
    /// Whether this is a direct dependency of the project (false for transitive ones).
    public var isDirect: Bool
    /// From a direct dependency down to this one (`["flask", "werkzeug"]`), when the lockfile says.
    public var path: [String]
    /// Extra facts worth keeping: environment markers, hashes, source registry.
    public var notes: [String: String]

    /// Makes a dependency read from `file` at `line`; `version` nil when the file gives none.
    public init(
        ecosystem: Ecosystem, name: String, version: String?, file: String, line: Int,
        isDirect: Bool = true, path: [String] = [], notes: [String: String] = [:]
    ) {
        self.ecosystem = ecosystem
        self.name = name
        self.version = version
        self.file = file
        self.line = line
        self.isDirect = isDirect
        self.path = path
        self.notes = notes
    }
}
