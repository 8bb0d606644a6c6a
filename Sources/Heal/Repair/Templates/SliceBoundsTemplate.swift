import PythonSyntax

/// Moves a slice bound by one or drops it: `xs[i:j]` → `xs[i + 1:j]`, `xs[i:j - 1]`, `xs[:j]`, …
public struct SliceBoundsTemplate: RepairTemplate {
    /// `slice-bounds`.
    public let name = "slice-bounds"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// A template with `prior`.
    public init(prior: Double = 0.7) { self.prior = prior }

    /// For each start and stop of a slice on `line`: `+ 1`, `- 1` and dropped.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for node in file.nodes(onLine: line) where node.kind == .subscript && node.range.start.line == line {
            let slice = node.children[1]
            guard slice.kind == .slice else { continue }
            for bound in slice.children.prefix(2) where !bound.isEmpty {
                let (start, end) = (bound.range.start.offset, bound.range.end.offset)
                for replacement in [file.shifted(bound, by: 1), file.shifted(bound, by: -1), ""] {
                    let edit = SourceEdit(start: start, end: end, replacement: replacement)
                    out.append(file.changing(node.range.start.offset, node.range.end.offset, by: [edit], line: line))
                }
            }
        }
        return out
    }
}
