import PythonSyntax

/// Positions printed counted from the wrong end: when every number printed is one less (or one
/// more) than expected, and there are at least two of them, each `print` the failing tests ran has
/// all its non-literal arguments shifted by that one (`print(i, j)` → `print(i + 1, j + 1)`), the
/// usual slip between 0-based indices and 1-based answers. A single number off by one is left to
/// the off-by-one template at the line that computes it: adding 1 where it is printed would
/// hide the slip rather than fix it.
public struct OneBasedOutputTemplate: GuidedRepairTemplate {
    /// `one-based-output`.
    public let name = "one-based-output"
    /// See ``RepairTemplates/guided``.
    public let prior: Double

    /// The template with `prior`.
    public init(prior: Double = 0.8) { self.prior = prior }

    /// The `print` calls on `lines` with their arguments shifted.
    public func candidates(in file: RepairFile, difference: OutputDifference, lines: Set<Int>) -> [RepairEdit] {
        guard let shift = difference.shift else { return [] }
        var out: [RepairEdit] = []
        for (statement, call) in file.printStatements(on: lines) {
            let arguments = call.callArguments.filter {
                ![.keyword, .starred, .string, .joinedStr].contains($0.kind)
            }
            guard !arguments.isEmpty else { continue }
            let edits = arguments.map { argument in
                SourceEdit(
                    start: argument.range.start.offset, end: argument.range.end.offset,
                    replacement: file.shifted(argument, by: shift))
            }
            out.append(file.changing(call.range.start.offset, call.range.end.offset, by: edits, line: statement.range.start.line))
        }
        return out
    }
}
