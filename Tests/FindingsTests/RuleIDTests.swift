import Testing

@testable import Findings

/// Issue 28: a rule id's tool namespace is parsed in one place, `RuleID`.
@Suite struct RuleIDTests {
    @Test func externalToolsChecksAreNamespacedByTheTool() {
        #expect(RuleID("bandit.B602").tool == ToolName.bandit)
        #expect(RuleID("bandit.B602").checkId(of: ToolName.bandit) == "B602")
        #expect(RuleID("semgrep.python.lang.security.audit.eval-detected").tool == ToolName.semgrep)
        #expect(
            RuleID("semgrep.python.lang.security.audit.eval-detected").checkId(of: ToolName.semgrep)
                == "python.lang.security.audit.eval-detected")
        #expect(RuleID("zap.40012").tool == ToolName.zap)
        #expect(RuleID("wapiti.sql-injection").checkId(of: ToolName.wapiti) == "sql-injection")
    }

    @Test func sentinelsOwnIdsNameNoTool() {
        for id in ["python.eval-used", "secrets.github-token", "dast.sql-injection", "GHSA-xxxx-yyyy-zzzz", "B307", "", "bandit"] {
            #expect(RuleID(id).tool == nil, "\(id)")
        }
        #expect(RuleID("python.eval-used").checkId(of: ToolName.bandit) == nil)
        #expect(RuleID("semgrep.x").checkId(of: ToolName.bandit) == nil)
        #expect(RuleID("Bandit.B602").tool == nil)
    }

    @Test func aToolsCheckIdRoundTrips() {
        let id = RuleID(tool: ToolName.semgrep, checkId: "bandit.looks-like-a-prefix")
        #expect(id.rawValue == "semgrep.bandit.looks-like-a-prefix")
        #expect(id.tool == ToolName.semgrep)
        #expect(id.checkId(of: ToolName.semgrep) == "bandit.looks-like-a-prefix")
        #expect(RuleID(tool: ToolName.bandit, checkId: "B101").description == "bandit.B101")
    }
}
