import Documents
import Web

/// A JSON request body as a value tree: its text, the paths of its scalar fields (`name`,
/// `address.city`, `tags[0]`), and copies with one field replaced by an injected string, which
/// is how the active checks probe each field of an API request.
public struct JSONBody: Sendable, Hashable {
    /// The most field paths listed.
    public static let maxFieldPaths = 1_000
    /// The deepest nesting walked.
    static let maxDepth = 64

    /// The value tree.
    public var root: DocumentNode

    /// A body holding `root`.
    public init(_ root: DocumentNode) {
        self.root = root
    }

    /// A body read from JSON text; throws `SentinelError(.invalidInput, "FILE:LINE: ...")`.
    public init(json: String, file: String = "body") throws {
        root = try JSON.parse(Array(json.utf8), file: file)
    }

    /// Compact JSON, members in their order.
    public var text: String { JSONWriter.string(root, style: .compact, sortKeys: false) }

    /// The paths of the scalar leaves in document order: members joined with `.`, array
    /// elements as `[index]` (keys are written as they are, so a key holding `.` or `[` makes
    /// an ambiguous path; `replacing` then takes the first leaf that matches). Empty for a
    /// scalar body. At most `maxFieldPaths`.
    public var fieldPaths: [String] {
        var paths: [String] = []
        Self.walk(root, path: "", depth: 0) { path, _ in
            guard paths.count < Self.maxFieldPaths else { return false }
            if !path.isEmpty { paths.append(path) }
            return true
        }
        return paths
    }

    /// The top-level members as form pairs (nested values as JSON text), for form bodies.
    var formPairs: [FormPair] {
        root.members.map { (name: $0.key, value: OpenAPIText.text(of: $0.value)) }
    }

    /// This body with the scalar at `path` replaced by the string `value`; nil when no scalar
    /// field has that path.
    public func replacing(_ path: String, with value: String) -> JSONBody? {
        guard !path.isEmpty, let replaced = Self.replace(root, at: "", target: path, value: value, depth: 0) else {
            return nil
        }
        return JSONBody(replaced)
    }

    /// Calls `visit(path, leaf)` for each scalar in order until it returns false.
    private static func walk(
        _ node: DocumentNode, path: String, depth: Int, visit: (String, DocumentNode) -> Bool
    ) {
        _ = walkContinuing(node, path: path, depth: depth, visit: visit)
    }

    private static func walkContinuing(
        _ node: DocumentNode, path: String, depth: Int, visit: (String, DocumentNode) -> Bool
    ) -> Bool {
        guard depth < maxDepth else { return true }
        switch node.value {
        case .object(let members):
            for member in members {
                let child = path.isEmpty ? member.key : path + "." + member.key
                if !walkContinuing(member.value, path: child, depth: depth + 1, visit: visit) { return false }
            }
            return true
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if !walkContinuing(element, path: path + "[\(index)]", depth: depth + 1, visit: visit) { return false }
            }
            return true
        default:
            return visit(path, node)
        }
    }

    /// `node` with the leaf at `target` replaced, nil when `target` is not under it.
    private static func replace(_ node: DocumentNode, at path: String, target: String, value: String, depth: Int)
        -> DocumentNode?
    {
        guard depth < maxDepth, path.isEmpty || target.hasPrefix(path) else { return nil }
        switch node.value {
        case .object(var members):
            for index in members.indices {
                let child = path.isEmpty ? members[index].key : path + "." + members[index].key
                if let replaced = replace(members[index].value, at: child, target: target, value: value, depth: depth + 1) {
                    members[index].value = replaced
                    return DocumentNode(.object(members), line: node.line, column: node.column)
                }
            }
            return nil
        case .array(var elements):
            for index in elements.indices {
                let child = path + "[\(index)]"
                if let replaced = replace(elements[index], at: child, target: target, value: value, depth: depth + 1) {
                    elements[index] = replaced
                    return DocumentNode(.array(elements), line: node.line, column: node.column)
                }
            }
            return nil
        default:
            return path == target ? DocumentNode(.string(value), line: node.line, column: node.column) : nil
        }
    }
}
