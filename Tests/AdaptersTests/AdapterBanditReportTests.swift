import Findings
import Foundation
import ScanCore
import Support
import Testing

@testable import Adapters

@Suite struct AdapterBanditReportTests {
    let root = AdapterFixtures.tree

    func report(readSources: Bool = true) throws -> ScannerOutput {
        try BanditReport.parse(data: AdapterFixtures.data("bandit/report.json"), root: root, readSources: readSources)
    }

    @Test func everyResultBecomesAFinding() throws {
        let output = try report()
        #expect(output.findings.map(\.ruleId) == ["bandit.B404", "bandit.B403", "bandit.B602", "bandit.B301", "bandit.B602"])
        #expect(output.findings.allSatisfy { $0.tool == "bandit" && $0.location.file == "app/views.py" })
        #expect(output.tool.name == "bandit")
        #expect(output.tool.informationURI == BanditReport.informationURI)
    }

    @Test func singleLineFindingKeepsBanditsFields() throws {
        let finding = try #require(try report().findings.first { $0.ruleId == "bandit.B301" })
        #expect(finding.severity == .medium)
        #expect(finding.confidence == .high)
        #expect(finding.cwe == [502])
        #expect(finding.message.hasPrefix("Pickle and modules that wrap it can be unsafe"))
        #expect(finding.location == Location(file: "app/views.py", startLine: 10, startColumn: 12, endLine: 10, endColumn: 30))
        #expect(finding.snippet == "    return pickle.loads(blob)")
        #expect(finding.references == ["https://bandit.readthedocs.io/en/1.9.4/blacklists/blacklist_calls.html#b301-pickle"])
        #expect(finding.facts.properties["testName"] == "blacklist")
        #expect(finding.facts.properties["testId"] == "B301")
    }

