import PythonSyntax

/// Moves a number by one: integer literals, `len(x)`, `range()` arguments, subscript indices, the
/// bound of an ordering comparison (`i < n` → `i < n - 1`) and a sum divided with `//`, where
/// rounding wants its `± 1` (`(total + size) // size` → `(total + size - 1) // size`, `(lo + hi)
/// // 2` → `(lo + hi + 1) // 2`). Each gets `+ 1` and `- 1`; a sum ending in a literal takes the
/// change in it (`n - 1` → `n`, `n - 2`). A literal written more than once on the line also moves
/// everywhere there at once (`2002 * 2002` → `2003 * 2003`: one constant, written twice).
public struct OffByOneTemplate: RepairTemplate {
    /// `off-by-one`.
    public let name = "off-by-one"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// A template with `prior`.
    public init(prior: Double = 0.8) { self.prior = prior }

    /// `value ± 1` for every target that starts on `line`.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for target in targets(in: file, line: line) {
            for delta in [1, -1] {
                out.append(
                    file.replacing(
                        target.range.start.offset, target.range.end.offset, with: file.shifted(target, by: delta), line: line))
            }
        }
        // One constant written several times on the line moves everywhere at once.
        let literals = file.nodes(onLine: line).filter { $0.kind == .integer && $0.range.start.line == line }
        let repeated = Dictionary(grouping: literals) { file.text(of: $0) }.filter { $0.value.count > 1 }
        for (text, nodes) in repeated.sorted(by: { $0.key < $1.key }) {
            guard let value = Int(text) else { continue }
            for delta in [1, -1] {
                let edits = nodes.map {
                    SourceEdit(start: $0.range.start.offset, end: $0.range.end.offset, replacement: String(value + delta))
                }
                out.append(
                    RepairEdit(
                        line: line, edits: edits,
                        description: "line \(line): every `\(text)` → `\(value + delta)` (\(nodes.count) of them)"))
            }
        }
        return out
    }

    /// The expressions on `line` that may be one off, outermost first, each once (a negative
    /// literal is taken whole, so `-1` becomes `0` and `-2`, not `-0`). Moving a term of a sum by
    /// one moves the sum by one: a literal a sum ends in stands for the sum (`n - 1` → `n`, never
    /// `n - 0`), and a target inside the sum of another target is left out (`len(xs) - 1` is
    /// moved whole, never as `len(xs) + 1 - 1`).
    func targets(in file: RepairFile, line: Int) -> [SyntaxNode] {
        var out: [SyntaxNode] = []
        var negated = Set<Int>()
        // The sum on `line` that each literal ending one stands for, by the literal's offset.
        var sums: [Int: SyntaxNode] = [:]
        for node in file.nodes(onLine: line) where node.range.start.line == line {
            switch node.kind {
            case .unaryOp where file.integerValue(node) != nil:
                negated.insert(node.children[0].range.start.offset)
                out.append(node)
            case .integer where file.integerValue(node) != nil && !negated.contains(node.range.start.offset):
                out.append(sums[node.range.start.offset] ?? node)
            case .call where node.callee?.dottedName == "len":
                out.append(node)
            case .call where node.callee?.dottedName == "range":
                out += node.callArguments.filter { Self.mayBeInteger($0) }
            case .subscript where Self.mayBeInteger(node.children[1]):
                out.append(node.children[1])
            case .compare:
                let operators = (node.text ?? "").split(separator: ",")
                for (index, op) in operators.enumerated() where ["<", "<=", ">", ">="].contains(op) {
                    if Self.mayBeInteger(node.children[index + 1]) { out.append(node.children[index + 1]) }
                }
            case .binOp where RepairFile.isSum(node):
                if node.children[1].kind == .integer, file.shiftedSum(node, by: 1) != nil {
                    sums[node.children[1].range.start.offset] = node
                }
            case .binOp where node.text == "//" && RepairFile.isSum(node.children[0]):
                if node.children[0].range.start.line == line { out.append(node.children[0]) }
            default: break
            }
        }
        // Terms of a target's sum (and of sums inside it), which would only move it again.
        var terms = Set<[Int]>()
        for target in out { Self.collectTerms(of: target, into: &terms) }
        var seen = Set<[Int]>()
        return out.filter { target in
            let key = [target.range.start.offset, target.range.end.offset]
            return !terms.contains(key) && seen.insert(key).inserted
        }
    }

    /// The ranges of the terms of `node` when it is a sum, and of their terms in turn.
    static func collectTerms(of node: SyntaxNode, into terms: inout Set<[Int]>) {
        guard RepairFile.isSum(node) else { return }
        for term in node.children {
            terms.insert([term.range.start.offset, term.range.end.offset])
            collectTerms(of: term, into: &terms)
        }
    }

    /// An expression that may be an integer: not a string, a slice, a keyword argument, a tuple
    /// of dimensions or a float.
    static func mayBeInteger(_ node: SyntaxNode) -> Bool {
        [.name, .attribute, .binOp, .call, .subscript, .integer, .unaryOp, .ifExp].contains(node.kind)
    }
}
