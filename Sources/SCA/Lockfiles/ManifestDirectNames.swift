import Documents

/// A lockfile parser whose format does not record the project's own requirements: it takes
/// them from the manifest beside the lockfile when there is one, and otherwise guesses that
/// the packages nothing depends on are the direct ones.
public protocol ManifestAwareLockfileParser: LockfileParser {
    /// The manifest file in the lockfile's directory (`pyproject.toml`, `package.json`, ...).
    static var manifestName: String { get }
    /// Parses the lockfile; `manifest` holds the manifest's bytes when it exists.
    func parse(_ bytes: [UInt8], file: String, manifest: [UInt8]?) throws -> LockfileResult
}

extension ManifestAwareLockfileParser {
    /// Parses the lockfile alone (direct dependencies guessed from the graph).
    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        try parse(bytes, file: file, manifest: nil)
    }
}

/// A manifest read as a source of dependencies only when no lockfile of its project was read:
/// a lockfile beside it records the versions installed, the manifest only the ones asked for, and
/// reading both would report one dependency twice. The lockfile reads the manifest itself for
/// the names of the direct dependencies (`ManifestAwareLockfileParser`).
public protocol LockfileDeferringManifestParser: LockfileParser {
    /// Lockfile names that, read from the manifest's directory in the same scan, are read instead
    /// of it (`poetry.lock` for `pyproject.toml`). One that could not be parsed does not count:
    /// then the manifest is read, so its pins are still checked.
    static var deferredToLockfiles: [String] { get }
}

/// Reads the names of a project's own requirements out of its manifest. A manifest that
/// cannot be read gives nil, so the caller falls back and says so, rather than failing the
/// lockfile.
enum ManifestDirectNames {
    /// `dependencies`, `devDependencies`, `optionalDependencies` of a package.json.
    static func packageJSON(_ bytes: [UInt8]) -> Set<String>? {
        guard let root = try? JSON.parse(bytes, file: "package.json") else { return nil }
        var names = Set<String>()
        for section in ["dependencies", "devDependencies", "optionalDependencies"] {
            for member in root[section]?.members ?? [] { names.insert(member.key) }
        }
        return names
    }

    /// `require` and `require-dev` of a composer.json, lowercased as Packagist names compare.
    static func composerJSON(_ bytes: [UInt8]) -> Set<String>? {
        guard let root = try? JSON.parse(bytes, file: "composer.json") else { return nil }
        var names = Set<String>()
        for section in ["require", "require-dev"] {
            for member in root[section]?.members ?? [] { names.insert(member.key.lowercased()) }
        }
        return names
    }

    /// PEP 621 `[project]` dependencies and optional groups, PEP 735 `[dependency-groups]`,
    /// Poetry's `[tool.poetry.*dependencies]` and groups, PDM's dev groups; PEP 503 normalised.
    static func pyproject(_ bytes: [UInt8]) -> Set<String>? {
        guard let root = try? TOML.parse(bytes, file: "pyproject.toml") else { return nil }
        var requirements: [DocumentNode] = []
        let project = root.table("project")
        requirements += project?.array("dependencies") ?? []
        for entry in project?.table("optional-dependencies")?.entries ?? [] {
            if case .array(let list) = entry.value.value { requirements += list }
        }
        for groups in [root.table("dependency-groups"), root.table("tool")?.table("pdm")?.table("dev-dependencies")] {
            for entry in groups?.entries ?? [] {
                if case .array(let list) = entry.value.value { requirements += list }
            }
        }
        var names = Set<String>()
        for value in requirements {
            if let text = value.string, let requirement = Requirement(ArraySlice(text.utf8)) {
                names.insert(RequirementsParser.normalized(requirement.name))
            }
        }
        if let poetry = root.table("tool")?.table("poetry") {
            var tables = [poetry.table("dependencies"), poetry.table("dev-dependencies")]
            for group in poetry.table("group")?.entries ?? [] {
                tables.append(group.value.table?.table("dependencies"))
            }
            for table in tables {
                for entry in table?.entries ?? [] where entry.key.lowercased() != "python" {
                    names.insert(RequirementsParser.normalized(entry.key))
                }
            }
        }
        return names
    }
}

extension ManifestDirectNames {
    /// `[packages]` and `[dev-packages]` of a Pipfile, PEP 503 normalised.
    static func pipfile(_ bytes: [UInt8]) -> Set<String>? {
        guard let root = try? TOML.parse(bytes, file: "Pipfile") else { return nil }
        var names = Set<String>()
        // Every table but pipenv's own settings is a category of packages (pipenv 2022.10's named
        // categories beside `packages` and `dev-packages`).
        for section in root.entries where !PipfileLockParser.pipfileSettings.contains(section.key) {
            for entry in section.value.table?.entries ?? [] { names.insert(RequirementsParser.normalized(entry.key)) }
        }
        return names
    }
}

extension DependencyGraph {
    /// Direct nodes: those named by the manifest when it names any, else the unreferenced ones.
    /// `key` maps a node's name to the manifest's spelling (normalisation).
    func direct(named names: Set<String>?, key: (String) -> String) -> [Int] {
        guard let names, !names.isEmpty else { return unreferenced }
        return self.names.indices.filter { names.contains(key(self.names[$0])) }
    }
}
