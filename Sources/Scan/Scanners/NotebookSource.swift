import Documents
import Findings
import Foundation

/// The Python of a Jupyter notebook (`.ipynb`): its code cells, one after another, as the kernel
/// runs them, with IPython's own lines (`%magic`, `!shell`) left blank, the statement a
/// `%time`-like line magic runs kept, and the body of a cell magic kept when IPython runs it
/// as Python (`%%time`, `%%capture`), blank when another language (`%%bash`, `%%html`). Each line
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
            let magic = sourceLines.first.flatMap { Self.cellMagic($0.text) }
            // A cell magic that runs its body as Python (`%%time`, `%%capture`) keeps the body; one
            // that hands it to another language (`%%bash`, `%%html`, `%%sql`) leaves it blank.
            let bodyIsPython = magic.map(Self.pythonCellMagics.contains) ?? true
            for (index, source) in sourceLines.enumerated() {
                let python: String
                if magic != nil && (index == 0 || !bodyIsPython) {
                    python = ""
                } else {
                    python = Self.python(ofLine: source.text)
                }
                lines.append(python)
                origins.append((cellNumber, index + 1, source.fileLine))
            }
            lines.append("")
            origins.append((cellNumber, sourceLines.count + 1, sourceLines.last?.fileLine ?? cell.line))
        }
        python = lines.joined(separator: "\n") + "\n"
        self.origins = origins
    }

    /// IPython's cell magics that run the cell's body as Python: timed, captured, profiled or
    /// debugged in the kernel, or in a Python subprocess (`%%python3`), or on an ipyparallel
    /// engine (`%%px`). Any other cell magic's body is another language's or data.
    static let pythonCellMagics: Set<String> = [
        "time", "timeit", "capture", "prun", "debug", "python", "python2", "python3", "pypy", "px", "memit",
    ]

    /// Line magics whose argument is a Python statement IPython runs (`%time x = f(y)`), with the
    /// options among theirs that take a value (`%timeit -n 10 f()`, `%prun -s cumulative f()`).
    static let statementLineMagics: [String: Set<String>] = [
        "time": [], "timeit": ["-n", "-r", "-p"], "prun": ["-D", "-T", "-l", "-s"], "debug": ["--breakpoint", "-b"],
        "memit": ["-r", "-i", "-c"], "px": ["--targets", "-t"],
    ]

    /// The name of the cell magic `line` (a cell's first line) opens, `%%time` → `time`; nil when
    /// the line opens none.
    static func cellMagic(_ line: String) -> String? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("%%") else { return nil }
        return String(trimmed.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    /// The Python of one line of a code cell: the line itself; blank for a shell escape (`!ls`)
    /// or a line magic; for a line magic that runs a statement (`%time x = f(y)`), that statement
    /// at the magic's indentation.
    static func python(ofLine line: String) -> String {
        let indentation = line.prefix { $0 == " " || $0 == "\t" }
        let rest = line[indentation.endIndex...]
        if rest.hasPrefix("!") { return "" }
        guard rest.hasPrefix("%") else { return line }
        let name = rest.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard !rest.hasPrefix("%%"), let valued = statementLineMagics[String(name)] else { return "" }
        var statement = rest.dropFirst(1 + name.count)
        // Options come first (`-n 10 -r 3`); the statement is what follows them.
        while true {
            statement = statement.drop { $0 == " " || $0 == "\t" }
            guard statement.hasPrefix("-") else { break }
            let option = statement.prefix { $0 != " " && $0 != "\t" }
            statement = statement.dropFirst(option.count)
            if valued.contains(String(option)) {
                statement = statement.drop { $0 == " " || $0 == "\t" }
                statement = statement.drop { $0 != " " && $0 != "\t" }
            }
        }
        return statement.isEmpty ? "" : String(indentation) + statement
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
