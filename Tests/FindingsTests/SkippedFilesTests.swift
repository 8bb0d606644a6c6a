import Foundation
import Testing

@testable import Findings

/// Files the scan did not read are listed, with the reason, in every format.
@Suite struct SkippedFilesTests {
    static let report = Report(
        findings: [], tools: [ToolRun(name: "native")], filesScanned: 2, durationSeconds: 0.5,
        skippedFiles: [
            SkippedFile(file: "big.py", reason: "larger than --max-file-size (6.0M > 5.0M)"),
            SkippedFile(file: "secret/", reason: "cannot list directory: Permission denied"),
        ])

    @Test func textListsEachFileAndCountsThemInTheSummary() {
        #expect(
            TextRenderer().render(Self.report) == """
                big.py: note: skipped: larger than --max-file-size (6.0M > 5.0M)
                secret/: note: skipped: cannot list directory: Permission denied
                No findings (2 files scanned in 0.50 s); 2 files skipped

                """)
    }

    @Test func jsonSummaryHasTheList() throws {
        let object = try JSONSerialization.jsonObject(with: Data(JSONRenderer().render(Self.report).utf8)) as? [String: Any]
        let skipped = (object?["summary"] as? [String: Any])?["skippedFiles"] as? [[String: String]]
        #expect(
            skipped == [
                ["file": "big.py", "reason": "larger than --max-file-size (6.0M > 5.0M)"],
                ["file": "secret/", "reason": "cannot list directory: Permission denied"],
            ])
    }

    @Test func sarifReportsThemOnceAsToolExecutionNotifications() throws {
        var report = Self.report
        report.tools.append(ToolRun(name: "secrets"))
        let log = try JSONSerialization.jsonObject(with: Data(SARIFRenderer().render(report).utf8)) as? [String: Any]
        let runs = log?["runs"] as? [[String: Any]] ?? []
        var texts: [String] = []
        var uris: [String] = []
        for run in runs {
            for invocation in run["invocations"] as? [[String: Any]] ?? [] {
                for note in invocation["toolExecutionNotifications"] as? [[String: Any]] ?? [] {
                    texts.append((note["message"] as? [String: Any])?["text"] as? String ?? "")
                    let location = (note["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
                    uris.append((location?["artifactLocation"] as? [String: Any])?["uri"] as? String ?? "")
                }
            }
        }
        #expect(texts == ["skipped: larger than --max-file-size (6.0M > 5.0M)", "skipped: cannot list directory: Permission denied"])
        #expect(uris == ["big.py", "secret/"])
    }

    @Test func htmlHasASkippedSection() {
        let html = HTMLRenderer().render(Self.report)
        #expect(html.contains("<section id=\"skipped\"><h2>Skipped files</h2>"))
        #expect(html.contains("<code>big.py</code>: skipped: larger than --max-file-size (6.0M &gt; 5.0M)"))
    }
}
