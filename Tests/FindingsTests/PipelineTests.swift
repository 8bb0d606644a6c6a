import Foundation
import SourcePositions
import Testing

@testable import Findings
import TestSupport

@Suite struct PipelineTests {
    static let lines = LineIndex(source.joined(separator: "\n"))
    static let source: [Substring] = [
        "import os",
        "os.system(cmd)  # sentinel: ignore[python.cmdi] cmd is built from constants",
        "eval(data)",
        "exec(code)  # sentinel: ignore[python.exec]",
    ]

    static func finding(_ rule: String, line: Int, severity: Severity = .high, tool: ToolName = "native", cwe: [Int] = []) -> Finding {
        Finding(
            ruleId: rule, tool: tool, severity: severity, message: rule,
            location: Location(file: "app.py", startLine: line, startColumn: 1),
            cwe: cwe, snippet: String(source[line - 1]))
    }

    static var scanned: Report {
        Report(
            findings: [
                finding("python.cmdi", line: 2),
                finding("python.eval", line: 3, cwe: [95]),
                finding("bandit.B307", line: 3, severity: .medium, tool: "bandit", cwe: [95]),
                finding("python.exec", line: 4),
            ], filesScanned: 1)
    }

    @Test func suppressesDedupesAndGates() {
        let (report, status) = FindingsPipeline().process(Self.scanned, sources: { $0 == "app.py" ? Self.lines : nil })
        #expect(report.findings.map(\.ruleId) == ["python.eval", Suppressions.missingReasonRuleId])
        #expect(report.findings.first?.facts.properties["alsoReportedBy"] == "bandit")
        #expect(report.suppressedCount == 2)
        #expect(report.rules.contains { $0.id == Suppressions.missingReasonRuleId })
        #expect(status == .findings)
    }

    @Test func severityOverridesApplyBeforeTheGate() {
        let pipeline = FindingsPipeline(severityOverrides: ["python.eval": .low, "bandit.B307": .low])
        let (report, status) = pipeline.process(Self.scanned, sources: { _ in Self.lines })
        #expect(report.findings.first { $0.ruleId == "python.eval" }?.severity == .low)
        #expect(status == .clean)
    }

    @Test func baselineRoundTripReportsOnlyNew() throws {
        let directory = try TemporaryDirectory.make("findings")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/baseline.json"
        let first = FindingsPipeline().process(Self.scanned, sources: { _ in Self.lines })
        try Baseline.write(first.report.findings, to: path)

        // Two lines inserted above everything; one new finding at the end.
        let shifted: [Substring] = ["# header", "import sys"] + Self.source + ["pickle.loads(blob)"]
        var next = Self.scanned
        next.findings = next.findings.map { finding in
            var copy = finding
            copy.location.startLine = (finding.location.startLine ?? 0) + 2
            copy.location.endLine = copy.location.startLine
            return copy
        }
        next.findings.append(
            Finding(
                ruleId: "python.pickle", severity: .high, message: "pickle",
                location: Location(file: "app.py", startLine: 7), snippet: "pickle.loads(blob)"))
        let pipeline = FindingsPipeline(baseline: try Baseline.load(path))
        let (report, status) = pipeline.process(next, sources: { _ in LineIndex(shifted.joined(separator: "\n")) })
        #expect(report.findings.map(\.ruleId) == ["python.pickle"])
        #expect(report.baselinedCount == 2)
        #expect(status == .findings)
    }

    @Test func sinceFilterKeepsChangedLinesOnly() {
        let diff = "+++ b/app.py\n@@ -3,0 +3 @@\n+eval(data)\n"
        let pipeline = FindingsPipeline(gate: Gate(failOn: .critical), changedLines: ChangedLines(unifiedDiff: diff))
        let (report, status) = pipeline.process(Self.scanned, sources: { _ in Self.lines })
        #expect(report.findings.map(\.ruleId) == ["python.eval"])
        #expect(status == .clean)
    }

    @Test func failedToolGivesThree() {
        var scanned = Self.scanned
        scanned.tools = [ToolRun(name: "bandit", status: .failed, message: "timeout after 300 s")]
        #expect(FindingsPipeline().process(scanned, sources: { _ in nil }).exitStatus == .scannerFailed)
    }
}
