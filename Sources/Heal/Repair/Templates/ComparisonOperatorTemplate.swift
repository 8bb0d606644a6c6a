/// Swaps a comparison operator: `<` ↔ `<=`, `>` ↔ `>=`, `<` ↔ `>`, `==` ↔ `!=`, `is` ↔ `is not`,
/// `in` ↔ `not in`. Boundary mistakes are the commonest one-token bug.
public struct ComparisonOperatorTemplate: RepairTemplate {
    /// `comparison-operator`.
    public let name = "comparison-operator"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// What each operator may have been meant as.
    static let swaps: [String: [String]] = [
        "<": ["<=", ">"], "<=": ["<", ">="], ">": [">=", "<"], ">=": [">", "<="], "==": ["!="], "!=": ["=="],
        "is": ["is not"], "is not": ["is"], "in": ["not in"], "not in": ["in"],
    ]

    /// A template with `prior`.
    public init(prior: Double = 0.9) { self.prior = prior }

    /// One edit per alternative of each comparison operator on `line`.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for node in file.nodes(onLine: line) where node.kind == .compare {
            for (left, right) in zip(node.children, node.children.dropFirst()) {
                let operators = file.operatorTokens(between: left, and: right)
                guard let first = operators.first, let last = operators.last, first.range.start.line == line else { continue }
                // `is not` and `not in` are two tokens, whatever the spacing between them.
                let spelling = operators.map(\.text).joined(separator: " ")
                for replacement in Self.swaps[spelling] ?? [] {
                    out.append(file.replacing(first.range.start.offset, last.range.end.offset, with: replacement, line: line))
                }
            }
        }
        return out
    }
}
