import Testing

@testable import Findings

@Suite struct ReportOperationsTests {
    static func finding(
        _ rule: String, tool: ToolName, line: Int, cwe: [Int], confidence: Confidence,
        severity: Severity = .high, file: String = "a.py"
    ) -> Finding {
        Finding(
            ruleId: rule, tool: tool, severity: severity, confidence: confidence, message: rule,
            location: Location(file: file, startLine: line, startColumn: 1), cwe: cwe)
    }

    @Test func mergesSameLineAndCWEAcrossTools() {
        let native = Self.finding("python.cmdi", tool: "native", line: 5, cwe: [78], confidence: .high)
        let bandit = Self.finding("bandit.B602", tool: "bandit", line: 5, cwe: [78], confidence: .medium)
        let semgrep = Self.finding("semgrep.x", tool: "semgrep", line: 5, cwe: [78, 88], confidence: .low)
        let merged = [bandit, native, semgrep].deduplicated()
        #expect(merged.count == 1)
        #expect(merged.first?.ruleId == "python.cmdi")
        #expect(merged.first?.facts.properties["alsoReportedBy"] == "bandit,semgrep")
        #expect(merged.first?.facts.properties["alsoReportedAs"] == "bandit.B602,semgrep.x")
    }

    /// Issue 55: `SECRET_KEY = "…"` was one hard-coded key (CWE-321) to the Python rule and one
    /// hard-coded credential (CWE-798, its parent) to the secrets scan: two findings for one line.
    @Test func aWeaknessAndItsParentAreOneFinding() {
        let key = Self.finding("python.hardcoded-secret-key", tool: "native", line: 46, cwe: [321], confidence: .high)
        let secret = Self.finding("secrets.generic-password", tool: "secrets", line: 46, cwe: [798], confidence: .medium)
        let merged = [secret, key].deduplicated()
        #expect(merged.map(\.ruleId) == ["python.hardcoded-secret-key"])
        #expect(merged.first?.facts.properties["alsoReportedAs"] == "secrets.generic-password")
        let unrelated = Self.finding("python.weak-hash", tool: "native", line: 46, cwe: [327], confidence: .high)
        #expect([secret, unrelated].deduplicated().count == 2)
    }

    @Test func higherConfidenceWinsBetweenAdapters() {
        let semgrep = Self.finding("semgrep.x", tool: "semgrep", line: 5, cwe: [78], confidence: .low)
        let bandit = Self.finding("bandit.B602", tool: "bandit", line: 5, cwe: [78], confidence: .high)
        let merged = [semgrep, bandit].deduplicated()
        #expect(merged.map(\.ruleId) == ["bandit.B602"])
        #expect(merged.first?.facts.properties["alsoReportedBy"] == "semgrep")
    }

    static var table: RuleEquivalence {
        var table = RuleEquivalence()
        table.add(
            nativeRule: "python.eval-used", banditIds: ["B307"],
            semgrepIds: ["python.lang.security.audit.eval-detected.eval-detected"])
        table.add(nativeRule: "python.try-except-pass", banditIds: ["B110"], semgrepIds: [])
        return table.declaring(ToolSyntaxes.all)
    }

    @Test func theNativeFindingWinsOverTheAdaptersCopyWhateverTheConfidence() {
        // What made results depend on the installed tools: Bandit's B307 (medium, high confidence)
        // used to replace python.eval-used (high, medium confidence).
        let native = Self.finding("python.eval-used", tool: "native", line: 5, cwe: [78, 95], confidence: .medium)
        var bandit = Self.finding("bandit.B307", tool: "bandit", line: 5, cwe: [78], confidence: .high, severity: .medium)
        bandit.facts.external.testId = "B307"
        let merged = [bandit, native].deduplicated(equivalence: Self.table)
        #expect(merged.count == 1)
        #expect(merged.first?.ruleId == "python.eval-used")
        #expect(merged.first?.severity == .high)
        #expect(merged.first?.fingerprint == native.fingerprint)
        #expect(merged.first?.facts.properties["alsoReportedBy"] == "bandit")
        #expect(merged.first?.facts.properties["alsoReportedAs"] == "bandit.B307")
    }

