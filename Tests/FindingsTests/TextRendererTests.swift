import Foundation
import Testing

@testable import Findings

@Suite struct TextRendererTests {
    @Test func diagnosticsGroupedByFileAndSummary() {
        let text = TextRenderer().render(Fixtures.sampleReport())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "app/crypto.py:3:7: medium: [python.weak-hash] MD5 is a weak hash")
        #expect(lines.contains("app/db.py:12:5: high: [python.sqli] SQL query built from request.args reaches cursor.execute"))
        #expect(lines.contains("app/run.py:30:1: high: [bandit.B602] subprocess call with shell=True identified"))
        #expect(
            lines.contains(
                "requirements.txt:4: low: [osv.GHSA-xxxx-yyyy-zzzz] requests 2.19.0 is affected by GHSA-xxxx-yyyy-zzzz; fixed in 2.20.0"))
        #expect(
            lines.contains(
                "GET http://127.0.0.1:8080/search?q=%3Cscript%3E [q]: critical: [dast.reflected-xss] Parameter q is reflected without encoding"
            ))
        // A blank line separates files.
        #expect(lines[1] == "")
        #expect(lines.contains("note: semgrep skipped: not installed"))
        #expect(lines.contains("app/broken.py: warning: cannot parse: unexpected indent at 3:1"))
        #expect(
            lines.dropLast().last
                == "5 findings: 1 critical, 2 high, 1 medium, 1 low (42 files scanned in 1.23 s); 2 suppressed, 1 in baseline")
        #expect(!text.contains("\u{1B}["), "no colour unless asked")
        #expect(text.hasSuffix("\n"))
    }

    /// Issue 80: under a tried finding, its outcome and what it cost in requests.
    @Test func proofLinesSayTheOutcomeAndItsRequests() {
        var proven = Fixtures.sqlInjection()
        proven.facts.proof = ProofFacts(proven: true, reason: nil, requests: 4)
        proven.facts.proof.oracle = "boolean: SQL injection in 'q'"
        proven.facts.proof.request = "GET http://127.0.0.1:8000/search [q in the query]"
        #expect(
            TextRenderer().proof(proven) == [
                "    proven: boolean: SQL injection in 'q'", "      by GET http://127.0.0.1:8000/search [q in the query] (4 requests)",
            ])
        var refused = Fixtures.sqlInjection()
        let spent = "its share of 100 requests ended before a check confirmed it"
        refused.facts.proof = ProofFacts(proven: false, reason: spent, requests: 100)
        #expect(TextRenderer().proof(refused) == ["    not proven: \(spent) (100 requests)"])
        var untried = Fixtures.sqlInjection()
        untried.facts.proof = ProofFacts(proven: false, reason: "no check proves CWE-1333", requests: 0)
        #expect(TextRenderer().proof(untried) == ["    not proven: no check proves CWE-1333"])
        #expect(TextRenderer().proof(Fixtures.sqlInjection()).isEmpty)
    }

    @Test func sortedByLineWithinFile() {
        let findings = [30, 4, 12].map { line in
            Finding(ruleId: "r", severity: .low, message: "m\(line)", location: Location(file: "f.py", startLine: line, startColumn: 1))
        }
        let text = TextRenderer().render(Report(findings: findings))
        let firstLines = text.split(separator: "\n").prefix(3).map(String.init)
        #expect(firstLines == ["f.py:4:1: low: [r] m4", "f.py:12:1: low: [r] m12", "f.py:30:1: low: [r] m30"])
    }

    @Test func colourOnlyWhenAsked() {
        let text = TextRenderer(color: true).render(Report(findings: [Fixtures.sqlInjection()]))
        #expect(text.contains("\u{1B}[1;31mhigh\u{1B}[0m"))
    }

    @Test(arguments: [Double.nan, .infinity, -1, 1e300])
    func absurdDurationsDoNotCrash(seconds: Double) {
        #expect(TextRenderer().render(Report(durationSeconds: seconds)).contains("? s"))
        #expect(HTMLRenderer().render(Report(durationSeconds: seconds)).contains("? s"))
        #expect(JSONRenderer().render(Report(durationSeconds: seconds)).contains("\"durationSeconds\""))
    }

    @Test func emptyReport() {
        #expect(TextRenderer().render(Report(filesScanned: 1, durationSeconds: 0.5)) == "No findings (1 file scanned in 0.50 s)\n")
    }

    @Test func controlCharactersFromToolsAreNeutralised() {
        let evil = Finding(ruleId: "r", severity: .high, message: "bad\u{1B}[2J\nnext", location: Location(file: "x\u{7}.py", startLine: 1))
        let text = TextRenderer().render(Report(findings: [evil]))
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{7}"))
        #expect(text.contains("bad\\u{1b}[2J next"))
    }

    @Test func bidiControlsAreShownNotApplied() {
        let trojan = Finding(ruleId: "r", severity: .high, message: "access\u{202E} level", location: Location(file: "a.py", startLine: 1))
        let text = TextRenderer().render(Report(findings: [trojan]))
        #expect(!text.unicodeScalars.contains("\u{202E}"))
        #expect(text.contains("access\\u{202e} level"))
    }

    @Test func snippetsWhenAsked() {
        let text = TextRenderer(showSnippets: true).render(Report(findings: [Fixtures.weakHash()]))
        #expect(text.contains("\n    | h = hashlib.md5(data)\n"))
    }

    @Test func summaryCountsHiddenAndExcludedFiles() {
        var report = Fixtures.sampleReport()
        report.belowSeverityCount = 7
        report.defaultExclusions = [DefaultExclusion(kind: .tests, files: 1, patterns: ["conftest.py"])]
        #expect(
            TextRenderer().summary(report) == "5 findings: 1 critical, 2 high, 1 medium, 1 low (42 files scanned in 1.23 s); "
                + "2 suppressed, 1 in baseline, 7 below --severity; 1 file left out of code analysis by the default ignores: "
                + "1 test code (conftest.py); secrets are still searched in them (--no-default-excludes analyses them)"
        )
        report.defaultExclusions = [
            DefaultExclusion(kind: .tests, files: 12, patterns: ["tests/"]),
            DefaultExclusion(kind: .dependencies, files: 800, patterns: [".venv/", "node_modules/"]),
        ]
        #expect(
            TextRenderer().summary(report).hasSuffix(
                "; 812 files left out of code analysis by the default ignores: 12 test code (tests/), "
                    + "800 dependencies (.venv/, node_modules/); secrets are still searched in them (--no-default-excludes analyses them)"))
    }

    @Test func quietKeepsFindingsAndErrorsOnly() {
        var report = Fixtures.sampleReport()
        report.notices.append(Notice(level: .error, message: "package-lock.json:3: not valid JSON", tool: "osv"))
        let text = TextRenderer(color: false, verbosity: .quiet).render(report)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(lines)")
        #expect(lines.last == "error: package-lock.json:3: not valid JSON")
        #expect(!text.contains("note:") && !text.contains("warning:") && !text.contains("files scanned"))
        #expect(TextRenderer(color: false, verbosity: .quiet).render(Report()) == "")
    }

    @Test func verboseAddsSnippetsAndToolCounts() {
        var report = Fixtures.sampleReport()
        report.tools[0].durationSeconds = 0.5
        let text = TextRenderer(color: false, verbosity: .verbose).render(report)
        #expect(text.contains("    | cursor.execute(\"SELECT * FROM t WHERE id=\" + q)"))
        #expect(text.contains("\nnote: native: 2 findings in 0.50 s\n"))
        #expect(text.contains("\nnote: bandit: 1 finding\n"))
    }
}

