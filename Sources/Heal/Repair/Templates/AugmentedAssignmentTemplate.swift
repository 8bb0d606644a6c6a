import PythonSyntax

/// An augmented assignment whose right side was meant to bind looser: `x *= 2 + 1` multiplies by
/// 3, where `x = x * 2 + 1` was meant; `s -= a + b` is not `s = s - a + b`. Proposed only when the
/// right side is a binary operation that binds no tighter than the assignment's operator (so
/// writing it out changes the value).
public struct AugmentedAssignmentTemplate: RepairTemplate {
    /// `augmented-assignment`.
    public let name = "augmented-assignment"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// The template with `prior`.
    public init(prior: Double = 0.5) { self.prior = prior }

    static let precedence: [String: Int] = [
        "|": 1, "^": 2, "&": 3, "<<": 4, ">>": 4, "+": 5, "-": 5, "*": 6, "/": 6, "//": 6, "%": 6, "@": 6, "**": 7,
    ]
    /// Operators for which `a op (b op c)` differs from `(a op b) op c`.
    static let leftOnly: Set<String> = ["-", "/", "//", "%", "<<", ">>", "**", "@"]

    /// `t op= a op2 b` written out as `t = t op a op2 b`, when that changes the value.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        guard let statement = file.statement(startingOn: line), statement.kind == .augAssign,
            let spelling = statement.text, spelling.hasSuffix("="), statement.children.count == 2
        else { return [] }
        let op = String(spelling.dropLast())
        let target = statement.children[0]
        let value = statement.children[1]
        guard value.kind == .binOp, let inner = value.text, let outer = Self.precedence[op],
            let binding = Self.precedence[inner],
            binding < outer || (binding == outer && Self.leftOnly.contains(op)),
            target.range.start.line == line, value.range.end.line == line
        else { return [] }
        let written = "\(file.text(of: target)) = \(file.text(of: target)) \(op) \(file.text(of: value))"
        return [file.replacing(target.range.start.offset, value.range.end.offset, with: written, line: line)]
    }
}
