import PythonSyntax

/// Moves a number by one: integer literals, `len(x)`, `range()` arguments, subscript indices and
/// the bound of an ordering comparison (`i < n` → `i < n - 1`). Each gets `+ 1` and `- 1`.
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
        var seen = Set<Int>()
        for target in targets(in: file, line: line) where seen.insert(target.range.start.offset).inserted {
            for delta in [1, -1] {
                out.append(
                    file.replacing(
                        target.range.start.offset, target.range.end.offset, with: file.shifted(target, by: delta), line: line))
            }
        }
        return out
    }

    /// The expressions on `line` that may be one off, outermost first (a negative literal is
    /// taken whole, so `-1` becomes `0` and `-2`, not `-0`).
    func targets(in file: RepairFile, line: Int) -> [PyNode] {
        var out: [PyNode] = []
        var negated = Set<Int>()
        for node in file.nodes(onLine: line) where node.range.start.line == line {
            switch node.kind {
            case .unaryOp where file.integerValue(node) != nil:
                negated.insert(node.children[0].range.start.offset)
                out.append(node)
            case .integer where file.integerValue(node) != nil && !negated.contains(node.range.start.offset):
                out.append(node)
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
            default: break
            }
        }
        return out
    }

    /// An expression that may be an integer: not a string, a slice, a keyword argument, a tuple
    /// of dimensions or a float.
    static func mayBeInteger(_ node: PyNode) -> Bool {
        [.name, .attribute, .binOp, .call, .subscript, .integer, .unaryOp, .ifExp].contains(node.kind)
    }
}