@Suite struct UnknownSeverityRenderingTests {
    static let report = Report(findings: [
        Finding(
            ruleId: "PYSEC-2099-1", tool: "osv", severity: .unknown, confidence: .high,
            message: "demo 1.0 is affected by PYSEC-2099-1", location: Location(file: "requirements.txt", startLine: 2))
    ])

    @Test func textLabelsItUnknown() {
        let text = TextRenderer().render(Self.report)
        #expect(text.contains("requirements.txt:2: unknown: [PYSEC-2099-1] demo 1.0 is affected by PYSEC-2099-1"))
        #expect(text.contains("1 finding: 1 unknown"))
    }

    @Test func htmlShowsAnUnknownCardOnlyWhenThereIsOne() {
        let html = HTMLRenderer().render(Self.report)
        #expect(html.contains("<span class=\"badge sev-unknown\">unknown</span>"))
        #expect(html.contains("<div class=\"card sev-unknown\" data-severity=\"unknown\"><span class=\"count\">1</span> unknown</div>"))
        #expect(!HTMLRenderer().render(Report(findings: [])).contains("sev-unknown\" data-severity"))
    }

    @Test func sarifLevelIsError() throws {
        let sarif = SARIFRenderer().render(Self.report)
        let log = try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any]
        let run = (log?["runs"] as? [[String: Any]])?.first
        let result = (run?["results"] as? [[String: Any]])?.first
        #expect(result?["level"] as? String == "error")
        #expect((result?["properties"] as? [String: Any])?["severity"] as? String == "unknown")
    }
}
