import PythonSyntax

/// Replaces the value an assignment or parameter default starts from: `0` ↔ `1`, `True` ↔
/// `False`, `[]` / `None` / `""` for one another, `float('inf')` ↔ `-float('inf')`.
public struct InitialValueTemplate: RepairTemplate {
    /// `initial-value`.
    public let name = "initial-value"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// A template with `prior`.
    public init(prior: Double = 0.6) { self.prior = prior }

    /// Each alternative of each initial value on `line`.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for value in initialValues(in: file, line: line) {
            for replacement in alternatives(for: value, in: file) {
                out.append(file.replacing(value.range.start.offset, value.range.end.offset, with: replacement, line: line))
            }
        }
        return out
    }

    /// Values assigned by statements starting on `line` (each element of a tuple on its own) and
    /// parameter defaults written on it.
    func initialValues(in file: RepairFile, line: Int) -> [SyntaxNode] {
        var out: [SyntaxNode] = []
        for node in file.nodes(onLine: line) {
            var value: SyntaxNode?
            switch node.kind {
            case .assign where node.range.start.line == line: value = node.children.last
            case .annAssign where node.range.start.line == line: value = node.children[2]
            case .parameter where node.children[1].range.start.line == line: value = node.children[1]
            default: break
            }
            guard let value, !value.isEmpty else { continue }
            out += value.kind == .tuple ? value.children : [value]
        }
        return out
    }

    /// What `value` may have been meant to be.
    func alternatives(for value: SyntaxNode, in file: RepairFile) -> [String] {
        let text = file.text(of: value)
        switch value.kind {
        case .integer where text == "0": return ["1"]
        case .integer where text == "1": return ["0"]
        case .true: return ["False"]
        case .false: return ["True"]
        case .none: return ["[]", "\"\""]
        case .list where value.children.isEmpty: return ["None", "\"\""]
        case .string where text == "\"\"" || text == "''":
            return ["[]", "None"]
        default: break
        }
        if isInfinity(value) { return ["-" + text] }
        if value.kind == .unaryOp, value.text == "-", let operand = value.children.first, isInfinity(operand) {
            return [file.text(of: operand)]
        }
        return []
    }

    /// `float('inf')`, `float("inf")` or `math.inf`.
    func isInfinity(_ node: SyntaxNode) -> Bool {
        if node.dottedName == "math.inf" { return true }
        guard node.kind == .call, node.callee?.dottedName == "float", node.callArguments.count == 1,
            let argument = node.callArguments.first, argument.kind == .string
        else { return false }
        return ["inf", "infinity"].contains(argument.text?.lowercased() ?? "")
    }
}
