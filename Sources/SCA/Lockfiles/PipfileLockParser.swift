import Documents

/// `Pipfile.lock` (pipenv): every group -- `default`, `develop` and the named categories pipenv
/// 2022.10 added (`[docs]` in the Pipfile, `"docs"` in the lock) -- versions written `==X`.
/// The file is flat (no graph): the Pipfile beside it names the direct ones (the others are
/// transitive, by an unknown path); without it every entry is reported as direct.
public struct PipfileLockParser: ManifestAwareLockfileParser {
    /// The format name results carry.
    public static let format = "Pipfile.lock"
    /// File names this parser reads.
    public static let fileNames = ["Pipfile.lock"]

    /// A parser; it needs no configuration.
    public init() {}

    /// The Pipfile's tables that are pipenv's settings, not categories of packages.
    static let pipfileSettings: Set<String> = ["source", "requires", "scripts", "pipenv"]

    /// The manifest whose requirements are the direct dependencies.
    public static let manifestName = "Pipfile"

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String, manifest: [UInt8]?) throws -> LockfileResult {
        let root = try JSON.parse(bytes, file: file)
        guard case .object = root.value else {
            throw malformed(file, root.line, "expected a JSON object at the top level")
        }
        var result = LockfileResult(file: file, format: Self.format)
        // Every top-level key but `_meta` is a group pipenv installs from (`pipenv install --categories`).
        let groups = root.members.map(\.key).filter { $0 != "_meta" }
        for group in groups {
            guard let section = root[group] else { continue }
            guard case .object(let members) = section.value else {
                throw malformed(file, section.line, "'\(group)' must be an object")
            }
            for member in members {
                guard case .object = member.value.value else {
                    throw malformed(file, member.line, "entry '\(member.key)' must be an object")
                }
                guard let written = member.value["version"]?.string else {
                    let source =
                        ["git", "path", "file", "editable"].first { member.value[$0] != nil } ?? "unknown source"
                    result.problems.append(
                        .init(
                            .info, file: file, line: member.line,
                            "\(member.key) has no version (\(source)), not matched against advisories"))
                    continue
                }
                var version = written
                if version.hasPrefix("===") {
                    version.removeFirst(3)
                } else if version.hasPrefix("==") {
                    version.removeFirst(2)
                }
                var notes = ["group": group]
                if let markers = member.value["markers"]?.string { notes["markers"] = markers }
                result.dependencies.append(
                    Dependency(
                        ecosystem: .pypi, name: member.key, version: version,
                        file: file, line: member.line, notes: notes))
            }
        }
        if let manifest {
            if let names = ManifestDirectNames.pipfile(manifest), !names.isEmpty {
                for i in result.dependencies.indices {
                    let name = result.dependencies[i].name
                    result.dependencies[i].apply(
                        path: names.contains(RequirementsParser.normalized(name)) ? [name] : nil)
                }
            } else {
                result.problems.append(
                    .init(
                        .warning, file: file, line: 0,
                        "Pipfile beside it could not be read; every entry taken as direct"))
            }
        }
        result.dependencies = deduplicated(result.dependencies)
        return result
    }
}