    @Test func multiLineStatementSpansItsRangeWithCodePointColumns() throws {
        let finding = try #require(try report().findings.last)
        #expect(finding.ruleId == "bandit.B602")
        #expect(finding.severity == .high)
        // Bandit points at line 20 (`shell=True`) but the call spans 18-21; its col_offset 22 is a
        // UTF-8 offset on line 18, which holds "é" (two bytes): code-point column 22, not 23.
        #expect(finding.facts.properties["banditLine"] == "20")
        #expect(finding.location == Location(file: "app/views.py", startLine: 18, startColumn: 22, endLine: 21, endColumn: 6))
        #expect(
            finding.snippet == """
                    label = "héllo"; subprocess.call(
                        "echo " + name,
                        shell=True,
                    )
                """)
    }

    @Test func withoutSourcesTheSnippetComesFromBanditsExcerpt() throws {
        let output = try report(readSources: false)
        let simple = try #require(output.findings.first { $0.ruleId == "bandit.B301" })
        #expect(simple.snippet == "    return pickle.loads(blob)")
        #expect(simple.location.startColumn == 12)
        // Bandit's excerpt of the multi-line call starts at line 19: the prefixes are gone and the
        // column of line 18 falls back to offset + 1.
        let spanning = try #require(output.findings.last)
        #expect(spanning.snippet == "        \"echo \" + name,\n        shell=True,\n    )")
        #expect(spanning.location.startColumn == 23)
    }

    @Test func fingerprintsIgnoreBanditsContextLines() throws {
        let fromDisk = try report().findings.first { $0.ruleId == "bandit.B301" }
        let fromExcerpt = try report(readSources: false).findings.first { $0.ruleId == "bandit.B301" }
        #expect(fromDisk?.fingerprint == fromExcerpt?.fingerprint)
        let fingerprints = try report().findings.map(\.fingerprint)
        #expect(Set(fingerprints).count == fingerprints.count)
    }

    @Test func rulesAreDescribedOncePerTest() throws {
        let rules = try report().rules
        #expect(rules.map(\.id) == ["bandit.B301", "bandit.B403", "bandit.B404", "bandit.B602"])
        let shell = try #require(rules.first { $0.id == "bandit.B602" })
        #expect(shell.tool == "bandit")
        #expect(shell.name == "subprocess_popen_with_shell_equals_true")
        #expect(shell.defaultSeverity == .high)
        #expect(shell.cwe == [78])
        #expect(shell.helpURI?.hasSuffix("b602_subprocess_popen_with_shell_equals_true.html") == true)
        #expect(rules.first { $0.id == "bandit.B404" }?.name == "blacklist B404")
    }

    @Test func banditErrorsAndNosecBecomeNotices() throws {
        let notices = try report().notices
        #expect(
            notices == [
                Notice(
                    level: .warning, message: "bandit could not scan app/broken.py: syntax error while parsing AST from file",
                    file: "app/broken.py", tool: "bandit"),
                Notice(level: .info, message: "bandit: 1 issue(s) hidden by # nosec comments", tool: "bandit"),
            ])
    }

    @Test func malformedEntriesAreSkippedWithANotice() throws {
        let output = try BanditReport.parse(data: AdapterFixtures.data("bandit/odd-entries.json"), root: "/src/p")
        #expect(output.findings.count == 2)
        let assertUsed = try #require(output.findings.first)
        #expect(assertUsed.ruleId == "bandit.B101")
        #expect(assertUsed.location == Location(file: "pkg/mod.py", startLine: 3, startColumn: 5, endLine: 3, endColumn: 16))
        #expect(assertUsed.snippet == "    assert x > 0")
        #expect(assertUsed.references == [])
        let future = try #require(output.findings.last)
        #expect(future.ruleId == "bandit.B999")
        #expect(future.severity == .info)
        #expect(future.confidence == .low)
        #expect(future.message == "A check from the future.")
        #expect(future.cwe == [])
        #expect(future.location.file == "pkg/mod.py")
        #expect(future.location.startColumn == nil)
        #expect(future.snippet == nil)
        #expect(
            output.notices.map(\.message) == [
                "bandit: result 1 skipped: B105 in pkg/mod.py has no line_number",
                "bandit: result 2 skipped: no test_id",
                "bandit: result 4 skipped: no test_id",
                "bandit: no filename here",
                "bandit: 2 issue(s) hidden by # nosec comments",
            ])
    }

    @Test(arguments: [
        ("bandit/truncated.json", "bandit failed: unreadable JSON output (2976 bytes)"),
        ("bandit/no-results.json", "bandit failed: its JSON output has no 'results' array"),
    ])
    func incompleteReportsAreToolFailures(fixture: String, message: String) throws {
        let data = try AdapterFixtures.data(fixture)
        #expect {
            _ = try BanditReport.parse(data: data, root: root)
        } throws: { error in
            guard let error = error as? SentinelError else { return false }
            return error.code == .toolFailed && error.message.hasPrefix(message) && !error.message.contains("\n")
        }
    }

    @Test(arguments: [
        ("LOW", Severity.low), ("MEDIUM", .medium), ("HIGH", .high), ("high", .high), ("UNDEFINED", .info),
    ])
    func severitiesMap(text: String, severity: Severity) {
        #expect(BanditReport.severity(text) == severity)
    }

    @Test(arguments: [("LOW", Confidence.low), ("MEDIUM", .medium), ("HIGH", .high), ("UNDEFINED", .low)])
    func confidencesMap(text: String, confidence: Confidence) {
        #expect(BanditReport.confidence(text) == confidence)
    }

    /// Bandit's excerpt and the scanned file read alike whatever their line endings.
    @Test(arguments: ["\n", "\r\n", "\r"])
    func excerptsAndSourceLinesWithAnyLineEnding(newline: String) throws {
        let code = BanditCode(["10 x = 1", "11 y = é + 1", ""].joined(separator: newline))
        #expect(code.lines(from: 10, through: 11) == "x = 1\ny = é + 1")
        #expect(code.column(utf8Offset: 6, line: 11) == 6)

        let dir = NSTemporaryDirectory() + "sentinel-lines-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/a.py", contents: Data(["x = 1", "y = é", ""].joined(separator: newline).utf8))
        let sources = SourceLines(root: dir)
        #expect(sources.line(2, of: "a.py").map { String(decoding: $0, as: UTF8.self) } == "y = é")
        #expect(sources.text(of: "a.py", from: 1, through: 2) == "x = 1\ny = é")
    }
}
