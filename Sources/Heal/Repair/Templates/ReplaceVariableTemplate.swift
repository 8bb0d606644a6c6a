import PythonSyntax

/// Reads another local instead: `return lo` → `return hi`, `total += x` → `total += y`. The
/// alternatives are the enclosing function's parameters and assigned names (the module's names for
/// top-level code, where scripts keep their variables), likeliest first
/// (``RepairEdit/rank``): names of the same kind (one the function dereferences, as `xs[i]`,
/// `q.pop()`, `f(…)` or `for v in xs`, for a read that dereferences, any other name otherwise),
/// then names the line does not use already (a name the statement already has would make
/// `max(best, best)` or `d[k] = d[k] + 1`), then the name used closest above the line, then the
/// rest in order of first appearance.
public struct ReplaceVariableTemplate: RepairTemplate {
    /// `replace-variable`.
    public let name = "replace-variable"
    /// See ``RepairTemplates/standard``.
    public let prior: Double
    /// Most names replaced per line, and most alternatives tried per name.
    static let maximumNames = 8
    /// Most alternatives tried per name, the likeliest.
    static let maximumAlternatives = 6

    /// A template with `prior`.
    public init(prior: Double = 0.3) { self.prior = prior }

    /// Each read of a local on `line` replaced by each other local, ranked.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        let function = file.scope(ofLine: line)
        let locals = file.locals(of: function)
        let stores = file.storeOffsets(in: function)
        let usage = file.nameUsage(in: function)
        let reads = file.nodes(onLine: line).filter { $0.kind == .name && $0.range.start.line == line }
        let onLine = Set(reads.compactMap(\.text))
        var out: [RepairEdit] = []
        var names = 0
        for node in reads {
            guard let name = node.text, locals.contains(name), !stores.contains(node.range.start.offset) else { continue }
            names += 1
            if names > Self.maximumNames { break }
            let dereferenced = usage.dereferenced.contains(node.range.start.offset)
            // Only names bound above the line: one first bound by it would be read unbound.
            let ranked = locals.enumerated().filter {
                $0.element != name && (usage.lines[$0.element]?.min() ?? Int.max) < line
            }.sorted { a, b in
                key(a.element, index: a.offset, dereferenced: dereferenced, onLine: onLine, usage: usage, line: line)
                    .lexicographicallyPrecedes(
                        key(b.element, index: b.offset, dereferenced: dereferenced, onLine: onLine, usage: usage, line: line))
            }
            for (rank, other) in ranked.prefix(Self.maximumAlternatives).enumerated() {
                var edit = file.replacing(node.range.start.offset, node.range.end.offset, with: other.element, line: line)
                edit.rank = rank
                out.append(edit)
            }
        }
        return out
    }

    /// The sort key of `alternative` (lower first): another kind, already on the line, lines
    /// since its last use above `line`, order of first appearance.
    func key(_ alternative: String, index: Int, dereferenced: Bool, onLine: Set<String>, usage: NameUsage, line: Int) -> [Int] {
        let kind = usage.dereferencedNames.contains(alternative) == dereferenced ? 0 : 1
        let above = usage.lines[alternative, default: []].filter { $0 < line }.max()
        return [kind, onLine.contains(alternative) ? 1 : 0, above.map { line - $0 } ?? Int.max, index]
    }
}
