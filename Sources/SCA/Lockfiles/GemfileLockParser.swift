import Foundation

/// Bundler's `Gemfile.lock`: gems under the `specs:` of `GEM` (and `GIT`) sections at four
/// spaces, their requirements at six, and the project's own requirements under
/// `DEPENDENCIES`, which make the direct dependencies and the paths.
public struct GemfileLockParser: LockfileParser {
    /// The format name results carry.
    public static let format = "Gemfile.lock"
    /// File names this parser reads.
    public static let fileNames = ["Gemfile.lock", "gems.locked"]

    /// A parser; it needs no configuration.
    public init() {}

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        var result = LockfileResult(file: file, format: Self.format)
        var section = ""
        var inSpecs = false
        var wants: [[String]] = []
        var directNames: [String] = []
        var graph = DependencyGraph()
        var index: [String: Int] = [:]
        var current: Int?
        for line in TextLines(bytes).lines {
            let content = line.bytes.trimmed
            if content.isEmpty { continue }
            let indent = line.bytes.indentation
            let text = String(decoding: content, as: UTF8.self)
            if indent == 0 {
                section = text
                inSpecs = false
                current = nil
                continue
            }
            switch section {
            case "GEM", "GIT", "PATH", "PLUGIN SOURCE":
                if indent == 2 {
                    inSpecs = text == "specs:"
                    current = nil
                    continue
                }
                guard inSpecs else { continue }
                if indent == 4 {
                    guard let (name, version) = Self.nameAndParenthesis(text), let version else {
                        throw malformed(file, line.number, "expected 'name (version)' in specs")
                    }
                    if section == "PATH" {
                        result.problems.append(
                            .init(
                                .info, file: file, line: line.number,
                                "\(name) comes from a local path, not matched against advisories"))
                        current = nil
                        continue
                    }
                    var notes: [String: String] = [:]
                    var plain = version
                    if let dash = version.firstIndex(of: "-") {
                        notes["platform"] = String(version[version.index(after: dash)...])
                        plain = String(version[..<dash])
                    }
                    if section == "GIT" { notes["source"] = "git" }
                    let node = graph.addNode(name)
                    if index[name] == nil { index[name] = node }
                    wants.append([])
                    current = node
                    result.dependencies.append(
                        Dependency(
                            ecosystem: .rubyGems, name: name, version: plain, file: file,
                            line: line.number, notes: notes))
                } else if indent >= 6, let current {
                    guard let (name, _) = Self.nameAndParenthesis(text) else {
                        throw malformed(file, line.number, "expected a gem requirement")
                    }
                    wants[current].append(name)
                }
            case "DEPENDENCIES":
                guard let (name, _) = Self.nameAndParenthesis(text) else {
                    throw malformed(file, line.number, "expected a gem name")
                }
                directNames.append(name.hasSuffix("!") ? String(name.dropLast()) : name)
            default:
                continue
            }
        }
        for (from, names) in wants.enumerated() {
            for name in names { if let to = index[name] { graph.addEdge(from: from, to: to) } }
        }
        let direct = directNames.isEmpty ? graph.unreferenced : directNames.compactMap { index[$0] }
        let paths = graph.paths(from: direct)
        for i in result.dependencies.indices { result.dependencies[i].apply(path: paths[i]) }
        result.dependencies = deduplicated(result.dependencies)
        return result
    }

    /// `name (text)` → (name, text); `name` → (name, nil). Nil when the name is empty or odd.
    static func nameAndParenthesis(_ text: String) -> (String, String?)? {
        guard let open = text.firstIndex(of: "(") else {
            guard !text.isEmpty, !text.contains(" ") else { return nil }
            return (text, nil)
        }
        let name = text[..<open].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains(" "), text.hasSuffix(")") else { return nil }
        let inner = text[text.index(after: open)..<text.index(before: text.endIndex)].trimmingCharacters(
            in: .whitespaces)
        return (name, inner.isEmpty ? nil : inner)
    }
}
