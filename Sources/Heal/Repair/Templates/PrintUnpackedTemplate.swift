import PythonSyntax

/// Prints a sequence's items instead of the sequence: `print(a)` → `print(*a)` (`1 2 3`, not
/// `[1, 2, 3]`).
public struct PrintUnpackedTemplate: RepairTemplate {
    /// `print-unpacked`.
    public let name = "print-unpacked"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// A template with `prior`.
    public init(prior: Double = 0.3) { self.prior = prior }

    /// Each `print` call starting on `line` with one positional argument that is not a literal.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for call in file.nodes(onLine: line) where call.kind == .call && call.range.start.line == line {
            guard let callee = call.callee, callee.kind == .name, file.text(of: callee) == "print" else { continue }
            let positional = call.callArguments.filter { $0.kind != .keyword }
            guard positional.count == 1, let argument = positional.first,
                ![.string, .integer, .float, .starred, .doubleStarred].contains(argument.kind)
            else { continue }
            let text = file.text(of: argument)
            out.append(file.replacing(argument.range.start.offset, argument.range.end.offset, with: "*" + text, line: line))
        }
        return out
    }
}
