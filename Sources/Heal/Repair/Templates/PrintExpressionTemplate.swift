import PythonSyntax

/// Prints a value computed and thrown away: a statement that is a bare expression (not a call,
/// whose effect may be the point) becomes `print(expression)`.
public struct PrintExpressionTemplate: RepairTemplate {
    /// `print-expression`.
    public let name = "print-expression"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// A template with `prior`.
    public init(prior: Double = 0.4) { self.prior = prior }

    /// The bare expression statement starting on `line`, wrapped in `print(...)`.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        guard let statement = file.statement(startingOn: line), statement.kind == .exprStmt,
            let expression = statement.children.first,
            ![.call, .string, .await, .yield, .yieldFrom, .ellipsis, .name].contains(expression.kind)
        else { return [] }
        let text = file.text(of: expression)
        return [
            file.replacing(expression.range.start.offset, expression.range.end.offset, with: "print(\(text))", line: line)
        ]
    }
}
