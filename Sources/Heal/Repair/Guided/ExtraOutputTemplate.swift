import Foundation
import PythonSyntax

/// A `print` the expected output has no room for: when the code printed more lines than expected,
/// each `print` statement the failing tests ran is deleted in turn. One whose literal begins
/// such a line (`print("total:", t)` and a line `total: 3`) is tried first; the others follow in
/// the order of their suspiciousness (``RepairEdit/rank`` 1); when several echo such lines, deleting
/// them all at once comes first (debug prints come in groups). A leftover debug print anywhere in
/// a long program is found this way, however low coverage ranks its line.
public struct ExtraOutputTemplate: GuidedRepairTemplate {
    /// `extra-output`.
    public let name = "extra-output"
    /// See ``RepairTemplates/guided``.
    public let prior: Double

    /// The template with `prior`.
    public init(prior: Double = 0.85) { self.prior = prior }

    /// Deletions of the `print` statements on `lines`.
    public func candidates(in file: RepairFile, difference: OutputDifference, lines: Set<Int>) -> [RepairEdit] {
        guard !difference.extraLines.isEmpty else { return [] }
        let delete = DeleteOutputTemplate()
        var out: [RepairEdit] = []
        var echoing: [RepairEdit] = []
        for (statement, call) in file.printStatements(on: lines) {
            let line = statement.range.start.line
            let prefix = call.callArguments.first.flatMap { Self.leadingText(of: $0, in: file) }?
                .trimmingCharacters(in: .whitespaces)
            let echoed =
                prefix.map { prefix in
                    !prefix.isEmpty && difference.extraLines.contains { $0.hasPrefix(prefix) }
                } ?? false
            // A wrong line in place of the right one is not extra output, unless a print echoes it.
            guard echoed || difference.printedMoreLines else { continue }
            for var edit in delete.candidates(in: file, line: line) {
                edit.rank = echoed ? 0 : 1
                out.append(edit)
                if echoed { echoing.append(edit) }
            }
        }
        if echoing.count > 1 {
            let lines = echoing.map { String($0.line) }.joined(separator: ", ")
            out.append(
                RepairEdit(
                    line: echoing[0].line, edits: echoing.flatMap(\.edits),
                    description: "lines \(lines): delete the prints of lines not expected"))
        }
        return out
    }

    /// The literal text an argument starts with: a plain string, or the first operand of a
    /// concatenation (`"total: " + str(t)`).
    static func leadingText(of node: SyntaxNode, in file: RepairFile) -> String? {
        switch node.kind {
        case .string: node.text  // the parser's decoded value
        case .binOp where node.text == "+": leadingText(of: node.children[0], in: file)
        default: nil
        }
    }
}
