import Findings
import PythonSyntax

/// What `fix-imports` needs to know about a file: which modules its top level imports, and where a
/// new `import` line goes.
struct ModuleImports: Sendable {
    /// Module-level `import` statements: each name they bind as a module (`import os.path` binds
    /// `os` and `os.path`; `import shlex as sh` binds neither) and where the statement starts.
    private let bound: [(module: String, offset: Int)]
    /// Where an `import` line is inserted: the start of the line after the module docstring,
    /// `from __future__` imports and the leading import block (else before the first statement).
    let insertion: SourceLocation?
    /// The line break new lines use: the one ending the line before the insertion, else the file's
    /// first, else LF.
    let newline: String

    init(root: SyntaxNode, source: SourceText) {
        var bound: [(String, Int)] = []
        for statement in root.children where statement.kind == .import {
            for alias in statement.children {
                guard let dotted = alias.text else { continue }
                if let asName = alias.children.first?.text {
                    if asName == dotted { bound.append((dotted, statement.range.start.offset)) }
                    continue
                }
                var prefix = ""
                for part in dotted.split(separator: ".") {
                    prefix += prefix.isEmpty ? String(part) : "." + part
                    bound.append((prefix, statement.range.start.offset))
                }
            }
        }
        self.bound = bound

        var last: SyntaxNode?
        for (index, statement) in root.children.enumerated() {
            let isDocstring = index == 0 && statement.kind == .exprStmt && statement.children.first?.kind == .string
            guard isDocstring || statement.kind == .import || statement.kind == .importFrom else { break }
            last = statement
        }
        let index = source.index
        if let last {
            let line = last.range.end.line
            // A block ending on the file's last line leaves no line to insert before.
            insertion =
                line < index.lineCount ? SourceLocation(line: line + 1, column: 1, offset: index.lineStarts[line]) : nil
            newline = source.lineBreak(endingLine: line) ?? source.firstLineBreak
        } else if let first = root.children.first {
            insertion = first.range.start
            newline = source.firstLineBreak
        } else {
            insertion = nil
            newline = "\n"
        }
    }

    /// Whether a module-level `import` before byte `offset` binds `module`.
    func binds(_ module: String, before offset: Int) -> Bool {
        bound.contains { $0.module == module && $0.offset < offset }
    }
}
