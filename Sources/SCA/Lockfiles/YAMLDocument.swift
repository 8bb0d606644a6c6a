import Yams

/// Yams behind the one-line error contract: a `Node` tree whose marks give lines, and
/// `YamlError`s turned into `FILE:LINE: ...` errors.
enum YAMLDocument {
    /// The document of a single-document file.
    static func compose(_ bytes: [UInt8], file: String) throws -> Node {
        try compose(bytes, file: file, preferring: { _ in true })
    }

    /// The last document for which `isMain` holds, else the last one: pnpm 10 writes an
    /// environment document before the lockfile proper in the same file.
    static func compose(_ bytes: [UInt8], file: String, preferring isMain: (Node) -> Bool) throws -> Node {
        let text = TextLines.string(bytes)
        var documents: [Node] = []
        do {
            var sequence = try Yams.compose_all(yaml: text)
            while let node = sequence.next() { documents.append(node) }
            if let error = sequence.error { throw error }
        } catch let error as YamlError {
            throw malformed(file, line(of: error), "invalid YAML: \(problem(of: error))")
        } catch {
            throw malformed(file, 0, "invalid YAML: \(error)")
        }
        guard let node = documents.last(where: isMain) ?? documents.last else {
            throw malformed(file, 1, "empty YAML document")
        }
        return node
    }

    static func line(of error: YamlError) -> Int {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark.line
        default: return 0
        }
    }

    static func problem(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
            return problem
        case .reader(let problem, _, _, _): return problem
        default: return String(describing: error)
        }
    }
}

extension Node {
    /// 1-based line where the node starts, 0 when Yams gives no mark.
    var line: Int { mark?.line ?? 0 }

    /// Pairs of a mapping whose keys are scalars; empty for anything else.
    var pairs: [(key: String, line: Int, value: Node)] {
        guard let mapping else { return [] }
        return mapping.compactMap { pair in pair.key.string.map { ($0, pair.key.line, pair.value) } }
    }
}
