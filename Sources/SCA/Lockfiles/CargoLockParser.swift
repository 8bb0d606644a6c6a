import Documents

/// `Cargo.lock` versions 1 to 4. Packages without a `source` are the workspace (and path
/// crates): not reported, their dependencies are the direct ones. Dependencies are written
/// `name`, `name version` or (v1/v2) `name version (source)`.
public struct CargoLockParser: LockfileParser {
    /// The format name results carry.
    public static let format = "Cargo.lock"
    /// File names this parser reads.
    public static let fileNames = ["Cargo.lock"]

    /// A parser; it needs no configuration.
    public init() {}

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        let root = try TOML.parse(bytes, file: file)
        var result = LockfileResult(file: file, format: Self.format)
        var tables = try TOMLPackages.tables(in: root, file: file)
        // The oldest v1 files hold the workspace root in `[root]`.
        if let legacyRoot = root.table("root") { tables.insert(legacyRoot, at: 0) }
        var graph = DependencyGraph()
        var byName: [String: [Int]] = [:]
        var versions: [String] = []
        var local: [Int] = []
        var reportedIndex: [Int: Int] = [:]
        var wanted: [[String]] = []
        for table in tables {
            let (name, version, line) = try TOMLPackages.identity(of: table, file: file)
            let node = graph.addNode(name)
            byName[name, default: []].append(node)
            versions.append(version)
            wanted.append(
                try table.array("dependencies").map { value in
                    guard let text = value.string else {
                        throw malformed(file, line, "dependencies of \(name) must be strings")
                    }
                    return text
                })
            guard let source = table.string("source") else {
                local.append(node)
                continue
            }
            var notes = ["source": source]
            if let checksum = table.string("checksum") { notes["checksum"] = checksum }
            if !Self.isCratesIO(source) {
                result.problems.append(
                    .init(
                        .info, file: file, line: line,
                        "\(name) \(version) comes from \(source), not crates.io: matched by name and version only"))
                notes["registry"] = "other"
            }
            reportedIndex[node] = result.dependencies.count
            result.dependencies.append(
                Dependency(ecosystem: .cratesIO, name: name, version: version, file: file, line: line, notes: notes))
        }
        for (from, list) in wanted.enumerated() {
            for text in list {
                let words = text.split(separator: " ", maxSplits: 2).map(String.init)
                guard let name = words.first else { continue }
                let candidates = byName[name] ?? []
                let version = words.count > 1 ? words[1] : nil
                if let to = candidates.first(where: { version == nil || versions[$0] == version }) ?? candidates.first {
                    graph.addEdge(from: from, to: to)
                }
            }
        }
        // A lockfile without workspace members (hand-made, vendored) falls back to roots of the graph.
        let direct =
            local.isEmpty ? graph.unreferenced : local.flatMap { graph.edges[$0] }.filter { !local.contains($0) }
        let paths = graph.paths(from: direct)
        for (node, index) in reportedIndex { result.dependencies[index].apply(path: paths[node]) }
        result.dependencies = deduplicated(result.dependencies)
        return result
    }

    static func isCratesIO(_ source: String) -> Bool {
        source == "registry+https://github.com/rust-lang/crates.io-index" || source == "sparse+https://index.crates.io/"
    }
}
