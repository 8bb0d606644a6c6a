import Findings
import Foundation
import ScanCore
import Support
import Testing

@testable import Adapters

@Suite struct AdapterSemgrepReportTests {
    let root = AdapterFixtures.tree
    /// The rule directory the recorded report was made with (its ids start `opt.rules.`).
    let config = ["/opt/rules"]

    func report(readSources: Bool = true) throws -> ScannerOutput {
        try SemgrepReport.parse(
            data: AdapterFixtures.data("semgrep/report.json"), root: root, configPaths: config,
            readSources: readSources)
    }

    @Test func everyResultBecomesAFindingWithItsRuleIdUnprefixed() throws {
        let output = try report()
        #expect(
            output.findings.map(\.ruleId) == [
                "semgrep.pickle-import", "semgrep.subprocess-shell-true", "semgrep.pickle-loads",
                "semgrep.subprocess-shell-true", "semgrep.subprocess-shell-true", "semgrep.python.flask.debug-enabled",
            ])
        #expect(output.findings.allSatisfy { $0.tool == "semgrep" && $0.location.file == "app/views.py" })
        #expect(output.tool.version == "1.182.0")
        #expect(output.findings[1].facts.properties["checkId"] == "opt.rules.subprocess-shell-true")
    }

    @Test func findingCarriesSeverityCweConfidenceAndFix() throws {
        let finding = try report().findings[1]
        #expect(finding.severity == .high)
        #expect(finding.confidence == .high)
        #expect(finding.cwe == [78])
        #expect(finding.message == "subprocess called with shell=True; a user value reaching it runs as a shell command.")
        #expect(finding.location == Location(file: "app/views.py", startLine: 6, startColumn: 5, endLine: 6, endColumn: 37))
        #expect(finding.references == ["https://docs.python.org/3/library/subprocess.html#security-considerations"])
        #expect(finding.facts.properties["category"] == "security")
        let fix = try #require(finding.fix)
        #expect(
            fix.replacements == [
                Fix.Replacement(startLine: 6, startColumn: 5, endLine: 6, endColumn: 37, text: "subprocess.call($X)")
            ])
        #expect(fix.description == "Replace the match with `subprocess.call($X)`")
    }

    /// A long or multi-line replacement is summarised on one line with its brackets closed
    /// (the patch keeps it whole).
    @Test func aLongFixIsSummarisedWithItsBracketsClosed() throws {
        let text =
            "requests.post(\n    url,\n    data=payload,\n    timeout=30,\n    verify=True,\n    headers={'X-Long-Header-Name': 'a value that goes on and on'},\n)"
        let report = """
            {"version": "1.182.0", "results": [{"check_id": "r", "path": "app/views.py",
              "start": {"line": 6, "col": 5, "offset": 0}, "end": {"line": 6, "col": 37, "offset": 0},
              "extra": {"message": "m", "severity": "ERROR", "lines": "x", "fix": \(String(decoding: try JSONEncoder().encode(text), as: UTF8.self))}}],
             "errors": []}
            """
        let finding = try #require(try SemgrepReport.parse(data: Data(report.utf8), root: root, readSources: false).findings.first)
        let fix = try #require(finding.fix)
        #expect(fix.replacements.first?.text == text)
        #expect(fix.description == "Replace the match with `requests.post(url, data=payload, timeout=30, verify=True, headers={…})`")
    }

    @Test func withheldLinesAreReadFromDisk() throws {
        // Semgrep OSS prints "requires login" instead of the matched lines.
        let findings = try report().findings
        #expect(findings[2].snippet == "    return pickle.loads(blob)")
        #expect(
            findings[4].snippet == """
                    label = "héllo"; subprocess.call(
                        "echo " + name,
                        shell=True,
                    )
                """)
        #expect(try report(readSources: false).findings[2].snippet == nil)
    }

    /// A tool's report names the file: `e/shadow` with `e -> HOST` looks inside the tree by its
    /// text and is not, so no snippet is read from it (issue 26).
    @Test func aWithheldSnippetIsNeverReadThroughALinkOutOfTheTree() throws {
        let base = NSTemporaryDirectory() + "semgrep-link-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/tree", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/host", withIntermediateDirectories: true)
        try Data("root:HOST-MARKER:19000\n".utf8).write(to: URL(fileURLWithPath: base + "/host/shadow"))
        try FileManager.default.createSymbolicLink(atPath: base + "/tree/e", withDestinationPath: base + "/host")
        let report = """
            {"version": "1.0.0", "errors": [], "results": [{"check_id": "x.rule", "path": "e/shadow",
            "start": {"line": 1, "col": 1}, "end": {"line": 1, "col": 5},
            "extra": {"message": "m", "severity": "ERROR", "lines": "requires login", "metadata": {}}}]}
            """
        let output = try SemgrepReport.parse(data: Data(report.utf8), root: base + "/tree")
        #expect(output.findings.count == 1)
        #expect(output.findings.first?.snippet == nil, "\(output.findings.first?.snippet ?? "")")
    }

    @Test func byteColumnsBecomeCodePointColumns() throws {
        // Line 18 holds "é" before the call: Semgrep's byte column 23 is code point 22.
        let spanning = try report().findings[4]
        #expect(spanning.location == Location(file: "app/views.py", startLine: 18, startColumn: 22, endLine: 21, endColumn: 6))
        #expect(try report(readSources: false).findings[4].location.startColumn == 23)
    }

    @Test func printedLinesMetadataListsAndNewSeveritiesAreRead() throws {
        let finding = try #require(try report().findings.last)
        #expect(finding.severity == .critical)
        #expect(finding.confidence == .medium)
        #expect(finding.cwe == [489, 215])
        #expect(finding.snippet == "import subprocess")
        #expect(finding.message == "Flask debug mode is enabled.")
        #expect(finding.references == ["https://flask.palletsprojects.com/en/latest/debugging/"])
        #expect(finding.fix == nil)
    }

    @Test func rulesAreDescribedOncePerId() throws {
        let rules = try report().rules
        #expect(
            rules.map(\.id) == [
                "semgrep.pickle-import", "semgrep.pickle-loads", "semgrep.python.flask.debug-enabled",
                "semgrep.subprocess-shell-true",
            ])
        let importRule = try #require(rules.first)
        #expect(importRule.defaultSeverity == .low)
        #expect(importRule.cwe == [502])
        #expect(importRule.helpURI == "https://example.invalid/rules/pickle-import")
        #expect(importRule.name == "pickle-import")
        #expect(rules[2].tags == ["security"])
    }

    @Test func semgrepErrorsBecomeNotices() throws {
        let notices = try report().notices
        #expect(
            notices == [
                Notice(
                    level: .warning, message: "semgrep: app/broken.py: Syntax error at line app/broken.py:1: `(` was unexpected",
                    file: "app/broken.py", tool: "semgrep")
            ])
    }

    @Test func fatalRunsAreExplainedByTheirFirstError() throws {
        let message = SemgrepReport.fatalMessage(in: try AdapterFixtures.data("semgrep/fatal.json"))
        #expect(message?.hasPrefix("Rule parse error in rule tmp.bad: Invalid pattern for Python") == true)
        #expect(SemgrepReport.fatalMessage(in: Data("not json".utf8)) == nil)
        #expect(SemgrepReport.fatalMessage(in: try AdapterFixtures.data("semgrep/report.json"))?.hasPrefix("Syntax error") == true)
    }

    @Test(arguments: [
        ("opt.rules.python.sqli", ["/opt/rules"], "python.sqli"),
        ("opt.rules.python.sqli", ["/opt/rules/python.yaml"], "python.sqli"),
        ("opt.rules.python.sqli", ["/opt", "/opt/rules"], "python.sqli"),
        ("opt.rules.python.sqli", ["/opt/rules/./"], "python.sqli"),
        ("other.rule", ["/opt/rules"], "other.rule"),
        ("opt.rules", ["/opt/rules"], "opt.rules"),
    ])
    func ruleIdPrefixesAreRemoved(checkId: String, configs: [String], expected: String) {
        #expect(SemgrepReport.ruleId(checkId: checkId, configPaths: configs) == expected)
    }

    @Test(arguments: [
        ("ERROR", Severity.high), ("WARNING", .medium), ("INFO", .low), ("CRITICAL", .critical), ("HIGH", .high),
        ("MEDIUM", .medium), ("LOW", .low), ("INVENTORY", .info),
    ])
    func severitiesMap(text: String, severity: Severity) {
        #expect(SemgrepReport.severity(text) == severity)
    }

    @Test func truncatedReportIsAToolFailure() throws {
        let data = try AdapterFixtures.data("semgrep/truncated.json")
        #expect {
            _ = try SemgrepReport.parse(data: data, root: root)
        } throws: { error in
            let error = error as? SentinelError
            return error?.code == .toolFailed && error?.message.hasPrefix("semgrep failed: unreadable JSON output") == true
        }
    }

    @Test func resultsWithoutLocationsAreSkipped() throws {
        let data = Data(#"{"results": [{"check_id": "x"}, {"check_id": "y", "path": "a.py", "start": {"line": 2}}], "errors": []}"#.utf8)
        let output = try SemgrepReport.parse(data: data, root: "/nonexistent")
        #expect(output.findings.map(\.ruleId) == ["semgrep.y"])
        #expect(output.findings.first?.severity == .info)
        #expect(output.findings.first?.location == Location(file: "a.py", startLine: 2))
        #expect(output.notices.map(\.message) == ["semgrep: result 0 skipped: no check_id, path or start line"])
    }
}
