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
        let root = try TOML.parse(bytes, file: file)
        var result = LockfileResult(file: file, format: Self.format)
        var graph = DependencyGraph()
        var wanted: [[String]] = []
        var index: [String: Int] = [:]
        for table in try TOMLPackages.tables(in: root, file: file) {
            let (name, version, line) = try TOMLPackages.identity(of: table, file: file)
            var notes: [String: String] = [:]
            if let category = table.string("category") { notes["category"] = category }
            if case .array(let groups)? = table["groups"]?.value {
                notes["groups"] = groups.compactMap(\.string).joined(separator: ",")
            }
            if let source = table.table("source"), let type = source.string("type") {
                notes["source"] = type
                if type == "directory" || type == "file" || type == "git" || type == "url" {
                    result.problems.append(
                        .init(
                            .info, file: file, line: line,
                            "\(name) comes from a \(type) source, matched by name and version only"))
                }
            }
            result.dependencies.append(
                Dependency(ecosystem: .pypi, name: name, version: version, file: file, line: line, notes: notes))
            let node = graph.addNode(name)
            index[RequirementsParser.normalized(name)] = index[RequirementsParser.normalized(name)] ?? node
            wanted.append((table.table("dependencies")?.entries ?? []).map { RequirementsParser.normalized($0.key) })
        }
        for (from, names) in wanted.enumerated() {
            for name in names { if let to = index[name] { graph.addEdge(from: from, to: to) } }
        }
        let names = manifest.flatMap { ManifestDirectNames.pyproject($0) }
        if manifest != nil, names == nil {
            result.problems.append(
                .init(
                    .warning, file: file, line: 0,
                    "pyproject.toml beside it could not be read; direct dependencies guessed"))
        }
        let paths = graph.paths(from: graph.direct(named: names, key: RequirementsParser.normalized))
        for i in result.dependencies.indices { result.dependencies[i].apply(path: paths[i]) }
        result.dependencies = deduplicated(result.dependencies)
        return result
    }
}
