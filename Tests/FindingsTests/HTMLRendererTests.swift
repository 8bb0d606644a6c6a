import Digest
import Foundation
import Support
import Testing

@testable import Findings
import TestSupport

@Suite(.serialized) struct HTMLRendererTests {
    static func hostileReport() -> Report {
        var report = Fixtures.sampleReport()
        report.findings.append(
            Finding(
                ruleId: "python.xss\"><img src=x onerror=alert(1)>", tool: "native", severity: .high,
                message: "Message with <script>alert('pwned')</script> and \"quotes\" & 'apostrophes'",
                location: Location(file: "tpl/<evil>.py", startLine: 7, startColumn: 2),
                cwe: [79], snippet: "return '<b>' + name + '</b>'"))
        return report
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func structureAndCounts() {
        let html = HTMLRenderer().render(Fixtures.sampleReport())
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(Self.count("<tr class=\"finding\"", in: html) == 5)
        #expect(html.contains("<div class=\"card sev-high\" data-severity=\"high\"><span class=\"count\">2</span> high</div>"))
        #expect(html.contains("<div class=\"card sev-critical\" data-severity=\"critical\"><span class=\"count\">1</span> critical</div>"))
        #expect(
            html.contains(
                "<tr data-tool=\"bandit\"><td>bandit</td><td>1.7.9</td><td class=\"status-succeeded\">succeeded</td><td class=\"num\">1</td></tr>"
            ))
        #expect(html.contains("<td class=\"status-skipped\">skipped: not installed</td>"))
        #expect(html.contains("<option value=\"semgrep\">semgrep</option>"))
        #expect(html.contains("<th data-key=\"sev\" data-type=\"num\""))
        #expect(
            html.contains(
                "<pre class=\"snippet\" data-start=\"12\"><code>cursor.execute(&quot;SELECT * FROM t WHERE id=&quot; + q)</code></pre>"))
        #expect(html.contains("<li class=\"notice-warning\"><code>app/broken.py</code>: cannot parse: unexpected indent at 3:1</li>"))
        #expect(html.contains("42 files scanned"))
        // Rows are ordered most severe first.
        let critical = html.range(of: "data-severity=\"critical\" data-sev")?.lowerBound
        let low = html.range(of: "data-severity=\"low\" data-sev")?.lowerBound
        #expect(critical != nil && low != nil && critical! < low!)
    }

    @Test func selfContained() {
        let html = HTMLRenderer().render(Fixtures.sampleReport())
        #expect(!html.contains("<link"))
        #expect(!html.contains(" src="), "no element loads anything")
        // Links are anchors the reader may click; nothing is fetched on load, no referrer leaks.
        for anchor in html.components(separatedBy: "<a ").dropFirst() {
            #expect(anchor.hasPrefix("href=\"https://") || anchor.hasPrefix("href=\"http://"))
            #expect(anchor.contains("rel=\"noopener noreferrer\""))
        }
        #expect(!html.contains("@import"))
        #expect(!html.contains("url("))
        #expect(html.contains("default-src 'none'"))
    }

    @Test func everythingIsEscaped() {
        let html = HTMLRenderer().render(Self.hostileReport())
        #expect(Self.count("<script", in: html) == 1, "only the report's own script")
        #expect(!html.contains("<img"))
        #expect(
            html.contains(
                "Message with &lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt; and &quot;quotes&quot; &amp; &#39;apostrophes&#39;"))
        #expect(html.contains("data-rule=\"python.xss&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\""))
        #expect(html.contains("tpl/&lt;evil&gt;.py:7:2"))
        #expect(HTMLRenderer.escape("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&#39;")
        #expect(HTMLRenderer.escape("if admin\u{202E}\u{2066}") == "if admin[U+202E][U+2066]")
    }

    @Test func ruleHelpReferencesAndLocationsAreLinks() {
        var report = Fixtures.sampleReport()
        report.findings[0].references = ["https://owasp.org/Top10/A03_2021-Injection/", "javascript:alert(1)"]
        let html = HTMLRenderer(sourceBaseURL: "https://github.com/o/r/blob/abc123/services/api").render(report)
        #expect(
            html.contains(
                "<a href=\"https://cwe.mitre.org/data/definitions/89.html\" rel=\"noopener noreferrer\" target=\"_blank\">python.sqli</a>"))
        #expect(
            html.contains(
                "<a href=\"https://owasp.org/Top10/A03_2021-Injection/\" rel=\"noopener noreferrer\" target=\"_blank\">https://owasp.org/Top10/A03_2021-Injection/</a>"
            ))
        #expect(!html.contains("href=\"javascript:"), "only http(s) URLs become links")
        #expect(html.contains("javascript:alert(1)"))
        #expect(
            html.contains(
                "<a href=\"https://github.com/o/r/blob/abc123/services/api/app/db.py#L12\" rel=\"noopener noreferrer\" target=\"_blank\">app/db.py:12:5</a>"
            ))
        // Without a base URL, file locations stay text; web locations link to their URL.
        let plain = HTMLRenderer().render(report)
        #expect(plain.contains("<td class=\"loc\">app/db.py:12:5</td>"))
        #expect(plain.contains("<a href=\"http://127.0.0.1:8080/search?q=%3Cscript%3E\""))
    }

    @Test func headerCountsHiddenAndExcludedFiles() {
        var report = Fixtures.sampleReport()
        report.belowSeverityCount = 4
        report.defaultExclusions = [DefaultExclusion(kind: .dependencies, files: 120, patterns: [".venv/"])]
        let html = HTMLRenderer().render(report)
        #expect(
            html.contains(
                " · 4 below --severity · 120 files left out of code analysis by the default ignores: 120 dependencies (.venv/); "
                    + "secrets are still searched in them (--no-default-excludes analyses them)</p>"))
    }

    @Test func scriptHashInPolicyMatchesTheScript() {
        let html = HTMLRenderer().render(Report())
        let hash = Data(SHA256.hash(HTMLRenderer.script)).base64EncodedString()
        #expect(html.contains("script-src 'sha256-\(hash)'"))
        #expect(html.contains("<script>\(HTMLRenderer.script)</script>"))
        #expect(html.contains("<p id=\"empty\">No findings.</p>"))
    }

    // MARK: - Headless Chromium

    static func dumpDOM(_ html: String, fragment: String = "") throws -> String {
        let chromium = try #require(Fixtures.chromium)
        let directory = try TemporaryDirectory.make("findings")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/report.html"
        try PreparedOutputFile(path: path).write(html)
        let result = try Fixtures.run(
            "/usr/bin/timeout",
            [
                "60", chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--user-data-dir=\(directory)/profile", "--dump-dom", "file://\(path)\(fragment)",
            ])
        #expect(result.status == 0, "chromium: \(result.stderr.suffix(500))")
        return result.stdout
    }

    @Test(.enabled(if: Fixtures.chromium != nil, "needs chromium for headless rendering (the lead adds it to make deps)"))
    func rendersInChromiumAndScriptsRun() throws {
        let dom = try Self.dumpDOM(HTMLRenderer().render(Self.hostileReport()))
        #expect(dom.contains("data-ready=\"true\""), "the script ran (CSP hash accepted)")
        #expect(Self.count("<tr class=\"finding\"", in: dom) == 6)
        #expect(dom.contains("<span id=\"shown\">6 of 6</span>"))
        #expect(!dom.contains("<img"), "hostile markup stayed text")
        #expect(Self.count("<script", in: dom) == 1)
        #expect(dom.contains("SQL query built from request.args reaches cursor.execute"))
    }

    @Test(.enabled(if: Fixtures.chromium != nil, "needs chromium for headless rendering"))
    func filtersFromTheURLFragment() throws {
        let dom = try Self.dumpDOM(HTMLRenderer().render(Fixtures.sampleReport()), fragment: "#severity=high")
        #expect(dom.contains("<span id=\"shown\">2 of 5</span>"))
        #expect(Self.count("class=\"finding hidden\"", in: dom) == 3)
    }
}
