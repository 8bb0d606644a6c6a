import Documents

/// Bun's text lockfile `bun.lock` (JSONC: trailing commas, comments). `workspaces` holds each
/// workspace's requirements (the direct dependencies); `packages` is keyed by install path —
/// `ms` at the top, `send/ms` for the copy only `send` gets — each an array whose first element
/// is `name@version` (a registry package) or `name@workspace:…`, `name@file:…`, `name@link:…`,
/// `name@github:…`, `name@git+…`, `name@https://…` (not in the registry: not matched), and whose
/// first object holds the package's own `dependencies`. A requirement resolves as Node's
/// `node_modules` does: the nearest path upwards. The binary `bun.lockb` is not read.
public struct BunLockParser: LockfileParser {
    /// The format name results carry.
    public static let format = "bun.lock"
    /// File names this parser reads.
    public static let fileNames = ["bun.lock"]

    /// A parser; it needs no configuration.
    public init() {}

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        let root = try JSON.parse(bytes, file: file, dialect: .jsonc)
        guard case .object = root.value else { throw malformed(file, root.line, "expected a JSON object at the top level") }
        guard root["lockfileVersion"] != nil else { throw malformed(file, root.line, "not a bun.lock: no \"lockfileVersion\"") }
        guard let packages = root["packages"] else { return LockfileResult(file: file, format: Self.format) }
        guard case .object(let members) = packages.value else {
            throw malformed(file, packages.line, "\"packages\" must be an object")
        }
        var result = LockfileResult(file: file, format: Self.format)
        var graph = DependencyGraph()
        var index: [String: Int] = [:]
        var wants: [[String]] = []
        // Dependencies in `members` order, each with its graph node (registry packages only).
        var nodes: [Int] = []
        for member in members {
            guard case .array(let entry) = member.value.value, let resolution = entry.first?.string else {
                throw malformed(file, member.line, "package \"\(member.key)\" must be an array starting with its resolution")
            }
            let node = graph.addNode(Self.identity(resolution)?.0 ?? String(member.key.split(separator: "/").last ?? ""))
            index[member.key] = node
            let info = entry.first { if case .object = $0.value { true } else { false } }
            wants.append(Self.requirements(info, sections: ["dependencies", "optionalDependencies", "peerDependencies"]))
            guard let (name, version) = Self.identity(resolution) else {
                if !Self.isLocal(resolution) {
                    result.problems.append(
                        .init(.info, file: file, line: member.line, "\(member.key): \(resolution) is not from a registry; not matched"))
                }
                continue
            }
            result.dependencies.append(Dependency(ecosystem: .npm, name: name, version: version, file: file, line: member.line))
            nodes.append(node)
        }
        for (from, member) in members.enumerated() {
            for name in wants[from] {
                if let to = Self.resolve(name, from: member.key, in: index) { graph.addEdge(from: from, to: to) }
            }
        }
        var direct: [Int] = []
        for workspace in root["workspaces"]?.members ?? [] {
            // A workspace's own nested copies sit under its package name (`ui/react`).
            let base = workspace.value["name"]?.string ?? ""
            for name in Self.requirements(workspace.value, sections: ["dependencies", "devDependencies", "optionalDependencies"]) {
                if let to = Self.resolve(name, from: base, in: index) { direct.append(to) }
            }
        }
        let paths = graph.paths(from: direct)
        for i in result.dependencies.indices { result.dependencies[i].apply(path: paths[nodes[i]]) }
        result.dependencies = deduplicated(result.dependencies)
        return result
    }

    /// The names a package or workspace requires, in the sections named.
    static func requirements(_ node: DocumentNode?, sections: [String]) -> [String] {
        guard let node else { return [] }
        return sections.flatMap { node[$0]?.members.map(\.key) ?? [] }
    }

    /// `name@version` of a registry package (a scoped name keeps its leading `@`); nil for a
    /// resolution that is not a registry version (`workspace:`, `file:`, `github:`, a URL).
    static func identity(_ resolution: String) -> (String, String)? {
        let searchFrom = resolution.index(resolution.startIndex, offsetBy: resolution.hasPrefix("@") ? 1 : 0)
        guard let at = resolution[searchFrom...].firstIndex(of: "@") else { return nil }
        let name = String(resolution[..<at])
        let version = String(resolution[resolution.index(after: at)...])
        guard !name.isEmpty, let first = version.first, first.isNumber, !version.contains(":"), !version.contains("/") else {
            return nil
        }
        return (name, version)
    }

    /// Workspace members and local directories: the project's own code, not a dependency.
    private static func isLocal(_ resolution: String) -> Bool {
        ["@workspace:", "@file:", "@link:", "@root:"].contains { resolution.contains($0) }
    }

    /// The key `name` resolves to from the package at `from`: `from/name`, then each parent
    /// path's, then the top level, as Node's `node_modules` lookup goes upwards.
    static func resolve(_ name: String, from: String, in index: [String: Int]) -> Int? {
        var base = Substring(from)
        while !base.isEmpty {
            if let node = index["\(base)/\(name)"] { return node }
            guard let slash = base.lastIndex(of: "/") else { break }
            base = base[..<slash]
            // A scoped package's path segment is `@scope/name`: step over its scope too.
            if let scopeSlash = base.lastIndex(of: "/"), base[base.index(after: scopeSlash)...].hasPrefix("@") {
                base = base[..<scopeSlash]
            } else if base.hasPrefix("@"), !base.contains("/") {
                base = ""
            }
        }
        return index[name]
    }
}
