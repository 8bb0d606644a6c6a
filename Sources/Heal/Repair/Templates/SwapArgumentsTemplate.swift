import PythonSyntax

/// Swaps two positional arguments of a call: `divide(total, count)` → `divide(count, total)`.
public struct SwapArgumentsTemplate: RepairTemplate {
    /// `swap-arguments`.
    public let name = "swap-arguments"
    /// See ``RepairTemplates/standard``.
    public let prior: Double
    /// Only the first few positional arguments are paired, so long calls stay cheap.
    static let maximumArguments = 4

    /// A template with `prior`.
    public init(prior: Double = 0.4) { self.prior = prior }

    /// Every pair of the first positional arguments of each call that starts on `line`.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for call in file.nodes(onLine: line) where call.kind == .call && call.range.start.line == line {
            let positional = Array(
                call.callArguments.prefix { ![.keyword, .starred, .doubleStarred].contains($0.kind) }.prefix(Self.maximumArguments))
            for i in positional.indices {
                for j in positional.indices where j > i {
                    let (a, b) = (positional[i], positional[j])
                    let textA = file.text(of: a)
                    let textB = file.text(of: b)
                    guard textA != textB else { continue }
                    let edits = [
                        SourceEdit(start: a.range.start.offset, end: a.range.end.offset, replacement: textB),
                        SourceEdit(start: b.range.start.offset, end: b.range.end.offset, replacement: textA),
                    ]
                    out.append(file.changing(call.range.start.offset, call.range.end.offset, by: edits, line: line))
                }
            }
        }
        return out
    }
}
