import Foundation
import Testing

@testable import Findings

@Suite struct CodeFlowTests {
    static let flowing = Fixtures.commandInjectionWithFlow()

    // MARK: - Model

    @Test func fingerprintIgnoresTheFlow() {
        var bare = Self.flowing
        bare.codeFlow = []
        let recomputed = Finding(
            ruleId: bare.ruleId, severity: bare.severity, message: bare.message, location: bare.location,
            snippet: bare.snippet, enclosingScope: bare.enclosingScope)
        #expect(recomputed.fingerprint == Self.flowing.fingerprint)
        var shorter = Self.flowing.codeFlow
        shorter.remove(at: 1)
        let otherPath = Finding(
            ruleId: bare.ruleId, severity: bare.severity, message: bare.message, location: bare.location,
            snippet: bare.snippet, enclosingScope: bare.enclosingScope, codeFlow: shorter)
        #expect(otherPath.fingerprint == Self.flowing.fingerprint)
    }

    @Test func existingCallSitesHaveNoFlow() {
        #expect(Fixtures.sqlInjection().codeFlow.isEmpty)
    }

    @Test func decodingIsLenient() throws {
        let old = #"{"ruleId": "r", "severity": "high", "message": "m", "location": {"file": "a.py", "startLine": 1}}"#
        #expect(try JSONDecoder().decode(Finding.self, from: Data(old.utf8)).codeFlow == [])
        let terse = #"""
            {"ruleId": "r", "severity": "high", "message": "m", "location": {"file": "a.py", "startLine": 3},
             "codeFlow": [{"location": {"file": "a.py", "startLine": 1}}, {"location": {"file": "a.py", "startLine": 3}, "message": "sink"}]}
            """#
        let decoded = try JSONDecoder().decode(Finding.self, from: Data(terse.utf8))
        #expect(decoded.codeFlow.map(\.message) == ["", "sink"])
        #expect(decoded.codeFlow.map(\.location.startLine) == [1, 3])
    }

    @Test func deduplicationKeepsTheFlowOfTheCopyThatHadOne() {
        let native = Finding(
            ruleId: "python.cmdi", severity: .high, confidence: .high, message: "m",
            location: Location(file: "app/tools.py", startLine: 9, startColumn: 5), cwe: [78])
        var semgrep = Self.flowing
        semgrep.ruleId = "semgrep.os-system-injection"
        semgrep.tool = ToolName.semgrep
        let merged = [native, semgrep].deduplicated()
        #expect(merged.count == 1)
        #expect(merged.first?.ruleId == "python.cmdi")
        #expect(merged.first?.codeFlow == Self.flowing.codeFlow)
    }

    // MARK: - Renderers

    @Test func textShowsThePathUnderTheFinding() {
        let text = TextRenderer().render(Report(findings: [Self.flowing, Fixtures.weakHash()]))
        #expect(
            text == """
                app/crypto.py:3:7: medium: [python.weak-hash] MD5 is a weak hash

                app/tools.py:9:5: critical: [python.cmdi] request.args reaches os.system
                    app/views.py:4:9  source: request.args
                    app/views.py:4:5  q = request.args['q']
                    app/views.py:5:5  passed to helper run(cmd)
                    app/tools.py:9:5  sink: os.system

                2 findings: 1 critical, 1 medium (0 files scanned in 0.00 s)

                """)
    }

    @Test func textFlowIsSanitisedAndFollowsTheSnippet() {
        var finding = Self.flowing
        finding.codeFlow[0].message = "source: \u{1B}[2Jinput"
        let text = TextRenderer(color: false, verbosity: .verbose).render(Report(findings: [finding]))
        #expect(text.contains("    | os.system(cmd)\n    app/views.py:4:9  source: \\u{1b}[2Jinput\n"))
        let quiet = TextRenderer(color: false, verbosity: .quiet).render(Report(findings: [finding]))
        #expect(quiet == "app/tools.py:9:5: critical: [python.cmdi] request.args reaches os.system\n\n", "quiet: no path")
    }

    @Test func jsonCarriesTheFlowOnlyWhenThereIsOne() throws {
        let text = JSONRenderer().render(Report(findings: [Self.flowing, Fixtures.weakHash()]))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 2)
        #expect(findings[0]["codeFlow"] == nil, "weak hash: no flow, no key")
        let steps = try #require(findings[1]["codeFlow"] as? [[String: Any]])
        #expect(steps.compactMap { $0["message"] as? String } == Self.flowing.codeFlow.map(\.message))
        let first = try #require(steps.first?["location"] as? [String: Any])
        #expect(first["file"] as? String == "app/views.py")
        #expect(first["startLine"] as? Int == 4)
        #expect(first["startColumn"] as? Int == 9)
        let document = try JSONDecoder().decode(JSONRenderer.Document.self, from: Data(text.utf8))
        #expect(document.findings[1] == Self.flowing)
    }

    @Test func sarifHasOneThreadFlowWithEveryStep() throws {
        let sarif = SARIFRenderer().render(Report(findings: [Self.flowing, Fixtures.weakHash()]))
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(results.count == 2)
        #expect(results[0]["codeFlows"] == nil, "no flow, no codeFlows")
        let codeFlows = try #require(results[1]["codeFlows"] as? [[String: Any]])
        #expect(codeFlows.count == 1)
        let threadFlows = try #require(codeFlows[0]["threadFlows"] as? [[String: Any]])
        #expect(threadFlows.count == 1)
        let steps = try #require(threadFlows[0]["locations"] as? [[String: Any]])
        let locations = steps.compactMap { $0["location"] as? [String: Any] }
        #expect(locations.count == 4)
        #expect(locations.compactMap { ($0["message"] as? [String: Any])?["text"] as? String } == Self.flowing.codeFlow.map(\.message))
        let physical = try #require(locations[0]["physicalLocation"] as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "app/views.py")
        #expect((physical["artifactLocation"] as? [String: Any])?["uriBaseId"] as? String == SARIFRenderer.sourceRootId)
        #expect(physical["region"] as? [String: Int] == ["startLine": 4, "startColumn": 9, "endLine": 4])
        let sink = try #require(locations[3]["physicalLocation"] as? [String: Any])
        #expect((sink["artifactLocation"] as? [String: Any])?["uri"] as? String == "app/tools.py")
    }

    @Test func sarifFlowPathsGetThePrefixToo() throws {
        let sarif = SARIFRenderer(sourceRoot: "/repo", pathPrefix: "services/api").render(Report(findings: [Self.flowing]))
        #expect(sarif.contains("\"uri\": \"services/api/app/views.py\""))
        #expect(!sarif.contains("\"uri\": \"app/views.py\""))
    }

    @Test func htmlListsTheStepsInOrderEscaped() {
        var finding = Self.flowing
        finding.codeFlow[2].message = "passed to <b>helper</b> run(cmd)"
        let html = HTMLRenderer().render(Report(findings: [finding]))
        #expect(
            html.contains(
                "<ol class=\"flow\"><li><span class=\"loc\">app/views.py:4:9</span> source: request.args</li>"
                    + "<li><span class=\"loc\">app/views.py:4:5</span> q = request.args[&#39;q&#39;]</li>"
                    + "<li><span class=\"loc\">app/views.py:5:5</span> passed to &lt;b&gt;helper&lt;/b&gt; run(cmd)</li>"
                    + "<li><span class=\"loc\">app/tools.py:9:5</span> sink: os.system</li></ol>"))
        #expect(!html.contains("<b>helper"))
        let linked = HTMLRenderer(sourceBaseURL: "https://github.com/o/r/blob/abc/").render(Report(findings: [finding]))
        #expect(linked.contains("<a href=\"https://github.com/o/r/blob/abc/app/views.py#L5\""))
        #expect(!HTMLRenderer().render(Report(findings: [Fixtures.weakHash()])).contains("<ol class=\"flow\">"))
    }
}
