import Findings
import Testing

@testable import Heal

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
}
