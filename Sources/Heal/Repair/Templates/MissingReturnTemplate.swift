import PythonSyntax

/// Adds `return <local>` at the end of a function that falls off its end (and so returns None),
/// for a suspicious line anywhere in its body.
public struct MissingReturnTemplate: RepairTemplate {
    /// `missing-return`.
    public let name = "missing-return"
    /// See ``RepairTemplates/standard``.
    public let prior: Double
    /// Most locals tried, in order of first appearance in the function.
    static let maximumAlternatives = 6

    /// A template with `prior`.
    public init(prior: Double = 0.5) { self.prior = prior }

    /// `return v` after the last statement of the function around `line`, for each local `v`.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        guard let function = file.enclosingFunction(ofLine: line), function.text != "__init__",
            let last = function.children[4].children.last, let first = function.children[4].children.first,
            ![.return, .raise].contains(last.kind),
            // A body on the `def` line has no indentation of its own to copy.
            first.range.start.line > function.children[2].range.end.line,
            !file.isGenerator(function)
        else { return [] }
        let indentation = file.indentation(ofLine: first.range.start.line)
        let end = file.codeEnd(of: last)
        let insertAt = file.offset(afterLineHolding: end.offset)
        let newline = file.lineBreak
        let separator = insertAt > 0 && file.bytes[insertAt - 1] != 10 ? newline : ""
        let added = end.line + 1
        return file.locals(of: function).prefix(Self.maximumAlternatives).map { local in
            let edit = SourceEdit(start: insertAt, end: insertAt, replacement: "\(separator)\(indentation)return \(local)\(newline)")
            return RepairEdit(line: added, edits: [edit], description: "line \(added): add `return \(local)`")
        }
    }
}
