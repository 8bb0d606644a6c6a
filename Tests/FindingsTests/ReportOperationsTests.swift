import Testing

@testable import Findings

@Suite struct ReportOperationsTests {
    static func finding(
        _ rule: String, tool: String, line: Int, cwe: [Int], confidence: Confidence,
        severity: Severity = .high, file: String = "a.py"
    ) -> Finding {
        Finding(
            ruleId: rule, tool: tool, severity: severity, confidence: confidence, message: rule,
            location: Location(file: file, startLine: line, startColumn: 1), cwe: cwe)
    }

    @Test func mergesSameLineAndCWEAcrossTools() {
        let native = Self.finding("python.cmdi", tool: "sentinel", line: 5, cwe: [78], confidence: .high)
        let bandit = Self.finding("bandit.B602", tool: "bandit", line: 5, cwe: [78], confidence: .medium)
        let semgrep = Self.finding("semgrep.x", tool: "semgrep", line: 5, cwe: [78, 88], confidence: .low)
        let merged = [bandit, native, semgrep].deduplicated()
        #expect(merged.count == 1)
        #expect(merged.first?.ruleId == "python.cmdi")
        #expect(merged.first?.properties["alsoReportedBy"] == "bandit,semgrep")
        #expect(merged.first?.properties["alsoReportedAs"] == "bandit.B602,semgrep.x")
    }

    @Test func higherConfidenceWinsEvenIfNotNative() {
        let native = Self.finding("python.cmdi", tool: "sentinel", line: 5, cwe: [78], confidence: .low)
        let bandit = Self.finding("bandit.B602", tool: "bandit", line: 5, cwe: [78], confidence: .high)
        let merged = [native, bandit].deduplicated()
        #expect(merged.map(\.ruleId) == ["bandit.B602"])
        #expect(merged.first?.properties["alsoReportedBy"] == "sentinel")
    }

    @Test(arguments: [
        ("other line", 6, [78], "a.py", "bandit"),
        ("other CWE", 5, [89], "a.py", "bandit"),
        ("no CWE", 5, [], "a.py", "bandit"),
        ("other file", 5, [78], "b.py", "bandit"),
        ("same tool", 5, [78], "a.py", "sentinel"),
    ])
    func keepsDistinctFindings(label: String, line: Int, cwe: [Int], file: String, tool: String) {
        let native = Self.finding("python.cmdi", tool: "sentinel", line: 5, cwe: [78], confidence: .high)
        let other = Self.finding("x.rule", tool: tool, line: line, cwe: cwe, confidence: .high, file: file)
        #expect([native, other].deduplicated().count == 2, "\(label)")
    }

    @Test func sortsDeterministically() {
        let findings = Fixtures.sampleReport().findings
        let sorted = findings.sortedForReport()
        #expect(findings.reversed().sortedForReport() == sorted)
        #expect(
            sorted.map(\.location.artifact) == [
                "app/crypto.py", "app/db.py", "app/run.py", "requirements.txt",
                "http://127.0.0.1:8080/search?q=%3Cscript%3E",
            ])
        let sameFile = [
            Self.finding("b", tool: "t", line: 9, cwe: [], confidence: .low),
            Self.finding("a", tool: "t", line: 9, cwe: [], confidence: .low),
            Self.finding("z", tool: "t", line: 2, cwe: [], confidence: .low),
        ]
        #expect(sameFile.sortedForReport().map(\.ruleId) == ["z", "a", "b"])
    }

    @Test func counts() {
        let findings = Fixtures.sampleReport().findings
        let bySeverity = findings.countsBySeverity()
        #expect(bySeverity == [.critical: 1, .high: 2, .medium: 1, .low: 1, .info: 0, .unknown: 0])
        #expect(findings.countsByTool() == ["sentinel": 2, "bandit": 1, "dast": 1, "osv": 1])
    }

    @Test func finalizedAssignsOccurrencesDedupesAndSorts() {
        let a = Self.finding("r", tool: "sentinel", line: 3, cwe: [1], confidence: .high)
        let b = Self.finding("r", tool: "sentinel", line: 9, cwe: [1], confidence: .high)
        #expect(a.fingerprint == b.fingerprint, "same rule, file and (empty) code")
        let report = Report(findings: [b, a]).finalized()
        #expect(report.findings.map(\.location.startLine) == [3, 9])
        #expect(Set(report.findings.map(\.fingerprint)).count == 2)
        #expect(report.findings.first?.fingerprint == a.fingerprint)
    }

    @Test func toolNamesIncludeToolsWithoutFindings() {
        #expect(Fixtures.sampleReport().toolNames == ["bandit", "dast", "osv", "semgrep", "sentinel"])
    }
}
