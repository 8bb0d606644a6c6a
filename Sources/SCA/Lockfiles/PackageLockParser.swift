import Documents

/// npm's `package-lock.json` (and `npm-shrinkwrap.json`): v1 nests `dependencies`; v2/v3 key
/// `packages` by install location (`node_modules/a/node_modules/b`). Each package's
/// requirements are resolved the way Node does (nearest `node_modules` upwards), which gives
/// the path from a direct dependency. Links, workspaces and the root are not reported.
public struct PackageLockParser: ManifestAwareLockfileParser {
    /// The format name results carry.
    public static let format = "package-lock.json"
    /// File names this parser reads.
    public static let fileNames = ["package-lock.json", "npm-shrinkwrap.json"]

    /// A parser; it needs no configuration.
    public init() {}

    /// One installed package: where it sits, and which names it asks for.
    struct Installed {
        let location: String
        let wants: [String]
    }

    /// The manifest whose requirements are the direct dependencies (v1 only: v2+ record them).
    public static let manifestName = "package.json"

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String, manifest: [UInt8]?) throws -> LockfileResult {
        let root = try JSON.parse(bytes, file: file)
        guard case .object = root.value else {
            throw malformed(file, root.line, "expected a JSON object at the top level")
        }
        var result = LockfileResult(file: file, format: Self.format)
        var installed: [Installed] = []
        var projectRoots: [Installed] = []
        if let packages = root["packages"] {
            guard case .object(let members) = packages.value else {
                throw malformed(file, packages.line, "\"packages\" must be an object")
            }
            try readPackages(members, file: file, into: &result, installed: &installed, projects: &projectRoots)
        } else if let dependencies = root["dependencies"] {
            guard case .object(let members) = dependencies.value else {
                throw malformed(file, dependencies.line, "\"dependencies\" must be an object")
            }
            try readNested(members, parent: "", depth: 0, file: file, into: &result, installed: &installed)
        } else if root["lockfileVersion"] == nil {
            throw malformed(
                file, root.line, "not a package-lock: no \"lockfileVersion\", \"packages\" or \"dependencies\"")
        }
        var names: Set<String>?
        if projectRoots.isEmpty, let manifest {
            names = ManifestDirectNames.packageJSON(manifest)
            if names == nil {
                result.problems.append(
                    .init(
                        .warning, file: file, line: 0,
                        "package.json beside it could not be read; direct dependencies guessed"))
            }
        }
        link(&result, installed: installed, projects: projectRoots, manifestNames: names)
        result.dependencies = deduplicated(result.dependencies)
        return result
    }

    private func readPackages(
        _ members: [DocumentMember], file: String, into result: inout LockfileResult,
        installed: inout [Installed], projects: inout [Installed]
    ) throws {
        for member in members {
            let entry = member.value
            guard case .object = entry.value else {
                throw malformed(file, member.line, "package \"\(member.key)\" must be an object")
            }
            guard let nameStart = Self.afterLastNodeModules(member.key) else {
                // The root ("") and workspace folders: their requirements are the direct ones.
                projects.append(Installed(location: member.key, wants: Self.fields(entry, includeDev: true).wants))
                continue
            }
            let fields = Self.fields(entry, includeDev: false)
            if fields.link { continue }
            let written = (name: fields.name ?? String(member.key[nameStart...]), version: fields.version)
            // npm ci installs the tarball `resolved` names, whatever `name` and `version` say.
            let tarball = fields.resolved.flatMap(Self.registryTarball)
            let name = tarball?.name ?? written.name
            guard let version = tarball?.version ?? written.version else {
                result.problems.append(
                    .init(.warning, file: file, line: member.line, "\(name) has no version, skipped"))
                continue
            }
            if let tarball, tarball.name != written.name || (written.version.map { $0 != tarball.version } ?? false) {
                result.problems.append(
                    .init(
                        .warning, file: file, line: member.line,
                        "\(written.name)@\(written.version ?? "?") is not what its resolved tarball installs (\(name)@\(version)); the tarball's is matched"
                    ))
            }
            result.dependencies.append(
                Dependency(
                    ecosystem: .npm, name: name, version: version, file: file,
                    line: member.line, notes: fields.notes))
            installed.append(Installed(location: member.key, wants: fields.wants))
        }
    }

    private func readNested(
        _ members: [DocumentMember], parent: String, depth: Int, file: String,
        into result: inout LockfileResult, installed: inout [Installed]
    ) throws {
        for member in members {
            let entry = member.value
            guard case .object = entry.value else {
                throw malformed(file, member.line, "dependency \"\(member.key)\" must be an object")
            }
            let location = (parent.isEmpty ? "" : parent + "/") + "node_modules/" + member.key
            guard let version = entry["version"]?.string else {
                throw malformed(file, member.line, "dependency \"\(member.key)\" has no \"version\"")
            }
            let fields = Self.fields(entry, includeDev: false)
            if let tarball = fields.resolved.flatMap(Self.registryTarball) {
                // An alias (`npm:lodash@4.17.4`) or a version the tarball contradicts: the tarball is installed.
                if tarball.name != member.key || tarball.version != version {
                    result.problems.append(
                        .init(
                            .warning, file: file, line: member.line,
                            "\(member.key)@\(version) is not what its resolved tarball installs (\(tarball.name)@\(tarball.version)); the tarball's is matched"
                        ))
                }
                result.dependencies.append(
                    Dependency(
                        ecosystem: .npm, name: tarball.name, version: tarball.version, file: file, line: member.line, notes: fields.notes))
                installed.append(Installed(location: location, wants: fields.requires))
            } else if version.contains(":") || version.contains("/") {
                result.problems.append(
                    .init(
                        .info, file: file, line: member.line,
                        "\(member.key) comes from \(version), not matched against advisories"))
            } else {
                result.dependencies.append(
                    Dependency(
                        ecosystem: .npm, name: member.key, version: version, file: file,
                        line: member.line, notes: fields.notes))
                installed.append(Installed(location: location, wants: fields.requires))
            }
            if let nested = entry["dependencies"] {
                try readNested(
                    nested.members, parent: location, depth: depth + 1, file: file, into: &result, installed: &installed
                )
            }
        }
    }

    /// Resolves every requirement to an installed location and sets direct flags and paths.
    private func link(
        _ result: inout LockfileResult, installed: [Installed], projects: [Installed], manifestNames: Set<String>?
    ) {
        var index: [String: Int] = [:]
        index.reserveCapacity(installed.count)
        for (i, package) in installed.enumerated() { index[package.location] = i }
        var graph = DependencyGraph()
        for dependency in result.dependencies { _ = graph.addNode(dependency.name) }
        let resolved = Self.resolveAll(installed: installed, projects: projects)
        for (i, targets) in resolved.installed.enumerated() { for to in targets { graph.addEdge(from: i, to: to) } }
        var direct: [Int] = []
        if projects.isEmpty, let manifestNames, !manifestNames.isEmpty {
            // v1 with package.json: its requirements resolve from the top.
            direct = manifestNames.sorted().compactMap { index["node_modules/" + $0] }
        } else if projects.isEmpty {
            // v1 does not record the project's own requirements: nothing requires a direct one.
            direct = graph.unreferenced.filter {
                !installed[$0].location.dropFirst("node_modules/".count).contains("/node_modules/")
            }
        } else {
            direct = resolved.projects.flatMap { $0 }
        }
        let paths = graph.paths(from: direct)
        for i in result.dependencies.indices { result.dependencies[i].apply(path: paths[i]) }
    }

    /// Every requirement resolved as Node does (`L/node_modules/N`, then from each enclosing
    /// package, then the top), in time linear in the lockfile: one walk down the tree of install
    /// scopes keeps, for each name, a stack of the packages of that name visible from the scope
    /// being visited, so each lookup is the top of one stack (resolving each by walking up and
    /// building every enclosing location took cubic time on deep nesting).
    static func resolveAll(installed: [Installed], projects: [Installed]) -> (installed: [[Int]], projects: [[Int]]) {
        // Scopes: the top (""), each project folder and each installed package, by location, and
        // any enclosing location the file skips.
        var scopeOf: [String: Int] = ["": 0]
        var locations = [""]
        var scopeWants: [[(owner: Int, names: [String])]] = [[]]
        func scope(_ location: String) -> Int {
            if let known = scopeOf[location] { return known }
            scopeOf[location] = locations.count
            locations.append(location)
            scopeWants.append([])
            return locations.count - 1
        }
        var packageAt: [String: Int] = [:]
        // Owners: installed packages 0..<n, then projects n..<n+m.
        for (i, package) in installed.enumerated() {
            packageAt[package.location] = i
            scopeWants[scope(package.location)].append((i, package.wants))
        }
        for (j, project) in projects.enumerated() {
            scopeWants[scope(project.location)].append((installed.count + j, project.wants))
        }
        // Each package is visible in its enclosing scope; each scope lies in its enclosing one.
        var parents = [0]
        var next = 1
        while next < locations.count {
            parents.append(scope(String(enclosingScope(Substring(locations[next])))))
            next += 1
        }
        var visible = [[(name: String, package: Int)]](repeating: [], count: locations.count)
        var children = [[Int]](repeating: [], count: locations.count)
        for id in 1..<max(1, locations.count) {
            let location = locations[id]
            children[parents[id]].append(id)
            if let package = packageAt[location], let start = afterLastNodeModules(location) {
                visible[parents[id]].append((String(location[start...]), package))
            }
        }
        var resolvedInstalled = [[Int]](repeating: [], count: installed.count)
        var resolvedProjects = [[Int]](repeating: [], count: projects.count)
        var stacks: [String: [Int]] = [:]
        // An explicit stack: nesting may be as deep as the file allows.
        var work: [(scope: Int, entering: Bool)] = [(0, true)]
        while let (current, entering) = work.popLast() {
            if !entering {
                for (name, _) in visible[current] { stacks[name]?.removeLast() }
                continue
            }
            for (name, package) in visible[current] { stacks[name, default: []].append(package) }
            for (owner, names) in scopeWants[current] {
                let targets = names.compactMap { stacks[$0]?.last }
                if owner < installed.count {
                    resolvedInstalled[owner] = targets
                } else {
                    resolvedProjects[owner - installed.count] = targets
                }
            }
            work.append((current, false))
            for child in children[current].reversed() { work.append((child, true)) }
        }
        return (resolvedInstalled, resolvedProjects)
    }

    /// `a/node_modules/b/node_modules/c` → `a/node_modules/b`; `node_modules/c` → ``.
    static func enclosingScope(_ scope: Substring) -> Substring {
        let marker = Array("/node_modules/".utf8)
        let utf8 = scope.utf8
        let found: Int? =
            utf8.withContiguousStorageIfAvailable { b -> Int? in
                var i = b.count - marker.count
                while i >= 0 {
                    var k = 0
                    while k < marker.count, b[i + k] == marker[k] { k += 1 }
                    if k == marker.count { return i }
                    i -= 1
                }
                return nil
            } ?? nil
        guard let found else { return "" }
        return Substring(scope.utf8.prefix(found))
    }

    /// The index just after the last `node_modules/` of a location key, nil for non-installs.
    static func afterLastNodeModules(_ key: String) -> String.Index? {
        let marker = Array("node_modules/".utf8)
        let offset: Int? =
            key.utf8.withContiguousStorageIfAvailable { b -> Int? in
                var i = b.count - marker.count
                while i >= 0 {
                    if i == 0 || b[i - 1] == UInt8(ascii: "/") {
                        var k = 0
                        while k < marker.count, b[i + k] == marker[k] { k += 1 }
                        if k == marker.count { return i + marker.count }
                    }
                    i -= 1
                }
                return nil
            } ?? nil
        return offset.map { key.utf8.index(key.utf8.startIndex, offsetBy: $0) }
    }

    /// What one pass over a package object yields; one pass because lockfiles are large.
    struct Fields {
        var name: String?
        var version: String?
        var link = false
        /// The tarball `npm ci` fetches.
        var resolved: String?
        /// Names from dependencies, optional, peer (and dev, for projects) sections (v2/v3).
        var wants: [String] = []
        /// Names from v1's `requires`.
        var requires: [String] = []
        var notes: [String: String] = [:]
    }

    /// Names a package requires (dev dependencies only count for the project itself) and flags.
    /// The package and version of a registry tarball URL (`…/<name>/-/<base>-<version>.tgz`,
    /// `@scope/name` for a scoped one, percent-encoded or not); nil for anything else (git, a file).
    static func registryTarball(_ url: String) -> (name: String, version: String)? {
        guard url.hasPrefix("https://") || url.hasPrefix("http://"), let marker = url.range(of: "/-/", options: .backwards) else {
            return nil
        }
        let before = url[..<marker.lowerBound].split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        var file = String(url[marker.upperBound...].prefix { $0 != "?" && $0 != "#" })
        guard let last = before.last, file.hasSuffix(".tgz"), !file.contains("/") else { return nil }
        file.removeLast(4)
        let name: String
        if last.hasPrefix("@"), last.contains("/") {
            name = last  // `%40scope%2Fname`, decoded
        } else if before.count >= 2, before[before.count - 2].hasPrefix("@") {
            name = before[before.count - 2] + "/" + last
        } else {
            name = last
        }
        let base = name.split(separator: "/").last.map(String.init) ?? name
        guard file.hasPrefix(base + "-"), file.count > base.count + 1 else { return nil }
        return (name, String(file.dropFirst(base.count + 1)))
    }

    static func fields(_ entry: DocumentNode, includeDev: Bool) -> Fields {
        var fields = Fields()
        for member in entry.members {
            switch member.key {
            case "name": fields.name = member.value.string
            case "version": fields.version = member.value.string
            case "link": fields.link = member.value.bool == true
            case "resolved": fields.resolved = member.value.string
            case "dependencies", "optionalDependencies", "peerDependencies":
                for wanted in member.value.members { fields.wants.append(wanted.key) }
            case "devDependencies":
                if includeDev { for wanted in member.value.members { fields.wants.append(wanted.key) } }
            case "requires":
                for wanted in member.value.members { fields.requires.append(wanted.key) }
            case "dev", "optional", "peer", "devOptional":
                if member.value.bool == true { fields.notes[member.key] = "true" }
            default: break
            }
        }
        return fields
    }
}
