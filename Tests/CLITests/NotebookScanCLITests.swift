import Foundation
import Testing

/// Hostile inputs round 3, finding 19: Python in notebooks got only the secrets scan. A
/// notebook's code cells are analysed as Python (IPython's `%` and `!` lines set aside), and a
/// finding points at the notebook's own line and names the cell and its line.
struct NotebookScanCLITests {
    @Test("a notebook's code cells are analysed; markdown cells are not; findings name the cell")
    func notebookCells() throws {
        let notebook = #"""
            {"cells": [
              {"cell_type": "markdown", "metadata": {}, "source": ["os.system(x)\n"]},
              {"cell_type": "code", "metadata": {}, "outputs": [], "source": [
                "%matplotlib inline\n",
                "import os\n",
                "!pip install requests\n",
                "os.system(input())"
              ]}
            ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
            """#
        let root = try CLI.tree(["analysis.ipynb": Array(notebook.utf8)], prefix: "notebook")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(
            ["scan", root, "--allow-missing-db", "--min-confidence", "low", "--format", "json", "--fail-on", "none"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = report["findings"] as? [[String: Any]] ?? []
        let located = findings.map { finding -> String in
            let location = finding["location"] as? [String: Any] ?? [:]
            return "\(location["file"] ?? "") \(location["startLine"] ?? "") \(finding["message"] ?? "")"
        }
        #expect(
            !located.isEmpty && located.allSatisfy { $0.hasPrefix("analysis.ipynb 7 ") && $0.hasSuffix("(cell 1, line 4)") }, "\(located)")
    }
}
