import SourcePositions
import Testing

@testable import Findings

@Suite struct SuppressionTests {
    static func finding(_ rule: String, line: Int, file: String = "app.py", tool: ToolName = "native", endLine: Int? = nil) -> Finding {
        Finding(
            ruleId: rule, tool: tool, severity: .high, message: "m",
            location: Location(file: file, startLine: line, startColumn: 1, endLine: endLine))
    }

    static func apply(_ findings: [Finding], _ source: String, file: String = "app.py") -> SuppressionResult {
        let lines = LineIndex(source)
        return Suppressions.apply(to: findings, syntaxes: ToolSyntaxes.all, sources: { $0 == file ? lines : nil })
    }

    @Test func sameLineWithReason() {
        let source = "x = 1\nos.system(cmd)  # sentinel: ignore[python.cmdi] cmd is a constant\n"
        let result = Self.apply([Self.finding("python.cmdi", line: 2), Self.finding("python.other", line: 2)], source)
        #expect(result.suppressed.map(\.ruleId) == ["python.cmdi"])
        #expect(result.kept.map(\.ruleId) == ["python.other"])
        #expect(result.extraFindings.isEmpty)
        #expect(result.suppressed.first?.facts.properties["suppressionReason"] == "cmd is a constant")
    }

    @Test func lineAboveOnlyWhenTheCommentStandsAlone() {
        let source = "# sentinel: ignore[r1] reviewed\nbad()\nok()  # sentinel: ignore[r1] reviewed\nbad()\n"
        let result = Self.apply([Self.finding("r1", line: 2), Self.finding("r1", line: 4)], source)
        #expect(result.suppressed.map(\.location.startLine) == [2])
        #expect(result.kept.map(\.location.startLine) == [4])
    }

    @Test func severalIdsAndBareIgnore() {
        let source = "a()  # sentinel: ignore[r1, r2] both fine\nb()  # sentinel: ignore -- generated code\n"
        let findings = [
            Self.finding("r1", line: 1), Self.finding("r2", line: 1), Self.finding("r3", line: 1),
            Self.finding("r9", line: 2),
        ]
        let result = Self.apply(findings, source)
        #expect(Set(result.suppressed.map(\.ruleId)) == ["r1", "r2", "r9"])
        #expect(result.kept.map(\.ruleId) == ["r3"])
        #expect(result.suppressed.last?.facts.properties["suppressionReason"] == "generated code")
    }

    @Test func slashCommentsAndWildcards() {
        let source = "eval(x); // sentinel: ignore[js.*] sandboxed\n"
        let result = Self.apply([Self.finding("js.eval", line: 1, file: "a.js")], source, file: "a.js")
        #expect(result.suppressed.count == 1)
    }

    @Test func missingReasonIsReportedAsLow() {
        let source = "x()\n    y()  # sentinel: ignore[r1]\n"
        let result = Self.apply([Self.finding("r1", line: 2)], source)
        #expect(result.suppressed.count == 1, "a reasonless suppression still suppresses")
        #expect(result.extraFindings.count == 1)
        let extra = result.extraFindings.first
        #expect(extra?.ruleId == Suppressions.missingReasonRuleId)
        #expect(extra?.severity == .low)
        #expect(extra?.location.file == "app.py")
        #expect(extra?.location.startLine == 2)
        #expect(extra?.location.startColumn == 10)
    }

    @Test func multiLineFindingIsCoveredByACommentOnAnyOfItsLines() {
        let source = "call(a,\n     b)  # sentinel: ignore[r1] ok\n"
        let result = Self.apply([Self.finding("r1", line: 1, endLine: 2)], source)
        #expect(result.suppressed.count == 1)
    }

    @Test func bareNosecHidesEveryFindingOnTheLineWhicheverTool() {
        // Bandit users expect a bare `# nosec` to silence the line, not only Bandit's copy.
        let source = "subprocess.call(c, shell=True)  # nosec\n"
        let result = Self.apply([Self.finding("bandit.B602", line: 1, tool: "bandit"), Self.finding("python.cmdi", line: 1)], source)
        #expect(Set(result.suppressed.map(\.ruleId)) == ["bandit.B602", "python.cmdi"])
        #expect(result.kept.isEmpty)
        #expect(result.extraFindings.isEmpty, "nosec needs no reason")
    }

    static let equivalence: RuleEquivalence = {
        var table = RuleEquivalence()
        table.add(
            nativeRule: "python.subprocess-shell-true", banditIds: ["B602"],
            semgrepIds: ["python.lang.security.audit.subprocess-shell-true.subprocess-shell-true"])
        table.add(
            nativeRule: "python.eval-used", banditIds: ["B307"],
            semgrepIds: ["python.lang.security.audit.eval-detected.eval-detected"])
        table.add(nativeRule: "python.partial-executable-path", banditIds: ["B607"], semgrepIds: [])
        return table
    }()

