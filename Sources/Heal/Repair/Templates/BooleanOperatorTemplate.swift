import PythonSyntax

/// Swaps `and` ↔ `or`: each operator on its own, and all of a chain at once.
public struct BooleanOperatorTemplate: RepairTemplate {
    /// `boolean-operator`.
    public let name = "boolean-operator"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// A template with `prior`.
    public init(prior: Double = 0.6) { self.prior = prior }

    /// For each `and`/`or` chain with an operator on `line`: every operator swapped alone, and
    /// (for chains of three or more operands) all of them together.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for node in file.nodes(onLine: line) where node.kind == .boolOp {
            let operators = Self.operators(of: node, in: file)
            guard operators.contains(where: { $0.range.start.line == line }) else { continue }
            let swapped = node.text == "and" ? "or" : "and"
            let edits = operators.map { SourceEdit(start: $0.range.start.offset, end: $0.range.end.offset, replacement: swapped) }
            let span = (node.range.start.offset, node.range.end.offset)
            for (edit, token) in zip(edits, operators) where token.range.start.line == line {
                out.append(file.changing(span.0, span.1, by: [edit], line: line))
            }
            if edits.count > 1 { out.append(file.changing(span.0, span.1, by: edits, line: line)) }
        }
        return out
    }

    /// The `and`/`or` tokens between the operands of `node`, in order.
    static func operators(of node: SyntaxNode, in file: RepairFile) -> [PythonToken] {
        zip(node.children, node.children.dropFirst()).compactMap { left, right in
            file.operatorTokens(between: left, and: right).first { $0.text == node.text }
        }
    }
}
