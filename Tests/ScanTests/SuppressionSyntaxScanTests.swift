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
    static func tree(_ source: String, file: String = "a.py") -> String {
        let path = NSTemporaryDirectory() + "sentinel-syntax-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path + "/" + file, contents: Data(source.utf8))
        return path
    }

    static func finding(_ rule: String, tool: ToolName, line: Int, file: String = "a.py") -> Finding {
        Finding(ruleId: rule, tool: tool, severity: .high, message: "m", location: Location(file: file, startLine: line))
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

    /// Issue 76, H15: in JavaScript and TypeScript too, a suppression is a comment as the parser
    /// reads the file; the same text inside a string, a template literal, a regular expression or
    /// JSX text hides nothing, while real comments still do.
    @Test(arguments: ["a.js", "a.tsx", "a.vue"])
    func aMarkerInsideAJavaScriptLiteralSuppressesNothing(file: String) throws {
        var lines = [
            ##"exec(c); const s = "// nosec";"##,
            ##"exec(c); const t = '# nosec';"##,
            "const u = `",
            "// sentinel: ignore[javascript.x] looks like a reason",
            "`; exec(c);",
            "exec(c); const v = `${c} // nosec`;",
            ##"exec(c); const w = /\/\/ nosec/;"##,
            "exec(c); const x = <p>// nosec</p>;",
            "exec(c); // nosec",
            "exec(c); /* a */ // nosemgrep",
            "exec(c / 2); // nosec",
        ]
        if file == "a.vue" {
            lines.removeAll { $0.contains("<p>") }
            lines = ["<template><p>{{ c }}</p></template>", "<script>"] + lines + ["</script>"]
        }
        let source = lines.joined(separator: "\n") + "\n"
        let root = Self.tree(source, file: file)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let exec = lines.indices.filter { lines[$0].contains("exec(c") }.map { $0 + 1 }
        let native = LintScanner(
            name: "native", declares: false, findings: exec.map { Self.finding("javascript.x", tool: "native", line: $0, file: file) })
        let outcome = try ScanRunner(scanners: [native]).run(ScanRequest(root: root), context: ScanContext())
        #expect(outcome.report.findings.compactMap(\.location.startLine).sorted() == Array(exec.dropLast(3)), "\(source)")
        #expect(outcome.report.suppressedCount == 3)
    }

    @Test func theRegistryHandsOverBanditsAndSemgrepsSyntax() {
        #expect(ScannerRegistry.suppressionSyntaxes == [BanditScanner.suppressionSyntax, SemgrepScanner.suppressionSyntax])
        #expect(BanditScanner.suppressionSyntax.marker == "nosec" && BanditScanner.suppressionSyntax.tool == ToolName.bandit)
        #expect(!BanditScanner.suppressionSyntax.coversNextLine && BanditScanner.suppressionSyntax.namesRecordedTest)
        #expect(SemgrepScanner.suppressionSyntax.matching == .dottedSuffix && SemgrepScanner.suppressionSyntax.coversNextLine)
        #expect(ScanRunner(scanners: []).suppressionSyntaxes.map(\.marker) == ["nosec", "nosemgrep"])
    }
}
