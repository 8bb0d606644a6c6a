import PythonSyntax

/// Negates the condition of an `if`, `elif` or `while` (`if c:` → `if not c:`, `if not (a or b):`)
/// and drops a `not` anywhere on the line (`if not done:` → `if done:`).
public struct NegateConditionTemplate: RepairTemplate {
    /// `negate-condition`.
    public let name = "negate-condition"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// A template with `prior`.
    public init(prior: Double = 0.6) { self.prior = prior }

    /// The negated condition of a branch or loop that starts on `line`, and each `not` dropped.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for node in file.nodes(onLine: line) {
            if node.kind == .if || node.kind == .while, let test = node.children.first, test.range.start.line == line,
                !(test.kind == .unaryOp && test.text == "not")
            {
                out.append(negating(test, in: file, line: line))
            }
            if node.kind == .unaryOp, node.text == "not", node.range.start.line == line {
                // Delete `not` and the space after it, up to the operand's first token (maybe a `(`).
                let after = file.tokenIndex(atOrAfter: node.range.start.offset + 1)
                let edit = SourceEdit(
                    start: node.range.start.offset, end: file.tokens[after].range.start.offset, replacement: "")
                out.append(file.changing(node.range.start.offset, node.range.end.offset, by: [edit], line: line))
            }
        }
        return out
    }

    /// `not c` for a plain operand, `not (c)` for anything that binds looser than `not`.
    func negating(_ test: SyntaxNode, in file: RepairFile, line: Int) -> RepairEdit {
        let (start, end) = (test.range.start.offset, test.range.end.offset)
        let plain: Set<SyntaxKind> = [.name, .attribute, .call, .subscript, .compare, .true, .false, .none]
        let edits =
            plain.contains(test.kind)
            ? [SourceEdit(start: start, end: start, replacement: "not ")]
            : [SourceEdit(start: start, end: start, replacement: "not ("), SourceEdit(start: end, end: end, replacement: ")")]
        return file.changing(start, end, by: edits, line: line)
    }
}
