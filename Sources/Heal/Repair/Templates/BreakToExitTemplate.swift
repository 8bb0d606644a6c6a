import PythonSyntax

/// A `break` that was meant to end the script: in top-level code a `break` leaves only the loop,
/// and the code after it still runs (`print("Hard"); break` in a loop, then `print("Easy")`
/// after it prints both). Proposes `exit()` for a `break` outside any function.
public struct BreakToExitTemplate: RepairTemplate {
    /// `break-to-exit`.
    public let name = "break-to-exit"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// The template with `prior`.
    public init(prior: Double = 0.3) { self.prior = prior }

    /// `break` → `exit()` at the top level.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        guard file.enclosingFunction(ofLine: line) == nil, let statement = file.statement(startingOn: line),
            statement.kind == .break
        else { return [] }
        return [file.replacing(statement.range.start.offset, statement.range.end.offset, with: "exit()", line: line)]
    }
}
