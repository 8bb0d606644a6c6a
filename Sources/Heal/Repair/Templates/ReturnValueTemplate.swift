import PythonSyntax

/// Returns another local: `return x` → `return y`, and a bare `return` → `return y`.
public struct ReturnValueTemplate: RepairTemplate {
    /// `return-value`.
    public let name = "return-value"
    /// See ``RepairTemplates/standard``.
    public let prior: Double
    /// Most alternatives tried, in order of first appearance in the function.
    static let maximumAlternatives = 8

    /// A template with `prior`.
    public init(prior: Double = 0.5) { self.prior = prior }

    /// For a `return` that starts on `line`: its value replaced by each local of the function.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        guard let function = file.enclosingFunction(ofLine: line),
            let statement = file.nodes(onLine: line).last(where: { $0.kind == .return && $0.range.start.line == line })
        else { return [] }
        let (start, end) = (statement.range.start.offset, statement.range.end.offset)
        let current = statement.children.first.map { file.text(of: $0) }
        var out: [RepairEdit] = []
        for local in file.locals(of: function).filter({ $0 != current }).prefix(Self.maximumAlternatives) {
            let edit =
                statement.children.first.map {
                    SourceEdit(start: $0.range.start.offset, end: $0.range.end.offset, replacement: local)
                } ?? SourceEdit(start: end, end: end, replacement: " " + local)
            out.append(file.changing(start, end, by: [edit], line: line))
        }
        return out
    }
}
