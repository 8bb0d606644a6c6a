import Documents
import Support
import Yams

/// YAML through Yams' `compose`, whose node marks give lines and columns, behind the one-line
/// error contract (`FILE:LINE: invalid YAML: problem`).
public enum YAML {
    /// How plain scalars become values.
    public enum Scalars: Sendable {
        /// Only the plain spellings of null (`~`, `null`, empty) and `true`/`false` are resolved;
        /// everything else stays text as written, so an OSV `modified: 2023-11-07T20:24:23Z` or
        /// `introduced: 0` reaches the model unchanged.
        case text
        /// Yams' YAML 1.1 resolution: null, booleans (`yes`/`no`/`on`/`off` too), integers and
        /// floats; timestamps and everything else stay text.
        case typed
        /// Every scalar is text as written, null and booleans included (Yams' `basic`
        /// resolver): profiles read their own types from text.
        case strings
    }

    /// The most nodes one document may expand to: aliases are shared in Yams' tree but copied
    /// here, so a "billion laughs" file would otherwise exhaust memory.
    public static let maxNodes = 5_000_000

    /// Parses the single document of `bytes` (a UTF-8 BOM is skipped).
    public static func parse(_ bytes: [UInt8], file: String, scalars: Scalars = .text) throws -> DocumentNode {
        try parse(bytes, file: file, scalars: scalars, preferring: { _ in true })
    }

    /// The last document for which `isMain` holds, else the last one: pnpm 10 writes an
    /// environment document before the lockfile proper in the same file.
    public static func parse(
        _ bytes: [UInt8], file: String, scalars: Scalars = .text, preferring isMain: (DocumentNode) -> Bool
    ) throws -> DocumentNode {
        let documents = try documents(bytes, file: file, scalars: scalars)
        guard let node = documents.last(where: isMain) ?? documents.last else {
            throw DocumentInput.malformed(file, 1, "empty YAML document")
        }
        return node
    }

    /// Every document of a stream, in order; none for an empty file.
    public static func documents(_ bytes: [UInt8], file: String, scalars: Scalars = .text) throws -> [DocumentNode] {
        let text = String(decoding: DocumentInput.droppingBOM(bytes), as: UTF8.self)
        var documents: [DocumentNode] = []
        do {
            // Resolving tags runs a regex per scalar; only `.typed` needs them.
            // `compose` builds nodes only: no constructor is ever called, so an empty one spares
            // building Yams' default tables; the encoding is named, not read from the
            // environment (`YAMS_DEFAULT_ENCODING`) at every parse.
            var sequence = try Yams.compose_all(
                yaml: text, scalars == .typed ? .default : .basic, Constructor([:], [:], [:]), .utf8)
            var budget = Budget(file: file)
            while let node = sequence.next() {
                documents.append(try convert(node, scalars: scalars, budget: &budget))
            }
            if let error = sequence.error { throw error }
        } catch let error as YamlError {
            throw DocumentInput.malformed(file, line(of: error), "invalid YAML: \(problem(of: error))")
        }
        return documents
    }

    private struct Budget {
        let file: String
        var left = YAML.maxNodes

        mutating func spend(_ line: Int) throws {
            left -= 1
            if left < 0 { throw DocumentInput.malformed(file, line, "YAML document too large (aliases expand to too many nodes)") }
        }
    }

    private static func convert(_ node: Node, scalars: Scalars, budget: inout Budget) throws -> DocumentNode {
        let line = node.mark?.line ?? 0
        let column = node.mark?.column ?? 0
        try budget.spend(line)
        switch node {
        case .scalar(let scalar):
            return DocumentNode(value(of: scalar, node: node, scalars: scalars), line: line, column: column)
        case .sequence(let sequence):
            var elements: [DocumentNode] = []
            elements.reserveCapacity(sequence.count)
            for item in sequence { elements.append(try convert(item, scalars: scalars, budget: &budget)) }
            return DocumentNode(.array(elements), line: line, column: column)
        case .mapping(let mapping):
            var members: [DocumentMember] = []
            members.reserveCapacity(mapping.count)
            for (key, item) in mapping {
                // Non-scalar keys (`? [a, b]: x`) have no text; no format Sentinel reads uses them.
                members.append(
                    DocumentMember(
                        key: key.string ?? "", line: key.mark?.line ?? 0, column: key.mark?.column ?? 0,
                        value: try convert(item, scalars: scalars, budget: &budget)))
            }
            return DocumentNode(.object(members), line: line, column: column)
        case .alias:
            // Yams dereferences aliases while composing; a bare alias node carries no value.
            return DocumentNode(.null, line: line, column: column)
        }
    }

    private static func value(of scalar: Node.Scalar, node: Node, scalars: Scalars) -> DocumentNode.Value {
        // Quoted scalars are always text, whatever they spell.
        guard scalar.style == .plain else { return .string(scalar.string) }
        switch scalars {
        case .strings:
            return .string(scalar.string)
        case .text:
            if ["", "~", "null", "Null", "NULL"].contains(scalar.string) { return .null }
            if scalar.string == "true" || scalar.string == "false" { return .bool(scalar.string == "true") }
            return .string(scalar.string)
        case .typed:
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case .null: return .null
            case .bool: return node.bool.map { .bool($0) } ?? .string(scalar.string)
            case .int: return node.int.map { .integer($0) } ?? .string(scalar.string)
            case .float: return node.float.map { .double($0) } ?? .string(scalar.string)
            default: return .string(scalar.string)
            }
        }
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
