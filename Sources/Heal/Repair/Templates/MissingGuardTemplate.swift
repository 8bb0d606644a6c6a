import PythonSyntax

/// Inserts an early return for an empty or None parameter before the line that uses it:
/// `if not xs:` / `return 0` (also None, `[]` and `""`).
public struct MissingGuardTemplate: RepairTemplate {
    /// `missing-guard`.
    public let name = "missing-guard"
    /// See ``RepairTemplates/standard``.
    public let prior: Double
    /// What the guard returns.
    static let values = ["None", "0", "[]", "\"\""]
    /// Most parameters guarded per line.
    static let maximumParameters = 3

    /// A template with `prior`.
    public init(prior: Double = 0.4) { self.prior = prior }

    /// For each parameter the statement starting on `line` reads: a guard before it per value.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        guard let function = file.enclosingFunction(ofLine: line), let statement = file.statement(startingOn: line),
            function.children[4].range.start.line > function.children[2].range.end.line,
            file.tokens[file.tokenIndex(atOrAfter: statement.range.start.offset)].text != "elif"
        else { return [] }
        let parameters = file.parameters(of: function)
        var used: [String] = []
        for node in file.nodes(onLine: line) where node.kind == .name && node.range.start.line == line {
            if let name = node.text, parameters.contains(name), !used.contains(name) { used.append(name) }
        }
        let indentation = file.indentation(ofLine: line)
        let step = indentationStep(of: function, in: file)
        let at = file.offset(ofLine: line)
        let newline = file.lineBreak
        var out: [RepairEdit] = []
        for parameter in used.prefix(Self.maximumParameters) {
            for value in Self.values {
                let guardText = "\(indentation)if not \(parameter):\(newline)\(indentation)\(step)return \(value)\(newline)"
                let edit = SourceEdit(start: at, end: at, replacement: guardText)
                out.append(
                    RepairEdit(
                        line: line, edits: [edit], description: "line \(line): guard `if not \(parameter): return \(value)`"))
            }
        }
        return out
    }

    /// One level of indentation as the function writes it: its body's indentation past its own.
    func indentationStep(of function: PyNode, in file: RepairFile) -> String {
        let outer = file.indentation(ofLine: function.range.start.line)
        let inner = file.indentation(ofLine: function.children[4].range.start.line)
        return inner.hasPrefix(outer) && inner.count > outer.count ? String(inner.dropFirst(outer.count)) : "    "
    }
}
