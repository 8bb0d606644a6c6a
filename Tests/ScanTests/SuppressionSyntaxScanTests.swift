import Adapters
import Findings
import Foundation
import ScanCore
import Testing

@testable import Scan

/// A scanner with a comment of its own (`# nolintx ID`), whose findings it returns as given.
private struct LintScanner: ScanCore.Scanner {
    var name: ToolName = "lintx"
    var kind = ScannerKind.sast
    var declares = true
    var findings: [Finding]

    var suppressionSyntax: SuppressionSyntax? {
        declares ? SuppressionSyntax(marker: "nolintx", tool: name, matching: .caseInsensitive) : nil
    }
    func applies(to target: ScanTarget) -> Bool { true }
    func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        ScannerOutput(findings: findings, tool: ToolRun(name: name))
    }
}

/// Issue 28: the scan hands every scanner's suppression syntax to the findings pipeline.
@Suite struct SuppressionSyntaxScanTests {
    static func tree(_ source: String) -> String {
        let path = NSTemporaryDirectory() + "sentinel-syntax-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path + "/a.py", contents: Data(source.utf8))
        return path
    }

    static func finding(_ rule: String, tool: ToolName, line: Int) -> Finding {
        Finding(ruleId: rule, tool: tool, severity: .high, message: "m", location: Location(file: "a.py", startLine: line))
    }

    @Test func aSyntaxATestScannerDeclaresHidesItsFindings() throws {
        let root = Self.tree("a()  # nolintx L1\nb()  # nolintx\nc()\n")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let findings = [1, 2, 3].map { Self.finding("lintx.L\($0)", tool: "lintx", line: $0) }
        let declared = try ScanRunner(scanners: [LintScanner(findings: findings)]).run(ScanRequest(root: root), context: ScanContext())
        #expect(declared.report.findings.map(\.ruleId) == ["lintx.L3"])
        #expect(declared.report.suppressedCount == 2)
        // The same comments mean nothing when no scanner declares them.
        let silent = LintScanner(declares: false, findings: findings)
        let undeclared = try ScanRunner(scanners: [silent]).run(ScanRequest(root: root), context: ScanContext())
        #expect(undeclared.report.findings.count == 3)
    }

    @Test func nosecHidesANativeFindingWhenBanditDoesNotRun() throws {
        let root = Self.tree("subprocess.call(c, shell=True)  # nosec\nsubprocess.call(c, shell=True)  # nosemgrep\n")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let native = LintScanner(
            name: "native", declares: false, findings: [1, 2].map { Self.finding("python.x", tool: "native", line: $0) })
        let outcome = try ScanRunner(scanners: [native]).run(ScanRequest(root: root), context: ScanContext())
        #expect(outcome.report.findings.isEmpty)
        #expect(outcome.report.suppressedCount == 2)
    }

    /// Hostile inputs round 3, finding 18: in Python a suppression is a comment as the tokenizer
    /// finds it; the same text inside a string literal (one line or spanning lines) hides nothing.
    @Test func aMarkerInsideAStringLiteralSuppressesNothing() throws {
        let source =
            [
                ##"subprocess.call(c, shell=True); s = "# nosec""##,
                #"subprocess.call(c, shell=True); t = '# sentinel: ignore[python.x] looks like a reason'"#,
                "subprocess.call(c, shell=True); u = \"\"\"",
                "# nosec",
                "\"\"\"",
                "subprocess.call(c, shell=True)  # nosec",
                "x = a // 2  # fine",
                ##"subprocess.call(c, shell=True); v = f"{'#'} nosec""##,
            ].joined(separator: "\n") + "\n"
        let root = Self.tree(source)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let native = LintScanner(
            name: "native", declares: false, findings: [1, 2, 3, 4, 6, 8].map { Self.finding("python.x", tool: "native", line: $0) })
        let outcome = try ScanRunner(scanners: [native]).run(ScanRequest(root: root), context: ScanContext())
        #expect(outcome.report.findings.compactMap(\.location.startLine).sorted() == [1, 2, 3, 4, 8])
        #expect(outcome.report.suppressedCount == 1)
    }

    @Test func theRegistryHandsOverBanditsAndSemgrepsSyntax() {
        #expect(ScannerRegistry.suppressionSyntaxes == [BanditScanner.suppressionSyntax, SemgrepScanner.suppressionSyntax])
        #expect(BanditScanner.suppressionSyntax.marker == "nosec" && BanditScanner.suppressionSyntax.tool == ToolName.bandit)
        #expect(!BanditScanner.suppressionSyntax.coversNextLine && BanditScanner.suppressionSyntax.namesRecordedTest)
        #expect(SemgrepScanner.suppressionSyntax.matching == .dottedSuffix && SemgrepScanner.suppressionSyntax.coversNextLine)
        #expect(ScanRunner(scanners: []).suppressionSyntaxes.map(\.marker) == ["nosec", "nosemgrep"])
    }
}
