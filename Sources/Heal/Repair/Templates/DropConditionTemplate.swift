import PythonSyntax

/// Drops one operand of an `and`/`or` chain with the operator beside it: `a and b and c` →
/// `b and c`, `a and c`, `a and b`. A check that should not be there is a common bug.
public struct DropConditionTemplate: RepairTemplate {
    /// `drop-condition`.
    public let name = "drop-condition"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// A template with `prior`.
    public init(prior: Double = 0.5) { self.prior = prior }

    /// For each `and`/`or` chain with an operator on `line`, each operand dropped in turn.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for node in file.nodes(onLine: line) where node.kind == .boolOp {
            let operators = BooleanOperatorTemplate.operators(of: node, in: file)
            guard operators.count == node.children.count - 1, operators.contains(where: { $0.range.start.line == line })
            else { continue }
            let (start, end) = (node.range.start.offset, node.range.end.offset)
            for index in node.children.indices {
                let edit: SourceEdit
                if index == 0 {
                    // From the first operand to the token after the first operator.
                    let next = file.tokens[file.tokenIndex(atOrAfter: operators[0].range.end.offset)]
                    edit = SourceEdit(start: start, end: next.range.start.offset, replacement: "")
                } else {
                    // From the end of the previous operand (its closing parentheses included) to the
                    // end of this one.
                    let previousEnd = lastTokenEnd(before: operators[index - 1].range.start.offset, in: file)
                    let operandEnd = index == operators.count ? end : lastTokenEnd(before: operators[index].range.start.offset, in: file)
                    edit = SourceEdit(start: previousEnd, end: operandEnd, replacement: "")
                }
                out.append(file.changing(start, end, by: [edit], line: line))
            }
        }
        return out
    }

    /// The end of the last token that starts before `offset`.
    func lastTokenEnd(before offset: Int, in file: RepairFile) -> Int {
        let index = file.tokenIndex(atOrAfter: offset)
        return index > 0 ? file.tokens[index - 1].range.end.offset : 0
    }
}