    @Test func banditMergesThroughTheTableAcrossTheStatementsLines() {
        // Bandit puts B110 on the except clause (lines 9-10); the native rule on the try (7-10).
        let native = Finding(
            ruleId: "python.try-except-pass", tool: "native", severity: .low, message: "m",
            location: Location(file: "a.py", startLine: 7, endLine: 10), cwe: [703])
        let bandit = Finding(
            ruleId: "bandit.B110", tool: "bandit", severity: .low, message: "m",
            location: Location(file: "a.py", startLine: 9, endLine: 10), cwe: [703])
        #expect([native, bandit].deduplicated(equivalence: Self.table).map(\.ruleId) == ["python.try-except-pass"])
        // A Bandit check mapped to another rule stays its own finding, even with a shared CWE.
        var table = Self.table
        table.add(nativeRule: "python.subprocess-without-shell", banditIds: ["B603"], semgrepIds: [])
        let other = Self.finding("bandit.B603", tool: "bandit", line: 7, cwe: [703], confidence: .high)
        #expect([native, other].deduplicated(equivalence: table).count == 2)
        // One no rule maps falls back to a CWE in common on the same start line; native still wins.
        #expect([other, native].deduplicated(equivalence: Self.table).map(\.ruleId) == ["python.try-except-pass"])
        // Without the table nothing maps, so nothing merges.
        #expect([native, bandit].deduplicated().count == 2)
    }

    @Test func semgrepMergesByMappedIdOrByCWEOnTheLine() {
        let native = Self.finding("python.eval-used", tool: "native", line: 5, cwe: [95], confidence: .medium)
        let byId = Self.finding("semgrep.eval-detected", tool: "semgrep", line: 5, cwe: [], confidence: .high)
        #expect([byId, native].deduplicated(equivalence: Self.table).map(\.ruleId) == ["python.eval-used"])
        let byCWE = Self.finding("semgrep.my-eval", tool: "semgrep", line: 5, cwe: [95], confidence: .high)
        let merged = [byCWE, native].deduplicated(equivalence: Self.table)
        #expect(merged.map(\.ruleId) == ["python.eval-used"])
        #expect(merged.first?.facts.properties["alsoReportedAs"] == "semgrep.my-eval")
        let elsewhere = Self.finding("semgrep.my-eval", tool: "semgrep", line: 6, cwe: [95], confidence: .high)
        #expect([elsewhere, native].deduplicated(equivalence: Self.table).count == 2)
    }

    @Test(arguments: [
        ("other line", 6, [78], "a.py", "bandit"),
        ("other CWE", 5, [89], "a.py", "bandit"),
        ("no CWE", 5, [], "a.py", "bandit"),
        ("other file", 5, [78], "b.py", "bandit"),
        ("same tool", 5, [78], "a.py", "native"),
    ])
    func keepsDistinctFindings(label: String, line: Int, cwe: [Int], file: String, tool: ToolName) {
        let native = Self.finding("python.cmdi", tool: "native", line: 5, cwe: [78], confidence: .high)
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
        #expect(findings.countsByTool() == ["native": 2, "bandit": 1, "dast": 1, "osv": 1])
    }

    @Test func finalizedAssignsOccurrencesDedupesAndSorts() {
        let a = Self.finding("r", tool: "native", line: 3, cwe: [1], confidence: .high)
        let b = Self.finding("r", tool: "native", line: 9, cwe: [1], confidence: .high)
        #expect(a.fingerprint == b.fingerprint, "same rule, file and (empty) code")
        let report = Report(findings: [b, a]).finalized()
        #expect(report.findings.map(\.location.startLine) == [3, 9])
        #expect(Set(report.findings.map(\.fingerprint)).count == 2)
        #expect(report.findings.first?.fingerprint == a.fingerprint)
    }

    @Test func toolNamesIncludeToolsWithoutFindings() {
        #expect(Fixtures.sampleReport().toolNames == ["bandit", "dast", "native", "osv", "semgrep"])
    }
}
