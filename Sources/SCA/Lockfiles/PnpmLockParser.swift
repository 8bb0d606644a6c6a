import Documents
import DocumentsYAML
import Foundation

/// `pnpm-lock.yaml`, lockfile versions 5 (`/name/1.0.0_peer` keys), 6 (`/name@1.0.0(peer)`)
/// and 9 (`name@1.0.0(peer)`, graph under `snapshots`). The importers' (or, before
/// workspaces, the top level's) dependencies are the direct ones.
public struct PnpmLockParser: LockfileParser {
    /// The format name results carry.
    public static let format = "pnpm-lock.yaml"
    /// File names this parser reads.
    public static let fileNames = ["pnpm-lock.yaml", "pnpm-lock.yml"]

    /// A parser; it needs no configuration.
    public init() {}

    private enum KeyStyle { case slashes, atV6, atV9 }

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        let root = try YAML.parse(bytes, file: file, scalars: .text) { $0["packages"] != nil || $0["importers"] != nil }
        guard root.isObject else { throw malformed(file, root.line, "expected a mapping at the top level") }
        guard let versionNode = root["lockfileVersion"], let versionText = versionNode.string else {
            throw malformed(file, root.line, "no lockfileVersion")
        }
        let major = Int(versionText.split(separator: ".").first ?? "") ?? 0
        guard major >= 5 else {
            throw malformed(file, versionNode.line, "unsupported pnpm lockfileVersion \(versionText)")
        }
        let style: KeyStyle = major < 6 ? .slashes : (major < 9 ? .atV6 : .atV9)
        var result = LockfileResult(file: file, format: Self.format)

        // Nodes are the graph section's keys: snapshots in v9, packages before.
        let packages = root["packages"]?.members ?? []
        let graphSection = style == .atV9 ? (root["snapshots"]?.members ?? packages) : packages
        var packageLines: [String: Int] = [:]
        for pair in packages where packageLines[pair.key] == nil { packageLines[pair.key] = pair.line }
        var graph = DependencyGraph()
        var index: [String: Int] = [:]
        for (node, pair) in graphSection.enumerated() {
            index[pair.key] = node
            guard let (name, version) = Self.identity(key: pair.key, entry: pair.value, style: style) else {
                _ = graph.addNode(pair.key)
                result.problems.append(
                    .init(.warning, file: file, line: pair.line, "package key not understood: \(pair.key)"))
                result.dependencies.append(
                    Dependency(ecosystem: .npm, name: "", version: nil, file: file, line: pair.line))
                continue
            }
            _ = graph.addNode(name)
            let baseKey = Self.stripPeers(pair.key)
            let line = style == .atV9 ? (packageLines[baseKey] ?? pair.line) : pair.line
            var notes: [String: String] = [:]
            if pair.value["dev"]?.bool == true { notes["dev"] = "true" }
            if pair.value["optional"]?.bool == true { notes["optional"] = "true" }
            result.dependencies.append(
                Dependency(ecosystem: .npm, name: name, version: version, file: file, line: line, notes: notes))
        }
        for (from, pair) in graphSection.enumerated() {
            for (name, reference) in Self.references(pair.value, includeDev: false) {
                if let key = Self.key(name: name, reference: reference, style: style), let to = index[key] {
                    graph.addEdge(from: from, to: to)
                }
            }
        }
        var importers = root["importers"]?.members.map(\.value) ?? []
        if importers.isEmpty { importers = [root] }
        var direct: [Int] = []
        for importer in importers {
            for (name, reference) in Self.references(importer, includeDev: true) {
                if reference.hasPrefix("link:") || reference.hasPrefix("file:") { continue }
                if let key = Self.key(name: name, reference: reference, style: style), let to = index[key] {
                    direct.append(to)
                }
            }
        }
        let paths = graph.paths(from: direct)
        for i in result.dependencies.indices { result.dependencies[i].apply(path: paths[i]) }
        result.dependencies = deduplicated(result.dependencies.filter { !$0.name.isEmpty })
        return result
    }

    /// (name, reference) pairs of a package or importer; v6+ importers nest `{specifier, version}`.
    static func references(_ node: DocumentNode, includeDev: Bool) -> [(String, String)] {
        var sections = ["dependencies", "optionalDependencies"]
        if includeDev { sections.append("devDependencies") }
        return sections.flatMap { section in
            (node[section]?.members ?? []).compactMap { pair -> (String, String)? in
                if let reference = pair.value.string { return (pair.key, reference) }
                if let reference = pair.value["version"]?.string { return (pair.key, reference) }
                return nil
            }
        }
    }

    /// The graph key a (name, reference) pair points to.
    private static func key(name: String, reference: String, style: KeyStyle) -> String? {
        if reference.hasPrefix("link:") { return nil }
        switch style {
        case .slashes:
            return reference.hasPrefix("/") ? reference : "/\(name)/\(reference)"
        case .atV6:
            return reference.hasPrefix("/") ? reference : "/\(name)@\(reference)"
        case .atV9:
            // An alias's reference is a whole key (`string-width@4.2.3`).
            if let first = reference.first, !first.isNumber, reference.dropFirst().contains("@") { return reference }
            return "\(name)@\(reference)"
        }
    }

    private static func identity(key: String, entry: DocumentNode, style: KeyStyle) -> (String, String)? {
        // Tarball and git packages carry their own name and version.
        if let name = entry["name"]?.string, let version = entry["version"]?.string { return (name, version) }
        var body = Substring(key)
        if body.hasPrefix("/") { body = body.dropFirst() }
        switch style {
        case .slashes:
            var segments = body.split(separator: "/", omittingEmptySubsequences: false)
            // Non-default registries prefix the host (`registry.example.com/name/1.0.0`).
            if segments.count > 2, segments[0].contains("."), !segments[0].hasPrefix("@") { segments.removeFirst() }
            let scoped = segments.first?.hasPrefix("@") == true
            let need = scoped ? 3 : 2
            guard segments.count >= need else { return nil }
            let name = segments[0..<(need - 1)].joined(separator: "/")
            var version = segments[need - 1]
            if let underscore = version.firstIndex(of: "_") { version = version[..<underscore] }
            if let paren = version.firstIndex(of: "(") { version = version[..<paren] }
            guard !name.isEmpty, !version.isEmpty else { return nil }
            return (name, String(version))
        case .atV6, .atV9:
            let plain = stripPeers(String(body))
            let searchFrom = plain.index(plain.startIndex, offsetBy: plain.hasPrefix("@") ? 1 : 0)
            guard let at = plain[searchFrom...].lastIndex(of: "@") else { return nil }
            let name = String(plain[..<at])
            let version = String(plain[plain.index(after: at)...])
            guard !name.isEmpty, !version.isEmpty else { return nil }
            return (name, version)
        }
    }

    /// `react-dom@18.2.0(react@18.2.0)` → `react-dom@18.2.0`.
    static func stripPeers(_ key: String) -> String {
        guard let paren = key.firstIndex(of: "(") else { return key }
        return String(key[..<paren])
    }
}
