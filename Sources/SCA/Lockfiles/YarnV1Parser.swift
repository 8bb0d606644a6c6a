import Foundation

/// The yarn v1 lockfile syntax: unindented `descriptor, descriptor:` headers, indented
/// `key value` fields and `dependencies:` maps. It records no project requirements: package.json
/// gives them, and without it direct dependencies are the entries nothing else depends on.
struct YarnV1Parser {
    private struct Entry {
        let descriptors: [String]
        let line: Int
        var version: String?
        var wants: [String] = []
    }

    func parse(_ bytes: [UInt8], file: String, manifest: [UInt8]?) throws -> LockfileResult {
        var entries: [Entry] = []
        var nested: String?
        for line in TextLines(bytes).lines {
            let content = line.bytes.trimmed
            if content.isEmpty || content.first == UInt8(ascii: "#") { continue }
            let indent = line.bytes.indentation
            if indent == 0 {
                guard content.last == UInt8(ascii: ":") else {
                    throw malformed(file, line.number, "expected a 'descriptor:' header")
                }
                let descriptors = String(decoding: content.dropLast(), as: UTF8.self)
                    .split(separator: ",").map { YarnV1Parser.unquoted($0.trimmingCharacters(in: .whitespaces)) }
                entries.append(Entry(descriptors: descriptors, line: line.number))
                nested = nil
                continue
            }
            guard !entries.isEmpty else { throw malformed(file, line.number, "indented line before any entry") }
            let (key, value) = YarnV1Parser.keyValue(content)
            if indent <= 2 {
                nested = value == nil && key.hasSuffix(":") ? String(key.dropLast()) : nil
                if key == "version", let value { entries[entries.count - 1].version = value }
                continue
            }
            if let nested, nested == "dependencies" || nested == "optionalDependencies", let value {
                entries[entries.count - 1].wants.append(key + "@" + value)
            }
        }
        var result = LockfileResult(file: file, format: YarnLockParser.format)
        var graph = DependencyGraph()
        var index: [String: Int] = [:]
        for entry in entries {
            guard let version = entry.version else {
                throw malformed(file, entry.line, "entry \(entry.descriptors.first ?? "") has no version")
            }
            let descriptor = entry.descriptors.first ?? ""
            let (name, _) = YarnDescriptor.split(descriptor)
            let node = graph.addNode(name)
            for descriptor in entry.descriptors where index[descriptor] == nil { index[descriptor] = node }
            result.dependencies.append(
                Dependency(ecosystem: .npm, name: name, version: version, file: file, line: entry.line))
        }
        for (from, entry) in entries.enumerated() {
            for wanted in entry.wants { if let to = index[wanted] { graph.addEdge(from: from, to: to) } }
        }
        let names = manifest.flatMap { ManifestDirectNames.packageJSON($0) }
        if manifest != nil, names == nil {
            result.problems.append(
                .init(
                    .warning, file: file, line: 0,
                    "package.json beside it could not be read; direct dependencies guessed"))
        }
        let paths = graph.paths(from: graph.direct(named: names, key: { $0 }))
        for i in result.dependencies.indices { result.dependencies[i].apply(path: paths[i]) }
        result.dependencies = deduplicated(result.dependencies)
        return result
    }

    /// `key value`, `"key" "value"` or `key:`; the key keeps a trailing colon when it has one.
    static func keyValue(_ content: ArraySlice<UInt8>) -> (String, String?) {
        let text = String(decoding: content, as: UTF8.self)
        var key = ""
        var rest = Substring(text)
        if rest.hasPrefix("\"") {
            let body = rest.dropFirst()
            if let close = body.firstIndex(of: "\"") {
                key = String(body[..<close])
                rest = body[body.index(after: close)...]
                if rest.hasPrefix(":") {
                    key += ":"
                    rest = rest.dropFirst()
                }
            }
        } else if let space = rest.firstIndex(of: " ") {
            key = String(rest[..<space])
            rest = rest[space...]
        } else {
            return (text, nil)
        }
        let value = rest.trimmingCharacters(in: .whitespaces)
        return (key, value.isEmpty ? nil : unquoted(value))
    }

    static func unquoted(_ text: String) -> String {
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { return String(text.dropFirst().dropLast()) }
        return text
    }
}

/// `name@range` descriptors shared by yarn v1 and berry, scoped names and `npm:` aliases included.
enum YarnDescriptor {
    /// The package name and the range; for `alias@npm:real@^1` the real package's name.
    static func split(_ descriptor: String) -> (name: String, range: String) {
        let searchFrom = descriptor.index(descriptor.startIndex, offsetBy: descriptor.hasPrefix("@") ? 1 : 0)
        guard let at = descriptor[searchFrom...].firstIndex(of: "@") else { return (descriptor, "") }
        let name = String(descriptor[..<at])
        let range = String(descriptor[descriptor.index(after: at)...])
        if range.hasPrefix("npm:") {
            let target = range.dropFirst(4)
            // `npm:^1.0.0` is a plain range; `npm:other@^1` aliases another package (one level).
            let from = target.index(target.startIndex, offsetBy: target.hasPrefix("@") ? 1 : 0)
            if let first = target.first, first == "@" || first.isLetter,
                let realAt = target[from...].firstIndex(of: "@")
            {
                return (String(target[..<realAt]), String(target[target.index(after: realAt)...]))
            }
        }
        return (name, range)
    }
}