    static func applyMapped(_ findings: [Finding], _ source: String) -> Set<String> {
        let lines = LineIndex(source)
        return Set(
            Suppressions.apply(to: findings, equivalence: equivalence, syntaxes: ToolSyntaxes.all, sources: { _ in lines })
                .suppressed.map(\.ruleId))
    }

    @Test(arguments: [
        ("# nosec", ["python.subprocess-shell-true", "python.partial-executable-path", "python.other"]),
        ("# nosec B602", ["python.subprocess-shell-true"]),
        ("# nosec: B602,B607", ["python.subprocess-shell-true", "python.partial-executable-path"]),
        ("# nosec B602, B607", ["python.subprocess-shell-true", "python.partial-executable-path"]),
        ("# nosec B101", []),
        ("# nosemgrep", ["python.subprocess-shell-true", "python.partial-executable-path", "python.other"]),
        ("# nosemgrep: subprocess-shell-true", ["python.subprocess-shell-true"]),
        ("# nosemgrep: python.lang.security.audit.subprocess-shell-true.subprocess-shell-true", ["python.subprocess-shell-true"]),
        ("# nosemgrep: eval-detected", []),
        ("# sentinel: ignore[python.partial-executable-path] reviewed", ["python.partial-executable-path"]),
    ])
    func eachSyntaxHidesNativeFindingsOfTheMappedCheck(comment: String, hidden: [String]) {
        let source = "subprocess.call(c, shell=True)  " + comment + "\n"
        let findings = ["python.subprocess-shell-true", "python.partial-executable-path", "python.other"].map {
            Self.finding($0, line: 1)
        }
        #expect(Self.applyMapped(findings, source) == Set(hidden), "\(comment)")
    }

