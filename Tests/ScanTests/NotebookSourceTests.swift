import Testing

@testable import Scan

/// Issue 76, H10: IPython runs the body of `%%time` and `%%capture` cells, and the statement of a
/// `%time` line, as Python; the notebook's Python keeps them (it used to blank them whole).
struct NotebookSourceTests {
    /// The notebook's Python for code cells of `cells` (each a list of source lines).
    private func python(_ cells: [[String]]) throws -> String {
        let encoded = cells.map { lines in
            let source = lines.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\\\"") + "\\n\"" }.joined(separator: ", ")
            return #"{"cell_type": "code", "metadata": {}, "outputs": [], "source": [\#(source)]}"#
        }
        let json = #"{"cells": [\#(encoded.joined(separator: ", "))], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"#
        return try NotebookSource(Array(json.utf8), file: "a.ipynb").python
    }

    @Test(arguments: ["%%capture", "%%time", "%%timeit -n 3", "  %%capture out", "%%python3", "%%prun -s cumulative"])
    func aCellMagicThatRunsPythonKeepsItsBody(magic: String) throws {
        #expect(try python([[magic, "import os", "os.system(cmd)"]]) == "\nimport os\nos.system(cmd)\n\n")
    }

    @Test(arguments: ["%%bash", "%%html", "%%javascript", "%%sql", "%%writefile x.py", "%%script bash", "%%latex"])
    func aCellMagicOfAnotherLanguageIsBlank(magic: String) throws {
        #expect(try python([[magic, "os.system(cmd)"]]) == "\n\n\n")
    }

    @Test(arguments: [
        ("%time x = f(y)", "x = f(y)"), ("%timeit -n 10 -r 3 f(y)", "f(y)"), ("%timeit -o f(y)", "f(y)"),
        ("%prun -s cumulative -q f(y)", "f(y)"), ("    %time os.system(y)", "    os.system(y)"),
        ("%matplotlib inline", ""), ("!pip install x", ""), ("%time", ""), ("%%time", ""),
    ])
    func aLineMagicKeepsTheStatementItRuns(line: String, kept: String) throws {
        #expect(NotebookSource.python(ofLine: line) == kept)
    }

    @Test func aStatementMagicInsideABlockKeepsTheBlocksIndentation() throws {
        let text = try python([["for y in ys:", "    print(y)", "    %time os.system(y)"]])
        #expect(text == "for y in ys:\n    print(y)\n    os.system(y)\n\n")
    }
}
