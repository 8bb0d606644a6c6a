import PythonSyntax

/// The wrong conversion: `int`, `float` and `str` stand for one another where they are called or
/// passed (`float(s)` where `int(s)` was meant, `read(float)` for `read(str)`), the slip between
/// a count, a measure and a text. Each of the other two is proposed, `int` ↔ `float` first.
public struct ConversionTemplate: RepairTemplate {
    /// `conversion`.
    public let name = "conversion"
    /// See ``RepairTemplates/standard``.
    public let prior: Double
    /// The alternatives of each conversion, likeliest first.
    static let alternatives: [String: [String]] = ["int": ["float", "str"], "float": ["int", "str"], "str": ["int", "float"]]

    /// The template with `prior`.
    public init(prior: Double = 0.3) { self.prior = prior }

    /// Each `int`, `float` or `str` called or passed on `line`, replaced by the others.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for node in file.nodes(onLine: line) where node.kind == .call && node.range.start.line == line {
            let uses = [node.children[0]] + node.callArguments
            for use in uses where use.kind == .name && use.range.start.line == line {
                guard let spelling = use.text, let others = Self.alternatives[spelling] else { continue }
                for (rank, other) in others.enumerated() {
                    var edit = file.replacing(use.range.start.offset, use.range.end.offset, with: other, line: line)
                    edit.rank = rank
                    out.append(edit)
                }
            }
        }
        return out
    }
}
