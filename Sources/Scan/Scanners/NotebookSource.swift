import Documents
import Findings
import Foundation

/// The Python of a Jupyter notebook (`.ipynb`): its code cells, one after another, as the kernel
/// runs them, with IPython's own lines (`%magic`, `!shell`, `%%cell` magics) left blank. Each line
/// keeps where it came from, so a finding points at the notebook's own line (the line of the
/// `.ipynb` file holding that source line) and says which cell and which line of it.
struct NotebookSource: Sendable {
    /// The cells' code, one Python module.
    let python: String
    /// For each line of `python` (index 0: line 1), its cell (1-based, counting code cells), its
    /// line in the cell (1-based) and the `.ipynb` file's line.
    let origins: [(cell: Int, line: Int, fileLine: Int)]

    /// Reads `bytes` (the notebook's JSON); throws `SentinelError(.invalidInput)` when it is not
    /// one (`file` names it).
    init(_ bytes: [UInt8], file: String) throws {
        let root = try JSON.parse(bytes, file: file)
        var lines: [String] = []
        var origins: [(cell: Int, line: Int, fileLine: Int)] = []
        var cellNumber = 0
        for cell in root["cells"]?.elements ?? [] where cell["cell_type"]?.string == "code" {
            cellNumber += 1
            // `source` is a list of lines (each ending in "\n") or one string.
            var sourceLines: [(text: String, fileLine: Int)] = []
            if let source = cell["source"] {
                if let whole = source.string {
                    sourceLines = whole.split(separator: "\n", omittingEmptySubsequences: false).map { (String($0), source.line) }
                } else {
                    for element in source.elements {
                        for part in (element.string ?? "").split(separator: "\n", omittingEmptySubsequences: true) {
                            sourceLines.append((String(part), element.line))
                        }
                    }
                }
            }
            let cellMagic = sourceLines.first.map { $0.text.trimmingCharacters(in: .whitespaces).hasPrefix("%%") } ?? false
            for (index, source) in sourceLines.enumerated() {
                let trimmed = source.text.trimmingCharacters(in: .whitespaces)
                let ipython = cellMagic || trimmed.hasPrefix("%") || trimmed.hasPrefix("!")
                lines.append(ipython ? "" : source.text)
                origins.append((cellNumber, index + 1, source.fileLine))
            }
            lines.append("")
            origins.append((cellNumber, sourceLines.count + 1, sourceLines.last?.fileLine ?? cell.line))
        }
        python = lines.joined(separator: "\n") + "\n"
        self.origins = origins
    }

    /// `finding` (found in `python`) pointed at the notebook: its lines and its flow's lines are
    /// the `.ipynb` file's (no columns), and its message names the cell and the line in it.
    func mapped(_ finding: Finding) -> Finding {
        var finding = finding
        if let line = finding.location.startLine, let origin = origin(of: line) {
            finding.message += " (cell \(origin.cell), line \(origin.line))"
        }
        finding.location = mapped(finding.location)
        finding.codeFlow = finding.codeFlow.map { step in
            var step = step
            step.location = mapped(step.location)
            return step
        }
        return finding
    }

    private func origin(of line: Int) -> (cell: Int, line: Int, fileLine: Int)? {
        line >= 1 && line <= origins.count ? origins[line - 1] : nil
    }

    /// Lines become the file's; columns are dropped (the file's are the JSON string's, escapes included).
    private func mapped(_ location: Location) -> Location {
        var location = location
        location.startColumn = nil
        location.endColumn = nil
        location.startLine = location.startLine.flatMap { origin(of: $0)?.fileLine } ?? location.startLine
        location.endLine = location.endLine.flatMap { origin(of: $0)?.fileLine } ?? location.endLine
        return location
    }
}
