/// One in-source suppression comment.
public struct SuppressionDirective: Sendable, Hashable {
    /// The syntax the comment used: `sentinel`, or a tool's marker (`nosec`).
    public var kind: SuppressionKind
    /// The tool syntax it used; nil for `# sentinel: ignore`, which hides any tool's findings.
    public var syntax: SuppressionSyntax?
    /// The rule ids it names; empty means every rule. For a tool's syntax, that tool's check ids
    /// (`B602`, or Bandit's test names; Semgrep rule ids).
    public var ruleIds: [String]
    /// The justification after the ids; `nil` when none was written.
    public var reason: String?
    /// 1-based line of the comment.
    public var line: Int
    /// 1-based column where the comment starts.
    public var column: Int
    /// True when the line holds nothing but the comment, so it may also cover the line below.
    public var standsAlone: Bool

    /// A `# sentinel: ignore` directive, or, with `syntax`, one in that tool's syntax.
    public init(
        syntax: SuppressionSyntax? = nil, ruleIds: [String], reason: String? = nil, line: Int, column: Int,
        standsAlone: Bool
    ) {
        self.kind = syntax?.kind ?? .sentinel
        self.syntax = syntax
        self.ruleIds = ruleIds
        self.reason = reason
        self.line = line
        self.column = column
        self.standsAlone = standsAlone
    }

    /// Whether it covers the line below it: it stands alone, and its syntax reaches that far
    /// (`sentinel: ignore` always does).
    public var coversNextLine: Bool { standsAlone && (syntax?.coversNextLine ?? true) }

    /// Whether this directive hides `finding`, ignoring position. A finding is known by its own
    /// rule id, the ids of the copies folded into it (`alsoReportedAs`) and, through
    /// `equivalence`, the external tools' ids of the same check, so each syntax hides the issue
    /// whichever tool reported it. `syntaxes` are every tool syntax in use: they say which tool
    /// a finding's recorded test id belongs to.
    public func covers(
        _ finding: Finding, equivalence: RuleEquivalence = RuleEquivalence(), syntaxes: [SuppressionSyntax] = []
    ) -> Bool {
        if ruleIds.isEmpty { return true }
        let names = SuppressionDirective.names(of: finding, equivalence: equivalence, syntaxes: syntaxes + (syntax.map { [$0] } ?? []))
        guard let syntax else {
            return ruleIds.contains { pattern in names.rules.contains { SuppressionDirective.matches(pattern: pattern, ruleId: $0) } }
        }
        let checks = names.checks[syntax.tool] ?? []
        return ruleIds.contains { id in checks.contains { syntax.matching.matches($0, id) } }
    }

    /// Every id the finding's issue goes by: its rule id, the ids of the copies folded into it
    /// (`alsoReportedAs`), the external tools' check ids of its check (also as `TOOL.ID` rule
    /// ids; with the recorded test id and name for a syntax that `namesRecordedTest`), and, for
    /// an adapter's own finding, the native rules that cover its check. A native finding does not
    /// go by the other native rules that cover the same external check (`eval-used` and
    /// `taint-code-injection` both map to B307, yet are two issues): so what an ignore hides never
    /// depends on which tools ran.
    static func names(of finding: Finding, equivalence: RuleEquivalence, syntaxes: [SuppressionSyntax])
        -> (rules: [String], checks: [ToolName: [String]])
    {
        let folded = finding.facts.pipeline.alsoReportedAs ?? []
        var rules = [finding.ruleId] + equivalence.nativeRules(for: RuleID(finding.ruleId))
        var checks: [ToolName: [String]] = [:]
        let tools = Set(syntaxes.map(\.tool))
        for id in ([finding.ruleId] + folded).map(RuleID.init) {
            for tool in tools.union(id.tool.map { [$0] } ?? []) {
                if let check = id.checkId(of: tool) { checks[tool, default: []].append(check) }
            }
        }
        for tool in equivalence.tools {
            for id in rules { checks[tool, default: []] += equivalence.checkIds(of: tool, forNative: id) }
        }
        let recorded = [finding.facts.external.testId, finding.facts.external.testName ?? finding.facts.other["test_name"]]
        for syntax in syntaxes where syntax.namesRecordedTest {
            checks[syntax.tool, default: []] += recorded.compactMap { $0 }
        }
        rules += folded
        for (tool, ids) in checks.sorted(by: { $0.key < $1.key }) { rules += ids.map { RuleID(tool: tool, checkId: $0).rawValue } }
        return (rules, checks)
    }

    /// Exact match, case-insensitive; a trailing `*` matches any suffix (`python.sqli.*`).
    static func matches(pattern: String, ruleId: String) -> Bool {
        if pattern.hasSuffix("*") {
            return ruleId.lowercased().hasPrefix(pattern.dropLast().lowercased())
        }
        return pattern.lowercased() == ruleId.lowercased()
    }
}
