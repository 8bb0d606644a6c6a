import Foundation
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

/// Issue 28: a tool's name is a type of its own, written as the plain string.
@Suite struct ToolNameTests {
    @Test func roundTripsJSONAsAPlainString() throws {
        let encoded = try JSONEncoder().encode([ToolName.bandit, "lintx"])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["bandit","lintx"]"#)
        #expect(try JSONDecoder().decode([ToolName].self, from: encoded) == [.bandit, "lintx"])
        let run = String(decoding: try JSONEncoder().encode(ToolRun(name: .semgrep)), as: UTF8.self)
        #expect(run.contains(#""name":"semgrep""#))
        let finding = Finding(ruleId: "bandit.B602", tool: .bandit, severity: .high, message: "m", location: Location(file: "a.py"))
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(finding)) as? [String: Any])
        #expect(object["tool"] as? String == "bandit")
    }

    @Test func comparesAndPrintsAsItsName() {
        #expect([ToolName.semgrep, .bandit, .native].sorted() == [.bandit, .native, .semgrep])
        #expect("\(ToolName.osv)" == "osv" && ToolName("zap") == .zap && ToolName(rawValue: "dast") == .dast)
        #expect(ToolName.builtIn.contains("secrets") && !ToolName.builtIn.contains(.bandit))
        #expect(RuleID("wapiti.x").tool == .wapiti && RuleID("lintx.L1").checkId(of: "lintx") == "L1")
    }
}
