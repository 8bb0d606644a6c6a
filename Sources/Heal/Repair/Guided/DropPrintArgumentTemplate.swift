import PythonSyntax

/// A `print` with one argument too many: when the code printed more tokens than expected, each
/// positional argument of each `print` the failing tests ran is dropped in turn, the first argument
/// first (`print(d, max(d))` → `print(max(d))`: a value printed while debugging usually comes first).
/// When the expected tokens were all printed in a row (``OutputDifference/expectedWithin``), these
/// are the likeliest changes; otherwise they rank three steps lower (``RepairEdit/rank``).
public struct DropPrintArgumentTemplate: GuidedRepairTemplate {
    /// `drop-print-argument`.
    public let name = "drop-print-argument"
    /// See ``RepairTemplates/guided``.
    public let prior: Double

    /// The template with `prior`.
    public init(prior: Double = 0.9) { self.prior = prior }

    /// Each positional argument of each `print` on `lines`, dropped.
    public func candidates(in file: RepairFile, difference: OutputDifference, lines: Set<Int>) -> [RepairEdit] {
        guard difference.printedMoreTokens else { return [] }
        var out: [RepairEdit] = []
        for (statement, call) in file.printStatements(on: lines) {
            // Positional arguments come before keywords (`sep=`, `end=`), which stay.
            let positional = Array(call.callArguments.prefix { $0.kind != .keyword })
            guard positional.count >= 2, !positional.contains(where: { $0.kind == .starred }) else { continue }
            let line = statement.range.start.line
            for (index, argument) in positional.enumerated() {
                // The argument and the comma after it; the last one takes the comma before it.
                let start = index + 1 < positional.count ? argument.range.start.offset : positional[index - 1].range.end.offset
                let end = index + 1 < positional.count ? positional[index + 1].range.start.offset : argument.range.end.offset
                var edit = file.changing(
                    call.range.start.offset, call.range.end.offset,
                    by: [SourceEdit(start: start, end: end, replacement: "")], line: line)
                edit.rank = index + (difference.expectedWithin ? 0 : 3)
                out.append(edit)
            }
        }
        return out
    }
}
