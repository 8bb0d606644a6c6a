import PythonSyntax

/// A number written where a variable was meant: `range(10, -1, -1)` → `range(n, -1, -1)`,
/// `k - 1` → `k - j`, `dp[0][-1]` → `dp[0][m]` (a sample's size or a loop's index typed as the
/// literal it had in one case). The alternatives are the names of the enclosing function (or of
/// the module, for top-level code) bound above the line, likeliest first (``RepairEdit/rank``): names
/// that hold a number rather than a container, then the one used closest above the line.
public struct LiteralToVariableTemplate: RepairTemplate {
    /// `literal-to-variable`.
    public let name = "literal-to-variable"
    /// See ``RepairTemplates/standard``.
    public let prior: Double
    /// Most literals replaced per line, and most names tried per literal.
    static let maximumLiterals = 4
    static let maximumAlternatives = 6

    /// The template with `prior`.
    public init(prior: Double = 0.3) { self.prior = prior }

    /// Each integer literal on `line` replaced by a name in scope.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        let scope = file.scope(ofLine: line)
        let usage = file.nameUsage(in: scope)
        // Bound above the line: one first bound by it would be read unbound.
        let names = file.locals(of: scope).filter { (usage.lines[$0]?.min() ?? Int.max) < line }
        guard !names.isEmpty else { return [] }
        var literals: [SyntaxNode] = []
        var negated = Set<Int>()
        for node in file.nodes(onLine: line) where node.range.start.line == line {
            if node.kind == .unaryOp, file.integerValue(node) != nil {
                negated.insert(node.children[0].range.start.offset)
                literals.append(node)
            } else if node.kind == .integer, file.integerValue(node) != nil, !negated.contains(node.range.start.offset) {
                literals.append(node)
            }
        }
        let ranked = names.enumerated().sorted { a, b in
            Self.key(a.element, index: a.offset, usage: usage, line: line)
                .lexicographicallyPrecedes(Self.key(b.element, index: b.offset, usage: usage, line: line))
        }.map(\.element)
        var out: [RepairEdit] = []
        for literal in literals.prefix(Self.maximumLiterals) {
            for (rank, name) in ranked.prefix(Self.maximumAlternatives).enumerated() {
                var edit = file.replacing(literal.range.start.offset, literal.range.end.offset, with: name, line: line)
                edit.rank = rank
                out.append(edit)
            }
        }
        return out
    }

    static func key(_ name: String, index: Int, usage: NameUsage, line: Int) -> [Int] {
        let above = usage.lines[name, default: []].filter { $0 <= line }.max()
        return [usage.dereferencedNames.contains(name) ? 1 : 0, above.map { line - $0 } ?? Int.max, index]
    }
}