    @Test func sentinelIgnoreOfTheNativeIdHidesTheAdaptersCopy() {
        // Bandit ran alone (or the native rule did not fire): its B307 is still the eval-used check.
        let source = "eval(x)  # sentinel: ignore[python.eval-used] input is a constant\n"
        let semgrep = Self.finding("semgrep.eval-detected", line: 1, tool: "semgrep")
        #expect(
            Self.applyMapped([Self.finding("bandit.B307", line: 1, tool: "bandit"), semgrep], source)
                == ["bandit.B307", "semgrep.eval-detected"])
    }

    @Test func aMergedFindingAnswersToEveryToolsId() {
        var merged = Self.finding("python.eval-used", line: 1)
        merged.facts.pipeline.alsoReportedAs = ["bandit.B307", "semgrep.eval-detected"]
        for comment in ["# nosec B307", "# nosemgrep: eval-detected", "# sentinel: ignore[bandit.B307] ok"] {
            #expect(Self.apply([merged], "eval(x)  \(comment)\n").suppressed.count == 1, "\(comment)")
        }
    }

    /// Two native rules cover Bandit's B307 (`eval-used` and the taint rule); Bandit's copy folds
    /// into one of them. What each ignore hides must not depend on whether Bandit ran.
    @Test(arguments: [
        ("# sentinel: ignore[python.eval-used] reviewed", ["python.eval-used"]),
        ("# sentinel: ignore[python.taint-code-injection] reviewed", ["python.taint-code-injection"]),
        ("# sentinel: ignore[bandit.B307] reviewed", ["python.eval-used", "python.taint-code-injection"]),
        ("# nosec B307", ["python.eval-used", "python.taint-code-injection"]),
    ])
    func anIgnoreHidesTheSameWithOrWithoutTheAdapter(comment: String, hidden: [String]) {
        var table = Self.equivalence
        table.add(nativeRule: "python.taint-code-injection", banditIds: ["B307"], semgrepIds: [])
        let lines = LineIndex("x = eval(input())  " + comment)
        func hiddenIds(_ findings: [Finding]) -> Set<String> {
            Set(
                Suppressions.apply(to: findings, equivalence: table, syntaxes: ToolSyntaxes.all, sources: { _ in lines })
                    .suppressed.map(\.ruleId))
        }
        let nativeOnly = [Self.finding("python.eval-used", line: 1), Self.finding("python.taint-code-injection", line: 1)]
        var merged = nativeOnly
        merged[1].facts.pipeline.alsoReportedAs = ["bandit.B307"]
        merged[1].facts.pipeline.alsoReportedBy = ["bandit"]
        #expect(hiddenIds(nativeOnly) == Set(hidden), "native only: \(comment)")
        #expect(hiddenIds(merged) == Set(hidden), "with Bandit folded in: \(comment)")
    }

    @Test func nosemgrepAloneOnTheLineAboveCoversTheNextLine() {
        let result = Self.apply([Self.finding("python.cmdi", line: 2)], "# nosemgrep\nos.system(x)\n")
        #expect(result.suppressed.count == 1)
        #expect(Suppressions.parse(line: "x()  # nosemgrep: a.b, c", syntaxes: ToolSyntaxes.all).first?.ruleIds == ["a.b", "c"])
        #expect(
            Suppressions.parse(line: "x()  # nosemgrep: a.b, c", syntaxes: ToolSyntaxes.all).first?.kind
                == SuppressionKind(rawValue: "nosemgrep"))
    }

    @Test(arguments: [
        ("# nosec B602, B607", true, true, false),
        ("# nosec B602,B607", true, true, false),
        ("# nosec: B607", false, true, false),
        ("#nosec", true, true, true),
        ("# nosecurity", false, false, false),
    ])
    func nosecWithIds(comment: String, b602: Bool, b607: Bool, b101: Bool) {
        let source = "call()  " + comment + "\n"
        let findings = ["bandit.B602", "bandit.B607", "bandit.B101"].map { Self.finding($0, line: 1, tool: "bandit") }
        let suppressed = Set(Self.apply(findings, source).suppressed.map(\.ruleId))
        #expect(suppressed.contains("bandit.B602") == b602)
        #expect(suppressed.contains("bandit.B607") == b607)
        #expect(suppressed.contains("bandit.B101") == b101)
    }

    @Test func nosecDoesNotApplyToTheNextLine() {
        let result = Self.apply([Self.finding("bandit.B101", line: 2, tool: "bandit")], "# nosec\nassert x\n")
        #expect(result.kept.count == 1)
    }

    @Test(arguments: ["# sentinel: ignored[r1] x", "# sentinelx: ignore[r1] x", "x = 'sentinel: ignore'", "# sentinel: ignore[r1 unclosed"])
    func notDirectives(line: String) {
        #expect(Suppressions.parse(line: line).filter { $0.kind == .sentinel }.isEmpty)
    }

    @Test func unreadableSourceKeepsEverything() {
        let findings = [
            Self.finding("r1", line: 1), Finding(ruleId: "w", severity: .low, message: "m", location: Location(url: "http://x/")),
        ]
        let result = Suppressions.apply(to: findings, sources: { _ in nil })
        #expect(result.kept == findings)
        #expect(result.suppressed.isEmpty && result.extraFindings.isEmpty)
    }

    @Test func readsEachFileOnce() {
        nonisolated(unsafe) var reads = 0
        let lines = LineIndex("a()  # sentinel: ignore[r1] fine\nb()")
        _ = Suppressions.apply(
            to: [Self.finding("r1", line: 1), Self.finding("r2", line: 2), Self.finding("r3", line: 1)],
            sources: { _ in
                reads += 1
                return lines
            })
        #expect(reads == 1)
    }

    /// CRLF and lone-CR files: the directive is found on its own line, so it hides the finding.
    @Test(arguments: ["\r\n", "\r"])
    func sentinelIgnoreAndNosecWorkWhateverTheLineEnding(newline: String) {
        let source = [
            "x = 1", "os.system(cmd)  # sentinel: ignore[python.cmdi] cmd is a constant",
            "subprocess.call(cmd, shell=True)  # nosec", "",
        ].joined(separator: newline)
        let findings = [
            Self.finding("python.cmdi", line: 2), Self.finding("bandit.B602", line: 3, tool: "bandit"),
            Self.finding("python.other", line: 1),
        ]
        let result = Self.apply(findings, source)
        #expect(result.suppressed.map(\.ruleId) == ["python.cmdi", "bandit.B602"])
        #expect(result.suppressed.first?.facts.properties["suppressionReason"] == "cmd is a constant")
        #expect(result.kept.map(\.ruleId) == ["python.other"])
    }

    @Test func aCRLFCommentAloneAboveCoversTheNextLine() {
        let source = "# sentinel: ignore[r1] fine\r\nrun()\r\n"
        #expect(Self.apply([Self.finding("r1", line: 2)], source).suppressed.count == 1)
    }

    /// Only lines that mention a marker are parsed; the others cannot hold a directive.
    @Test func candidateLinesAreThoseWithAMarker() {
        let source = "a()\r\nb()  # nosec B101\r\nc()\n# sentinel: ignore[r] why\nnosemgrep = 1\nnosecurity()\n"
        #expect(Suppressions.candidateLines(LineIndex(source), syntaxes: ToolSyntaxes.all) == [2, 4, 5, 6])
        #expect(Suppressions.candidateLines(LineIndex(""), syntaxes: ToolSyntaxes.all).isEmpty)
        #expect(Suppressions.candidateLines(LineIndex("x = 'nose'\n"), syntaxes: ToolSyntaxes.all).isEmpty)
    }

    @Test func aDirectiveOnTheLastLineWithoutNewlineStillCounts() {
        let result = Self.apply([Self.finding("r1", line: 2)], "x = 1\nbad()  # sentinel: ignore[r1] reviewed")
        #expect(result.suppressed.map(\.ruleId) == ["r1"])
    }
}
