import SourcePositions
import Testing

@testable import Findings

/// Issue 28: a tool's suppression comment is data its scanner declares, not a branch in
/// `Suppressions`.
@Suite struct SuppressionSyntaxTests {
    /// A tool Sentinel has never heard of, with a comment of its own.
    static let lint = SuppressionSyntax(marker: "nolintx", tool: "lintx", matching: .caseInsensitive, coversNextLine: true)

    static func finding(_ rule: String, tool: ToolName, line: Int = 1) -> Finding {
        Finding(ruleId: rule, tool: tool, severity: .high, message: "m", location: Location(file: "a.py", startLine: line))
    }

    static func hidden(_ findings: [Finding], _ source: String, syntaxes: [SuppressionSyntax]) -> [String] {
        let lines = LineIndex(source)
        return Suppressions.apply(to: findings, syntaxes: syntaxes, sources: { _ in lines }).suppressed.map(\.ruleId)
    }

    @Test func aDeclaredSyntaxHidesTheFindingsOfTheChecksItNames() {
        let findings = [Self.finding("lintx.L1", tool: "lintx"), Self.finding("lintx.L2", tool: "lintx")]
        #expect(Self.hidden(findings, "x()  # nolintx l1\n", syntaxes: [Self.lint]) == ["lintx.L1"])
        #expect(Self.hidden(findings, "x()  # nolintx: L1, L2\n", syntaxes: [Self.lint]) == ["lintx.L1", "lintx.L2"])
        #expect(Self.hidden(findings, "x()  # nolintx\n", syntaxes: [Self.lint]) == ["lintx.L1", "lintx.L2"])
        let below = [Self.finding("lintx.L1", tool: "lintx", line: 2)]
        #expect(Self.hidden(below, "# nolintx L1\nx()\n", syntaxes: [Self.lint]) == ["lintx.L1"])
        var sameLineOnly = Self.lint
        sameLineOnly.coversNextLine = false
        #expect(Self.hidden(below, "# nolintx L1\nx()\n", syntaxes: [sameLineOnly]).isEmpty)
    }

    @Test func theKindIsRecordedAsTheMarker() throws {
        let lines = LineIndex("x()  # nolintx L1\n")
        let result = Suppressions.apply(
            to: [Self.finding("lintx.L1", tool: "lintx")], syntaxes: [Self.lint], sources: { _ in lines })
        let hidden = try #require(result.suppressed.first)
        #expect(hidden.facts.pipeline.suppressionKind == SuppressionKind(rawValue: "nolintx"))
        #expect(hidden.facts.properties["suppressionKind"] == "nolintx")
        #expect(FindingFacts(properties: hidden.facts.properties).pipeline.suppressionKind == Self.lint.kind)
        #expect(result.extraFindings.isEmpty, "a tool's comment needs no reason")
    }

    @Test func aSyntaxNoScannerDeclaredIsPlainText() {
        let findings = [Self.finding("lintx.L1", tool: "lintx"), Self.finding("bandit.B602", tool: "bandit")]
        #expect(Self.hidden(findings, "x()  # nolintx\n", syntaxes: []).isEmpty)
        #expect(Self.hidden(findings, "x()  # nosec\n", syntaxes: [Self.lint]).isEmpty)
        #expect(Suppressions.parse(line: "x()  # nolintx L1").isEmpty)
        #expect(Suppressions.candidateLines(LineIndex("a()\nx()  # nolintx\n"), syntaxes: []).isEmpty)
        #expect(Suppressions.candidateLines(LineIndex("a()\nx()  # nolintx\n"), syntaxes: [Self.lint]) == [2])
    }

    @Test func aToolsIdsNeverNameAnotherToolsChecks() {
        // `# nolintx B602` names lintx's check B602, not Bandit's.
        let findings = [Self.finding("bandit.B602", tool: "bandit"), Self.finding("python.cmdi", tool: "native")]
        #expect(Self.hidden(findings, "x()  # nolintx B602\n", syntaxes: [Self.lint] + ToolSyntaxes.all).isEmpty)
        #expect(Self.hidden(findings, "x()  # nosec B602\n", syntaxes: [Self.lint] + ToolSyntaxes.all) == ["bandit.B602"])
    }

    @Test func checkIdsMatchAsTheToolDeclares() {
        #expect(CheckIDMatching.caseInsensitive.matches("B602", "b602"))
        #expect(!CheckIDMatching.caseInsensitive.matches("x.B602", "B602"))
        #expect(CheckIDMatching.dottedSuffix.matches("python.lang.eval-detected.eval-detected", "Eval-Detected"))
        #expect(CheckIDMatching.dottedSuffix.matches("eval-detected", "a.eval-detected"))
        #expect(!CheckIDMatching.dottedSuffix.matches("noteval-detected", "eval-detected"))
    }

    @Test func theEquivalenceTableMatchesEachToolsIdsAsItsSyntaxDeclares() {
        var table = RuleEquivalence()
        table.add(nativeRule: "python.eval-used", checkIds: ["python.lang.eval-detected"], of: "lintx")
        #expect(table.nativeRules(for: RuleID("lintx.eval-detected")).isEmpty, "exact unless declared otherwise")
        var suffix = Self.lint
        suffix.matching = .dottedSuffix
        #expect(table.declaring([suffix]).nativeRules(for: RuleID("lintx.eval-detected")) == ["python.eval-used"])
        #expect(table.checkIds(of: "lintx", forNative: "python.eval-used") == ["python.lang.eval-detected"])
        #expect(table.tools == ["lintx"])
    }
}
