import PythonSyntax

/// Moves a slice bound by one or drops it: `xs[i:j]` → `xs[i + 1:j]`, `xs[i:j - 1]`, `xs[:j]`, …
/// An absent bound (the start or the end of the sequence) moves inward by one: `xs[:]` →
/// `xs[1:]`, `xs[:-1]` (a header line or a trailing element skipped, or not).
public struct SliceBoundsTemplate: RepairTemplate {
    /// `slice-bounds`.
    public let name = "slice-bounds"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// A template with `prior`.
    public init(prior: Double = 0.7) { self.prior = prior }

    /// For each start and stop of a slice on `line`: `+ 1`, `- 1` and dropped; an absent start
    /// becomes `1` and an absent stop `-1` (for slices without a step).
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for node in file.nodes(onLine: line) where node.kind == .subscript && node.range.start.line == line {
            let slice = node.children[1]
            guard slice.kind == .slice else { continue }
            var edits: [SourceEdit] = []
            for bound in slice.children.prefix(2) where !bound.isEmpty {
                let (start, end) = (bound.range.start.offset, bound.range.end.offset)
                for replacement in [file.shifted(bound, by: 1), file.shifted(bound, by: -1), ""] {
                    edits.append(SourceEdit(start: start, end: end, replacement: replacement))
                }
            }
            if slice.children[2].isEmpty, let colon = colon(of: node, in: file) {
                if slice.children[0].isEmpty { edits.append(SourceEdit(start: colon.start, end: colon.start, replacement: "1")) }
                if slice.children[1].isEmpty { edits.append(SourceEdit(start: colon.end, end: colon.end, replacement: "-1")) }
            }
            for edit in edits {
                out.append(file.changing(node.range.start.offset, node.range.end.offset, by: [edit], line: line))
            }
        }
        return out
    }

    /// The byte range of the `:` between the start and the stop of `node`'s slice: the first
    /// `:` after its start, or after the `[` when there is no start.
    func colon(of node: SyntaxNode, in file: RepairFile) -> (start: Int, end: Int)? {
        let lower = node.children[1].children[0]
        let from = lower.isEmpty ? node.children[0].range.end.offset : lower.range.end.offset
        let tokens = file.tokens(from: from, to: node.range.end.offset)
        if lower.isEmpty {
            // `xs[:…]`: the `[` and then the `:` (a parenthesised value's `)` may come first).
            guard let open = tokens.firstIndex(where: { $0.text == "[" }), open + 1 < tokens.count, tokens[open + 1].text == ":"
            else { return nil }
            return (tokens[open + 1].range.start.offset, tokens[open + 1].range.end.offset)
        }
        guard let colon = tokens.first(where: { $0.text == ":" }) else { return nil }
        return (colon.range.start.offset, colon.range.end.offset)
    }
}
