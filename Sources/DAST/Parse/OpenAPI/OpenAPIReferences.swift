import Documents
import Web

/// Resolves `$ref`s inside one OpenAPI document (`#/components/...` JSON pointers). References
/// to other files or URLs are never followed (the scanner reads no other file and fetches
/// nothing); they, and pointers that lead nowhere, become notices.
struct OpenAPIReferences {
    /// The most `$ref` hops followed from one place (a chain longer than this is a loop).
    static let maxHops = 32

    let root: DocumentNode
    let file: String
    private(set) var notices: [String] = []

    init(root: DocumentNode, file: String) {
        self.root = root
        self.file = file
    }

    /// `node`, or what its `$ref` chain leads to; nil (with a notice) when the chain leaves the
    /// document, leads nowhere or loops.
    mutating func resolve(_ node: DocumentNode) -> DocumentNode? {
        var current = node
        var seen = Set<String>()
        while let reference = current["$ref"]?.string {
            guard seen.insert(reference).inserted else {
                notice(current.line, "$ref '\(reference)' loops; not followed")
                return nil
            }
            guard seen.count <= Self.maxHops else {
                notice(current.line, "$ref '\(reference)' ends a chain of more than \(Self.maxHops) references; not followed")
                return nil
            }
            guard let target = target(of: reference, line: current.line) else { return nil }
            current = target
        }
        return current
    }

    /// The node `reference` points at, or nil with a notice.
    mutating func target(of reference: String, line: Int) -> DocumentNode? {
        guard reference.hasPrefix("#") else {
            notice(line, "$ref '\(reference)' points outside the document; not followed")
            return nil
        }
        var node = root
        for token in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let key = FormEncoding.unescape(Substring(token.replacing("+", with: "%2B")))
                .replacing("~1", with: "/").replacing("~0", with: "~")
            if let member = node[key] {
                node = member
            } else if let index = Int(key), node.elements.indices.contains(index) {
                node = node.elements[index]
            } else {
                notice(line, "$ref '\(reference)' not found")
                return nil
            }
        }
        return node
    }

    /// Records `problem` at `line` as `FILE:LINE: problem`, once.
    mutating func notice(_ line: Int, _ problem: String) {
        let text = "\(file):\(line): \(problem)"
        if notices.count < 100, !notices.contains(text) { notices.append(text) }
    }
}
