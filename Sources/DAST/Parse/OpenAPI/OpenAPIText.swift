import Documents

/// Example values as the text a request carries.
enum OpenAPIText {
    /// Scalars as written; arrays as their items joined by `,` (the default `form` style);
    /// objects as compact JSON; null as empty.
    static func text(of node: DocumentNode) -> String {
        switch node.value {
        case .null: return ""
        case .array(let items): return items.prefix(100).map(text(of:)).joined(separator: ",")
        case .object: return JSONWriter.string(node, style: .compact, sortKeys: false)
        default: return node.scalarText ?? ""
        }
    }

    /// A small XML rendering of an example for XML bodies given only as a schema: members become
    /// elements under `<root>`, text escaped.
    static func xml(of node: DocumentNode) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><root>" + xmlContent(node, depth: 0) + "</root>"
    }

    private static func xmlContent(_ node: DocumentNode, depth: Int) -> String {
        guard depth < JSONBody.maxDepth else { return "" }
        switch node.value {
        case .object(let members):
            return members.map { member in
                let name = member.key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } ? member.key : "item"
                return "<\(name)>" + xmlContent(member.value, depth: depth + 1) + "</\(name)>"
            }.joined()
        case .array(let items):
            return items.map { "<item>" + xmlContent($0, depth: depth + 1) + "</item>" }.joined()
        default:
            return text(of: node).replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
        }
    }
}
