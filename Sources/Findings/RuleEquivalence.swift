/// Which native rules check what an external tool's check checks (from the rules'
/// `metadata.bandit` / `metadata.semgrep`), by tool. The pipeline uses it to fold an adapter's
/// copy of an issue into the native finding, and to let a tool's suppression comment
/// (`# nosec B307`) and `# sentinel: ignore[python.eval-used]` hide the issue whichever tool
/// reported it.
public struct RuleEquivalence: Sendable, Hashable {
    /// Tool → check id (lower case) → native rule ids.
    private var nativeByCheck: [ToolName: [String: [String]]] = [:]
    /// Tool → native rule id → check ids as the rule metadata spells them.
    private var checksByNative: [ToolName: [String: [String]]] = [:]
    /// How each tool's check ids match (`caseInsensitive` for a tool not listed), as the tools'
    /// `SuppressionSyntax` declare it.
    public var matching: [ToolName: CheckIDMatching] = [:]

    /// An empty table: no adapter check maps to a native rule.
    public init() {}

    /// Records that native rule `nativeRule` covers `checkIds` of `tool` (ids that differ only in
    /// case are one check).
    public mutating func add(nativeRule: String, checkIds: [String], of tool: ToolName) {
        for id in checkIds where !id.isEmpty {
            let key = id.lowercased()
            if !(nativeByCheck[tool]?[key] ?? []).contains(nativeRule) {
                nativeByCheck[tool, default: [:]][key, default: []].append(nativeRule)
            }
            if !(checksByNative[tool]?[nativeRule] ?? []).contains(where: { $0.lowercased() == key }) {
                checksByNative[tool, default: [:]][nativeRule, default: []].append(id)
            }
        }
    }

    /// The table with each syntax's tool matching as the syntax declares.
    public func declaring(_ syntaxes: [SuppressionSyntax]) -> RuleEquivalence {
        var copy = self
        for syntax in syntaxes { copy.matching[syntax.tool] = syntax.matching }
        return copy
    }

    /// The tools some native rule maps, sorted.
    public var tools: [ToolName] { nativeByCheck.keys.sorted() }

    /// Native rules that cover the external check `ruleId` (`bandit.B307`), sorted; none for
    /// Sentinel's own ids.
    public func nativeRules(for ruleId: RuleID) -> [String] {
        let tool = ruleId.tool ?? tools.first { ruleId.checkId(of: $0) != nil }
        guard let tool, let check = ruleId.checkId(of: tool), let table = nativeByCheck[tool] else { return [] }
        let rule = matching[tool] ?? .caseInsensitive
        if rule == .caseInsensitive { return (table[check.lowercased()] ?? []).sorted() }
        var result: Set<String> = []
        for (known, natives) in table where rule.matches(known, check) { result.formUnion(natives) }
        return result.sorted()
    }

    /// The check ids of `tool` that native rule `ruleId` covers.
    public func checkIds(of tool: ToolName, forNative ruleId: String) -> [String] { checksByNative[tool]?[ruleId] ?? [] }
}
