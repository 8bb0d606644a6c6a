import PythonSyntax

/// Deletes a statement that only writes output: `print(...)`, `pprint(...)`, `breakpoint()` left
/// in from debugging. Where a program is judged by what it prints, one line too many is a
/// failure however right the rest is.
public struct DeleteOutputTemplate: RepairTemplate {
    /// `delete-output`.
    public let name = "delete-output"
    /// See ``RepairTemplates/standard``.
    public let prior: Double
    /// Calls that only write output or stop for a debugger.
    static let outputCalls: Set<String> = ["print", "pprint", "breakpoint", "ic"]

    /// A template with `prior`.
    public init(prior: Double = 0.5) { self.prior = prior }

    /// The statement starting on `line`, when it is such a call alone on its lines, removed whole.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        guard let statement = file.statement(startingOn: line), statement.kind == .exprStmt,
            let call = statement.children.first, call.kind == .call, let callee = call.callee, callee.kind == .name,
            Self.outputCalls.contains(file.text(of: callee))
        else { return [] }
        let end = file.codeEnd(of: statement)
        // Only a statement that is all of its lines (no `; x = 1` after it, no `if a: print(a)`).
        let start = file.offset(ofLine: line)
        let after = file.offset(afterLineHolding: end.offset)
        let rest = file.text(end.offset, after).trimmingCharacters(in: .whitespacesAndNewlines)
        guard rest.isEmpty || rest.hasPrefix("#") else { return [] }
        return [
            RepairEdit(
                line: line, edits: [SourceEdit(start: start, end: after, replacement: "")],
                description: "line \(line): delete `\(file.snippet(file.text(of: statement)))`")
        ]
    }
}
