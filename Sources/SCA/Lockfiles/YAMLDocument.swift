import Yams

/// Yams behind the one-line error contract: a `Node` tree whose marks give lines, and
/// `YamlError`s turned into `FILE:LINE: ...` errors.
enum YAMLDocument {
    static func compose(_ bytes: [UInt8], file: String) throws -> Node {
        let text = TextLines.string(bytes)
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw malformed(file, line(of: error), "invalid YAML: \(problem(of: error))")
        } catch {
            throw malformed(file, 0, "invalid YAML: \(error)")
        }
        guard let node else { throw malformed(file, 1, "empty YAML document") }
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
