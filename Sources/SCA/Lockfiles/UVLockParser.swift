import Documents

/// `uv.lock`: `[[package]]` with inline-table `source` and `dependencies`. Workspace members
/// (`editable`/`virtual` sources) are the project: not reported, their requirements (all
/// groups) are the direct dependencies.
public struct UVLockParser: LockfileParser {
    /// The format name results carry.
    public static let format = "uv.lock"
    /// File names this parser reads.
    public static let fileNames = ["uv.lock"]

    /// A parser; it needs no configuration.
    public init() {}

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        let root = try TOML.parse(bytes, file: file)
        var result = LockfileResult(file: file, format: Self.format)
        var graph = DependencyGraph()
        var wanted: [[(name: String, version: String?)]] = []
        var byName: [String: [Int]] = [:]
        var versions: [String] = []
        var members: [Int] = []
        var reported: [Bool] = []
        for table in try TOMLPackages.tables(in: root, file: file) {
            guard let nameEntry = table.entries.first(where: { $0.key == "name" }), let name = nameEntry.value.string
            else {
                throw malformed(file, table.line, "[[package]] without a string 'name'")
            }
            let source = table.table("source")
            let isMember = source?["editable"] != nil || source?["virtual"] != nil
            let node = graph.addNode(name)
            byName[RequirementsParser.normalized(name), default: []].append(node)
            versions.append(table.string("version") ?? "")
            wanted.append(Self.requirements(of: table))
            if isMember {
                members.append(node)
                reported.append(false)
                continue
            }
            guard let version = table.string("version") else {
                throw malformed(file, nameEntry.line, "package \(name) has no string 'version'")
            }
            var notes: [String: String] = [:]
            if let source {
                if let registry = source.string("registry") { notes["registry"] = registry }
                for kind in ["git", "url", "path", "directory"] where source[kind] != nil {
                    notes["source"] = kind
                    result.problems.append(
                        .init(
                            .info, file: file, line: nameEntry.line,
                            "\(name) comes from a \(kind) source, matched by name and version only"))
                }
            }
            result.dependencies.append(
                Dependency(
                    ecosystem: .pypi, name: name, version: version, file: file,
                    line: nameEntry.line, notes: notes))
            reported.append(true)
        }
        for (from, list) in wanted.enumerated() {
            for requirement in list {
                let candidates = byName[RequirementsParser.normalized(requirement.name)] ?? []
                let to =
                    candidates.first { requirement.version == nil || versions[$0] == requirement.version }
                    ?? candidates.first
                if let to { graph.addEdge(from: from, to: to) }
            }
        }
        // With no workspace member recorded (old files), fall back to unreferenced packages.
        let direct = members.isEmpty ? graph.unreferenced : members.flatMap { graph.edges[$0] }
        let paths = graph.paths(from: direct)
        var k = 0
        for node in reported.indices where reported[node] {
            result.dependencies[k].apply(path: paths[node])
            k += 1
        }
        result.dependencies = deduplicated(result.dependencies)
        return result
    }

    /// `dependencies`, `optional-dependencies.*` and `dev-dependencies.*` entries.
    static func requirements(of table: DocumentNode) -> [(name: String, version: String?)] {
        var lists: [[DocumentNode]] = [table.array("dependencies")]
        for key in ["optional-dependencies", "dev-dependencies"] {
            for entry in table.table(key)?.entries ?? [] {
                if case .array(let list) = entry.value.value { lists.append(list) }
            }
        }
        return lists.joined().compactMap { value in
            guard let spec = value.table, let name = spec.string("name") else { return nil }
            return (name, spec.string("version"))
        }
    }
}
