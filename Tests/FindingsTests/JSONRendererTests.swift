import Foundation
import Support
import Testing

@testable import Findings

@Suite struct JSONRendererTests {
    @Test func documentShapeAndSummary() throws {
        let text = JSONRenderer().render(Fixtures.sampleReport())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["findings", "summary"])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["total"] as? Int == 5)
        #expect(summary["bySeverity"] as? [String: Int] == ["critical": 1, "high": 2, "medium": 1, "low": 1, "info": 0, "unknown": 0])
        #expect(summary["byTool"] as? [String: Int] == ["native": 2, "bandit": 1, "dast": 1, "osv": 1])
        #expect(summary["filesScanned"] as? Int == 42)
        #expect(summary["durationSeconds"] as? Double == 1.234)
        #expect(summary["suppressed"] as? Int == 2)
        #expect(summary["baselined"] as? Int == 1)
        let tools = try #require(summary["tools"] as? [[String: Any]])
        #expect(tools.map { $0["name"] as? String } == ["bandit", "native", "semgrep"])
        #expect((summary["notices"] as? [[String: Any]])?.first?["file"] as? String == "app/broken.py")

        let findings = try #require(object["findings"] as? [[String: Any]])
        let first = try #require(findings.first)
        #expect(first["ruleId"] as? String == "python.weak-hash")
        #expect(first["severity"] as? String == "medium")
        #expect((first["location"] as? [String: Any])?["startLine"] as? Int == 3)
        #expect(first["cwe"] as? [Int] == [327])
        #expect(first["fingerprint"] as? String == Fixtures.weakHash().fingerprint)
    }

    @Test("a notice's file groups are written only when it has them, and read back (issue 75)")
    func noticeFileGroups() throws {
        var report = Report()
        report.notices = [
            Notice(message: "one file", file: "a.py"),
            Notice(message: "many files", fileGroups: [Notice.FileGroup(kind: "EJS templates", files: ["views/a.ejs"])]),
        ]
        let text = JSONRenderer().render(report)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let notices = try #require((object["summary"] as? [String: Any])?["notices"] as? [[String: Any]])
        #expect(notices[0]["fileGroups"] == nil)
        #expect((notices[1]["fileGroups"] as? [[String: Any]])?.first?["files"] as? [String] == ["views/a.ejs"])
        let document = try JSONDecoder().decode(JSONRenderer.Document.self, from: Data(text.utf8))
        #expect(document.summary.notices == report.notices)
    }

    @Test func findingsDecodeBack() throws {
        let report = Fixtures.sampleReport()
        let data = Data(JSONRenderer().render(report).utf8)
        let document = try JSONDecoder().decode(JSONRenderer.Document.self, from: data)
        #expect(document.findings == report.findings.sortedForReport())
    }

    @Test func keysAreSortedAndOutputIsStable() {
        let report = Fixtures.sampleReport()
        let a = JSONRenderer().render(report)
        var shuffled = report
        shuffled.findings.reverse()
        #expect(JSONRenderer().render(shuffled) == a)
        // "findings" sorts before "summary"; within a finding "cwe" before "location" before "ruleId".
        let findingsAt = a.range(of: "\"findings\"")?.lowerBound
        let summaryAt = a.range(of: "\"summary\"")?.lowerBound
        #expect(findingsAt != nil && summaryAt != nil && findingsAt! < summaryAt!)
        let cwe = a.range(of: "\"cwe\"")?.lowerBound
        let ruleId = a.range(of: "\"ruleId\"")?.lowerBound
        #expect(cwe != nil && ruleId != nil && cwe! < ruleId!)
        #expect(a.contains("\n  "), "pretty-printed")
    }

    @Test func emptyReportStillHasTheContract() throws {
        let object = try JSONSerialization.jsonObject(with: Data(JSONRenderer().render(Report()).utf8)) as? [String: Any]
        #expect((object?["findings"] as? [Any])?.isEmpty == true)
        #expect((object?["summary"] as? [String: Any])?["total"] as? Int == 0)
    }
}

@Suite struct OutputFormatTests {
    @Test(arguments: [("text", OutputFormat.text), ("JSON", .json), ("sarif", .sarif), ("html", .html)])
    func parses(text: String, format: OutputFormat) throws {
        #expect(try OutputFormat(parsing: text) == format)
    }

    @Test func rejectsUnknown() {
        #expect {
            try OutputFormat(parsing: "xml")
        } throws: { error in
            (error as? SentinelError)?.message == "unknown output format 'xml' (expected text, json, sarif or html)"
        }
    }

    @Test func renderersMatchTheFormat() {
        let report = Report(findings: [Fixtures.sqlInjection()])
        #expect(OutputFormat.text.renderer().render(report).hasPrefix("app/db.py:12:5: high:"))
        #expect(OutputFormat.json.renderer().render(report).hasPrefix("{"))
        #expect(OutputFormat.sarif.renderer(sourceRoot: "/r").render(report).contains("\"uri\": \"file:///r/\""))
        #expect(OutputFormat.html.renderer().render(report).hasPrefix("<!DOCTYPE html>"))
    }
}
