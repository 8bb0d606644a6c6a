import Documents

/// A path to one leaf of a JSON document (`user.name`, `items[0]`): where an active check puts
/// its payload in a JSON body.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step: a member name or an array index.
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps from the root.
    public var steps: [Step]

    /// `a.b[0]`.
    public var description: String {
        var text = ""
        for step in steps {
            switch step {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// The string, number and boolean leaves of `node`, depth-first (at most 64, 16 levels deep).
    public static func leaves(of node: DocumentNode) -> [JSONPath] {
        var found: [JSONPath] = []
        func walk(_ node: DocumentNode, _ steps: [Step]) {
            guard found.count < 64, steps.count <= 16 else { return }
            switch node.value {
            case .object(let members):
                for member in members { walk(member.value, steps + [.key(member.key)]) }
            case .array(let elements):
                for (index, element) in elements.enumerated() { walk(element, steps + [.index(index)]) }
            case .string, .integer, .double, .bool:
                if !steps.isEmpty { found.append(JSONPath(steps: steps)) }
            case .null: if !steps.isEmpty { found.append(JSONPath(steps: steps)) }
            }
        }
        walk(node, [])
        return found
    }

    /// The value at this path as text (numbers as written), nil when absent.
    public func value(in node: DocumentNode) -> String? {
        var current = node
        for step in steps {
            switch step {
            case .key(let key): guard let next = current[key] else { return nil }; current = next
            case .index(let index):
                let elements = current.elements
                guard elements.indices.contains(index) else { return nil }
                current = elements[index]
            }
        }
        switch current.value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: return ""
        }
    }

    /// `node` with the leaf at this path replaced by the string `text`.
    public func replacing(in node: DocumentNode, with text: String) -> DocumentNode {
        func rewrite(_ node: DocumentNode, _ rest: ArraySlice<Step>) -> DocumentNode {
            guard let step = rest.first else { return DocumentNode(.string(text), line: node.line, column: node.column) }
            switch (step, node.value) {
            case (.key(let key), .object(let members)):
                let updated = members.map { member in
                    member.key == key
                        ? DocumentMember(
                            key: member.key, line: member.line, column: member.column,
                            value: rewrite(member.value, rest.dropFirst()))
                        : member
                }
                return DocumentNode(.object(updated), line: node.line, column: node.column)
            case (.index(let index), .array(let elements)):
                var updated = elements
                if updated.indices.contains(index) { updated[index] = rewrite(updated[index], rest.dropFirst()) }
                return DocumentNode(.array(updated), line: node.line, column: node.column)
            default:
                return node
            }
        }
        return rewrite(node, steps[...])
    }
}
