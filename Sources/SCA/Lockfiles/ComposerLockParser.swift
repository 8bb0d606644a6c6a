import Documents

/// `composer.lock` (PHP): `packages` and `packages-dev`, `v` prefixes stripped. Direct
/// dependencies come from composer.json when given, else they are those nothing requires.
public struct ComposerLockParser: ManifestAwareLockfileParser {
    /// The format name results carry.
    public static let format = "composer.lock"
    /// File names this parser reads.
    public static let fileNames = ["composer.lock"]

    /// A parser; it needs no configuration.
    public init() {}

    /// The manifest whose requirements are the direct dependencies.
    public static let manifestName = "composer.json"

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String, manifest: [UInt8]?) throws -> LockfileResult {
        let root = try JSON.parse(bytes, file: file)
        guard case .object = root.value else {
            throw malformed(file, root.line, "expected a JSON object at the top level")
        }
        var result = LockfileResult(file: file, format: Self.format)
        var graph = DependencyGraph()
        var requires: [[String]] = []
        var index: [String: Int] = [:]
        for group in ["packages", "packages-dev"] {
            guard let section = root[group] else { continue }
            guard case .array(let packages) = section.value else {
                throw malformed(file, section.line, "'\(group)' must be an array")
            }
            for package in packages {
                guard case .object(let members) = package.value else {
                    throw malformed(file, package.line, "each entry of '\(group)' must be an object")
                }
                guard let nameMember = members.first(where: { $0.key == "name" }), let name = nameMember.value.string
                else {
                    throw malformed(file, package.line, "package without a \"name\"")
                }
                guard let written = package["version"]?.scalarText else {
                    throw malformed(file, nameMember.line, "package \(name) has no \"version\"")
                }
                var notes: [String: String] = [:]
                if group == "packages-dev" { notes["dev"] = "true" }
                let version = Self.stripped(written)
                if version != written { notes["written"] = written }
                result.dependencies.append(
                    Dependency(
                        ecosystem: .packagist, name: name, version: version,
                        file: file, line: nameMember.line, notes: notes))
                let node = graph.addNode(name)
                index[name.lowercased()] = index[name.lowercased()] ?? node
                requires.append((package["require"]?.members ?? []).map { $0.key.lowercased() })
            }
        }
        for (from, names) in requires.enumerated() {
            for name in names { if let to = index[name] { graph.addEdge(from: from, to: to) } }
        }
        let names = manifest.flatMap { ManifestDirectNames.composerJSON($0) }
        if manifest != nil, names == nil {
            result.problems.append(
                .init(
                    .warning, file: file, line: 0,
                    "composer.json beside it could not be read; direct dependencies guessed"))
        }
        let paths = graph.paths(from: graph.direct(named: names, key: { $0.lowercased() }))
        for i in result.dependencies.indices { result.dependencies[i].apply(path: paths[i]) }
        result.dependencies = deduplicated(result.dependencies)
        return result
    }

    /// `v1.2.3` → `1.2.3`; branch aliases such as `dev-main` stay as written.
    static func stripped(_ version: String) -> String {
        guard let first = version.first, first == "v" || first == "V",
            let second = version.dropFirst().first, second.isNumber
        else { return version }
        return String(version.dropFirst())
    }
}
