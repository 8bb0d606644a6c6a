import Findings
import Foundation
import Testing

@testable import Heal
@testable import Signals

/// Issue 28: the scanner that re-runs a finding comes from its typed rule id, not a string prefix test.
@Suite struct RescannerTests {
    static func finding(_ ruleId: String) -> Signal {
        Signal(kind: .finding, source: "sarif", message: "m", ruleId: ruleId)
    }

    @Test func banditsChecksAreRerunByBanditEveryOtherIdByTheNativeEngine() {
        #expect(Rescanner.forSignal(Self.finding("bandit.B602"), tool: nil)?.tool == ToolName.bandit)
        #expect(Rescanner.forSignal(Self.finding("python.eval-used"), tool: nil)?.tool == ToolName.native)
        #expect(Rescanner.forSignal(Self.finding("semgrep.eval-detected"), tool: nil)?.tool == ToolName.native)
        #expect(Rescanner.forSignal(Self.finding("banditish.B602"), tool: nil)?.tool == ToolName.native)
    }

    @Test func aNamedToolWinsAndAnUnknownOneIsNotRerun() {
        #expect(Rescanner.forSignal(Self.finding("bandit.B602"), tool: ToolName.semgrep)?.tool == ToolName.semgrep)
        #expect(Rescanner.forSignal(Self.finding("x.y"), tool: "no-such-tool") == nil)
        let dependency = Signal(kind: .vulnerableDependency, source: "sarif", message: "m")
        #expect(Rescanner.forSignal(dependency, tool: nil)?.tool == ToolName.osv)
    }

    /// The tool a Sentinel report says raised the finding decides, not its rule id; a Bandit
    /// finding re-runs Bandit, every other one (Semgrep's, the secrets detector's) the native engine.
    @Test func theToolTheFindingCarriesDecides() {
        func signal(_ ruleId: String, tool: ToolName) -> Signal {
            Signal(kind: .finding, source: "sentinel-json", message: "m", ruleId: ruleId, tool: tool)
        }
        #expect(Rescanner.forSignal(signal("bandit.B602", tool: ToolName.bandit))?.tool == ToolName.bandit)
        #expect(Rescanner.forSignal(signal("B602", tool: ToolName.bandit))?.tool == ToolName.bandit)
        #expect(Rescanner.forSignal(signal("bandit.B602", tool: ToolName.native))?.tool == ToolName.native)
        #expect(Rescanner.forSignal(signal("semgrep.eval-detected", tool: ToolName.semgrep))?.tool == ToolName.native)
        #expect(Rescanner.forSignal(signal("secrets.github-token", tool: ToolName.secrets))?.tool == ToolName.native)
    }

    /// Sentinel's JSON and SARIF reports name the scanner, and the signal keeps it; another tool's
    /// SARIF does not, so its signal falls back to the rule id.
    @Test(arguments: [OutputFormat.json, .sarif])
    func aSentinelReportsSignalCarriesTheScanner(format: OutputFormat) throws {
        let bandit = Finding(
            ruleId: "bandit.B602", tool: ToolName.bandit, severity: .high, message: "m",
            location: Location(file: "a.py", startLine: 3))
        let text = format.renderer().render(Report(findings: [bandit]))
        let signal = try #require(try SignalReader.read(Data(text.utf8), name: "r").first)
        #expect(signal.tool == ToolName.bandit)
        #expect(Rescanner.forSignal(signal)?.tool == ToolName.bandit)
        let encoded = String(decoding: try JSONEncoder().encode(signal), as: UTF8.self)
        #expect(!encoded.contains("\"tool\""), "evidence.json keeps its shape")
    }

    @Test func anotherToolsSARIFNamesNoScanner() throws {
        let sarif = """
            {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "Bandit"}},
             "results": [{"ruleId": "B602", "message": {"text": "m"},
              "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.py"}, "region": {"startLine": 3}}}]}]}]}
            """
        let signal = try #require(try SignalReader.read(Data(sarif.utf8), name: "bandit.sarif").first)
        #expect(signal.tool == nil)
        #expect(Rescanner.forSignal(signal)?.tool == ToolName.native, "B602 is not a Bandit rule id of Sentinel's")
    }
}
