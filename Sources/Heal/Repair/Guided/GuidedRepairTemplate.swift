import PythonSyntax

/// A fix pattern aimed by what the failing tests printed against what they expected, rather than
/// by one suspicious line: it looks at every line the failing tests ran (`lines`) and proposes
/// changes that would turn the printed output into the expected one. ``RepairGenerator`` scores a
/// change by ``prior`` times the most suspicious line's score: the output points at the line more
/// surely than coverage does (a slip on a line every test runs ranks low in coverage).
public protocol GuidedRepairTemplate: Sendable {
    /// A short stable name, e.g. `expected-literal`.
    var name: String { get }
    /// How likely a change of this kind is the fix when the output points at it, in 0...1.
    var prior: Double { get }
    /// The changes this template proposes in `file`, given `difference`, on `lines` (the lines of
    /// `file` the failing tests ran); may be empty.
    func candidates(in file: RepairFile, difference: OutputDifference, lines: Set<Int>) -> [RepairEdit]
}

extension RepairFile {
    /// `print(…)` calls that are whole expression statements starting on one of `lines`, in
    /// source order.
    func printStatements(on lines: Set<Int>) -> [(statement: SyntaxNode, call: SyntaxNode)] {
        var out: [(SyntaxNode, SyntaxNode)] = []
        module.root.walk { node in
            if node.kind == .exprStmt, lines.contains(node.range.start.line), let call = node.children.first,
                call.kind == .call, call.callee?.kind == .name, call.callee.map({ text(of: $0) }) == "print"
            {
                out.append((node, call))
            }
            return true
        }
        return out
    }
}
