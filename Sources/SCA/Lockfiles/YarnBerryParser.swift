import Documents
import DocumentsYAML
import Foundation

/// yarn berry (v2+) lockfiles: YAML keyed by descriptor lists, with `resolution` and
/// `version`. Workspace entries are the project; their dependencies are the direct ones.
struct YarnBerryParser {
    func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        let root = try YAML.parse(bytes, file: file, scalars: .text)
        guard root.isObject else { throw malformed(file, root.line, "expected a mapping of descriptors") }
        var result = LockfileResult(file: file, format: YarnLockParser.format)
        var graph = DependencyGraph()
        var index: [String: Int] = [:]
        var wants: [[String]] = []
        var workspaces: [Int] = []
        var reportedIndex: [Int: Int] = [:]
        for member in root.members where member.key != "__metadata" {
            let (key, line, value) = (member.key, member.line, member.value)
            guard value.isObject else { throw malformed(file, line, "entry \(key) must be a mapping") }
            guard let resolution = value["resolution"]?.string else {
                throw malformed(file, line, "entry \(key) has no resolution")
            }
            let (name, reference) = YarnDescriptor.split(resolution)
            let node = graph.addNode(name)
            for descriptor in key.split(separator: ",") {
                let trimmed = descriptor.trimmingCharacters(in: .whitespaces)
                if index[trimmed] == nil { index[trimmed] = node }
            }
            wants.append(
                value["dependencies"]?.members.compactMap { pair in pair.value.string.map { pair.key + "@" + $0 } } ?? [])
            if reference.hasPrefix("workspace:") {
                workspaces.append(node)
                continue
            }
            if ["link:", "portal:", "file:"].contains(where: { reference.hasPrefix($0) }) {
                result.problems.append(
                    .init(
                        .info, file: file, line: line, "\(name) comes from \(reference), not matched against advisories"
                    ))
                continue
            }
            // yarn fetches what `resolution` names; `version` is only what the file says of it.
            let written = value["version"]?.string
            guard let version = Self.installedVersion(reference) ?? written else {
                throw malformed(file, line, "entry \(key) has no version")
            }
            if let written, written != version {
                result.problems.append(
                    .init(
                        .warning, file: file, line: line,
                        "\(name): version \(written) is not what its resolution installs (\(version)); the resolution's is matched"))
            }
            reportedIndex[node] = result.dependencies.count
            var notes: [String: String] = [:]
            if reference.hasPrefix("patch:") { notes["patched"] = "true" }
            result.dependencies.append(
                Dependency(ecosystem: .npm, name: name, version: version, file: file, line: line, notes: notes))
        }
        for (from, list) in wants.enumerated() {
            for wanted in list {
                // Dependency ranges omit the `npm:` protocol that lockfile keys carry.
                let (name, range) = YarnDescriptor.split(wanted)
                if let to = index[wanted] ?? index[name + "@npm:" + range] { graph.addEdge(from: from, to: to) }
            }
        }
        let direct = workspaces.isEmpty ? graph.unreferenced : workspaces.flatMap { graph.edges[$0] }
        let paths = graph.paths(from: direct)
        for (node, i) in reportedIndex { result.dependencies[i].apply(path: paths[node]) }
        result.dependencies = deduplicated(result.dependencies)
        return result
    }

    /// The version an npm resolution installs: `npm:4.17.21`, or the npm reference a patch
    /// applies to (`patch:lodash@npm%3A4.17.21#...`); nil for any other protocol.
    static func installedVersion(_ reference: String) -> String? {
        if reference.hasPrefix("npm:") {
            let version = reference.dropFirst(4)
            return version.isEmpty || version.contains("@") ? nil : String(version)
        }
        if reference.hasPrefix("patch:") {
            let patched = reference.dropFirst(6).prefix { $0 != "#" }
            let inner = (String(patched).removingPercentEncoding ?? String(patched))
            guard let at = inner.range(of: "@npm:", options: .backwards) else { return nil }
            return installedVersion("npm:" + inner[at.upperBound...])
        }
        return nil
    }
}
