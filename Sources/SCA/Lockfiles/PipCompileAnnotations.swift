import Foundation

/// pip-compile writes why each pin is there: `# via requests`, `# via -r requirements.in`, or a
/// `# via` block of `#   name` lines, under (or, in old versions, beside) the requirement. Those
/// annotations are the only graph a requirements file has; this reads them.
enum PipCompileAnnotations {
    /// For each line that starts a requirement, the `via` entries written for it; `lines` are
    /// the file's physical lines as pip splits them (`PipText`).
    static func vias(in lines: [(number: Int, text: String)]) -> [Int: [String]] {
        var result: [Int: [String]] = [:]
        var owner: Int?
        var inBlock = false
        var previousContinues = false
        for (number, raw) in lines {
            let line = TextLines.Line(number: number, bytes: ArraySlice(raw.utf8))
            let content = line.bytes.trimmed
            if content.isEmpty {
                inBlock = false
                continue
            }
            if content.first == UInt8(ascii: "#") {
                let comment = String(decoding: content.dropFirst(), as: UTF8.self)
                let words = comment.trimmingSpaces
                if words == "via" || words.hasPrefix("via ") {
                    inBlock = words == "via"
                    if let owner, !inBlock { result[owner, default: []] += entries(String(words.dropFirst(4))) }
                } else if inBlock, let owner, comment.hasPrefix("  ") {
                    result[owner, default: []] += entries(words)
                } else {
                    inBlock = false
                }
                continue
            }
            inBlock = false
            if !previousContinues {
                owner = line.number
                // Old pip-compile put the annotation on the requirement line itself.
                let text = String(decoding: content, as: UTF8.self)
                if let range = text.range(of: "# via ") {
                    result[line.number, default: []] += entries(String(text[range.upperBound...]))
                }
            }
            previousContinues = content.last == UInt8(ascii: "\\")
        }
        return result
    }

    /// `a, b` or `-r requirements.in` → entries, trimmed.
    private static func entries(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }

    /// Whether a `via` entry names a requirements or constraints file (the project's own ask).
    static func isFileReference(_ entry: String) -> Bool {
        entry.hasPrefix("-r ") || entry.hasPrefix("-c ") || entry.hasPrefix("--requirement")
            || entry.hasPrefix("--constraint") || entry.hasSuffix(".in") || entry.hasSuffix(".txt")
            || entry.hasSuffix(".toml") || entry.hasSuffix(".cfg") || entry.hasPrefix("-e ")
    }

    /// Marks dependencies of one file direct or transitive from its annotations; files without
    /// any annotation are left as they are (everything direct).
    static func apply(_ vias: [Int: [String]], to dependencies: inout [Dependency], file: String) {
        guard !vias.isEmpty else { return }
        let members = dependencies.indices.filter { dependencies[$0].file == file }
        var graph = DependencyGraph()
        var index: [String: Int] = [:]
        for member in members {
            let node = graph.addNode(dependencies[member].name)
            let key = RequirementsParser.normalized(dependencies[member].name)
            if index[key] == nil { index[key] = node }
        }
        var direct: [Int] = []
        for (node, member) in members.enumerated() {
            let entries = vias[dependencies[member].line] ?? []
            if entries.isEmpty || entries.contains(where: isFileReference) { direct.append(node) }
            for parent in entries where !isFileReference(parent) {
                if let from = index[RequirementsParser.normalized(parent)] { graph.addEdge(from: from, to: node) }
            }
        }
        let paths = graph.paths(from: direct)
        for (node, member) in members.enumerated() {
            dependencies[member].apply(path: paths[node])
            if let entries = vias[dependencies[member].line] {
                dependencies[member].notes["via"] = entries.joined(separator: ", ")
            }
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
