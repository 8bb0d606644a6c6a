import Foundation
import TestSupport
import Testing

@testable import Findings

/// `--min-confidence`: the pipeline step that hides (and counts) findings below it, and how each
/// format says how many it hid.
@Suite struct MinConfidenceTests {
    static func finding(_ rule: String, line: Int, severity: Severity = .high, confidence: Confidence, tool: ToolName = "native")
        -> Finding
    {
        Finding(
            ruleId: rule, tool: tool, severity: severity, confidence: confidence, message: rule,
            location: Location(file: "app.py", startLine: line, startColumn: 1), snippet: "line \(line)")
    }

    static let scanned = Report(findings: [
        finding("audit.sql", line: 1, severity: .critical, confidence: .low),
        finding("bandit.B608", line: 2, severity: .medium, confidence: .low, tool: "bandit"),
        finding("python.cmdi", line: 3, severity: .medium, confidence: .medium),
        finding("python.yaml-load", line: 4, severity: .high, confidence: .high),
    ])

    @Test(arguments: [
        (Confidence?.none, ["audit.sql", "bandit.B608", "python.cmdi", "python.yaml-load"], 0),
        (.low, ["audit.sql", "bandit.B608", "python.cmdi", "python.yaml-load"], 0),
        (.medium, ["python.cmdi", "python.yaml-load"], 2),
        (.high, ["python.yaml-load"], 3),
    ])
    func hidesAndCountsBelowTheMinimum(minimum: Confidence?, shown: [String], hidden: Int) {
        let (report, _) = FindingsPipeline(minimumConfidence: minimum).process(Self.scanned, sources: { _ in nil })
        #expect(report.findings.map(\.ruleId) == shown)
        #expect(report.belowConfidenceCount == hidden)
        #expect(report.minimumConfidence == minimum)
    }

    @Test func theGateJudgesOnlyWhatIsShown() {
        // The only critical finding is low-confidence: shown, it fails the scan; hidden, it does not.
        let gate = Gate(failOn: .critical)
        #expect(FindingsPipeline(gate: gate).process(Self.scanned, sources: { _ in nil }).exitStatus == .findings)
        let filtered = FindingsPipeline(gate: gate, minimumConfidence: .medium)
        #expect(filtered.process(Self.scanned, sources: { _ in nil }).exitStatus == .clean)
    }

    @Test func countsOnlyWhatTheSeverityFilterLeft() {
        // `--severity high` already hides the medium low-confidence finding; the confidence count
        // is then what `--min-confidence low` would add to this report: the critical one.
        let pipeline = FindingsPipeline(minimumSeverity: .high, minimumConfidence: .medium)
        let (report, _) = pipeline.process(Self.scanned, sources: { _ in nil })
        #expect(report.findings.map(\.ruleId) == ["python.yaml-load"])
        #expect(report.belowSeverityCount == 2)
        #expect(report.belowConfidenceCount == 1)
    }

    static func filtered(_ minimum: Confidence) -> Report {
        var report = FindingsPipeline(minimumConfidence: minimum).process(Self.scanned, sources: { _ in nil }).report
        report.filesScanned = 3
        report.durationSeconds = 0.25
        return report
    }

    @Test func summarySentence() {
        #expect(Self.filtered(.medium).belowConfidenceSummary == "2 low-confidence findings not shown (--min-confidence low shows them)")
        #expect(
            Self.filtered(.high).belowConfidenceSummary
                == "3 low- or medium-confidence findings not shown (--min-confidence low shows them)")
        var one = Report()
        one.belowConfidenceCount = 1
        one.minimumConfidence = .medium
        #expect(one.belowConfidenceSummary == "1 low-confidence finding not shown (--min-confidence low shows them)")
        #expect(Self.filtered(.low).belowConfidenceSummary == nil)
    }

    @Test func textSummaryLine() {
        #expect(
            TextRenderer().summary(Self.filtered(.medium))
                == "2 findings: 1 high, 1 medium (3 files scanned in 0.25 s); "
                + "2 low-confidence findings not shown (--min-confidence low shows them)")
        #expect(TextRenderer().summary(Self.filtered(.low)) == "4 findings: 1 critical, 1 high, 2 medium (3 files scanned in 0.25 s)")
    }

    @Test func jsonSummaryCountsAndNamesTheMinimum() throws {
        let text = JSONRenderer().render(Self.filtered(.medium))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["belowMinConfidence"] as? Int == 2)
        #expect(summary["minConfidence"] as? String == "medium")
        #expect(summary["total"] as? Int == 2)
        let unfiltered = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONRenderer().render(Report()).utf8)) as? [String: Any])
        #expect((unfiltered["summary"] as? [String: Any])?["belowMinConfidence"] as? Int == 0)
        #expect((unfiltered["summary"] as? [String: Any])?["minConfidence"] == nil)
    }

    @Test func sarifNotesTheCountOnTheNativeRun() throws {
        var report = Self.filtered(.medium)
        report.tools = [ToolRun(name: "native"), ToolRun(name: "bandit")]
        let sarif = SARIFRenderer().render(report)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        func invocation(_ tool: String) -> [String: Any]? {
            (SARIFEngines.view(log, tool: tool)?["invocations"] as? [[String: Any]])?.first
        }
        let native = try #require(invocation("native"))
        let properties = try #require(native["properties"] as? [String: Any])
        #expect(properties["belowMinConfidence"] as? Int == 2)
        #expect(properties["minConfidence"] as? String == "medium")
        #expect(properties["status"] as? String == "succeeded")
        let notes = try #require(native["toolExecutionNotifications"] as? [[String: Any]])
        #expect(
            notes.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
                == ["2 low-confidence findings not shown (--min-confidence low shows them)"])
        #expect(notes.first?["level"] as? String == "note")
        let bandit = try #require(invocation("bandit"))
        #expect((bandit["properties"] as? [String: Any])?["belowMinConfidence"] == nil)
        #expect(bandit["toolExecutionNotifications"] == nil)
    }

    @Test func htmlHeaderLine() {
        let html = HTMLRenderer().render(Self.filtered(.medium))
        #expect(html.contains(" · 2 low-confidence findings not shown (--min-confidence low shows them)</p>"))
        #expect(!HTMLRenderer().render(Self.filtered(.low)).contains("not shown"))
    }
}
