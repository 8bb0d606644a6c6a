import PythonSyntax

/// A container printed whole where its items were expected: the output is `['Yes', 'No']` or
/// `[1, 2]` and the expected tokens are those items. Each one-argument `print` the failing tests
/// ran prints the items instead — one per line when the expected output has them so
/// (`print(*x, sep="\n")`), else space-separated (`print(*x)`).
public struct ItemsOutputTemplate: GuidedRepairTemplate {
    /// `items-output`.
    public let name = "items-output"
    /// See ``RepairTemplates/guided``.
    public let prior: Double

    /// The template with `prior`.
    public init(prior: Double = 0.9) { self.prior = prior }

    /// `print(x)` → `print(*x)` (or one per line) on `lines`, when a printed container holds the
    /// expected tokens.
    public func candidates(in file: RepairFile, difference: OutputDifference, lines: Set<Int>) -> [RepairEdit] {
        guard let perLine = difference.containerItems else { return [] }
        var out: [RepairEdit] = []
        for (statement, call) in file.printStatements(on: lines) {
            guard call.callArguments.count == 1, let argument = call.callArguments.first,
                ![.keyword, .starred, .string, .joinedStr, .integer, .float].contains(argument.kind)
            else { continue }
            let separator = perLine ? ", sep=\"\\n\"" : ""
            out.append(
                file.changing(
                    call.range.start.offset, call.range.end.offset,
                    by: [
                        SourceEdit(start: argument.range.start.offset, end: argument.range.start.offset, replacement: "*"),
                        SourceEdit(start: argument.range.end.offset, end: argument.range.end.offset, replacement: separator),
                    ], line: statement.range.start.line))
        }
        return out
    }
}
