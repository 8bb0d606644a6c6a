import Documents

/// The reading `pdm.lock` and `poetry.lock` share: each `[[package]]` becomes a PyPI dependency,
/// the packages' own requirements become the graph's edges, and pyproject.toml (when given)
/// names the direct ones; without it, direct ones are those no locked package depends on.
enum PyPITOMLLock {
    /// Reads `bytes` as a lockfile of `format`. `describe` gives one package's notes (and may
    /// add problems about it, at its `line`); `requires` gives the names it depends on.
    static func parse(
        _ bytes: [UInt8], file: String, format: String, manifest: [UInt8]?,
        describe: (_ table: DocumentNode, _ name: String, _ line: Int, _ result: inout LockfileResult) -> [String: String],
        requires: (_ table: DocumentNode) -> [String]
    ) throws -> LockfileResult {
        let root = try TOML.parse(bytes, file: file)
        var result = LockfileResult(file: file, format: format)
        var graph = DependencyGraph()
        var wanted: [[String]] = []
        var index: [String: Int] = [:]
        for table in try TOMLPackages.tables(in: root, file: file) {
            let (name, version, line) = try TOMLPackages.identity(of: table, file: file)
            let notes = describe(table, name, line, &result)
            result.dependencies.append(
                Dependency(ecosystem: .pypi, name: name, version: version, file: file, line: line, notes: notes))
            let node = graph.addNode(name)
            index[RequirementsParser.normalized(name)] = index[RequirementsParser.normalized(name)] ?? node
            wanted.append(requires(table).map(RequirementsParser.normalized))
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

    /// A string array's items joined by commas (`groups`, `extras`), or nil when it is absent.
    static func list(_ table: DocumentNode, _ key: String) -> String? {
        guard case .array(let items)? = table[key]?.value else { return nil }
        return items.compactMap(\.string).joined(separator: ",")
    }
}
