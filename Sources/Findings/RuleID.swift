/// A finding's rule id, read in one place: an external tool's check is namespaced by the tool
/// (`bandit.B602`, `semgrep.<check id>`, `wapiti.<category>`, `zap.<plugin id>`); Sentinel's own
/// ids (`python.eval-used`, `secrets.github-token`, `dast.sql-injection`, advisory ids) are not.
public struct RuleID: Sendable, Hashable, CustomStringConvertible {
    /// The id as findings carry it in `ruleId`.
    public let rawValue: String

    /// The tools whose checks carry their own ids under the tool's name.
    public static let namespacedTools: Set<ToolName> = [ToolName.bandit, ToolName.semgrep, ToolName.wapiti, ToolName.zap]

    /// The id `rawValue`, as written.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The id of `tool`'s own check `checkId` (`bandit`, `B602` → `bandit.B602`).
    public init(tool: ToolName, checkId: String) {
        self.rawValue = tool.rawValue + "." + checkId
    }

    /// The external tool whose check this is (`bandit` for `bandit.B602`); nil for Sentinel's own ids.
    public var tool: ToolName? {
        guard let dot = rawValue.firstIndex(of: ".") else { return nil }
        let prefix = ToolName(String(rawValue[..<dot]))
        return Self.namespacedTools.contains(prefix) ? prefix : nil
    }

    /// The tool's own id when this is `tool`'s check (`B602` of `bandit.B602` for `bandit`), else
    /// nil. Any tool namespaces its checks so, also one `tool` does not know (a scanner's own).
    public func checkId(of tool: ToolName) -> String? {
        let prefix = tool.rawValue + "."
        guard !tool.rawValue.isEmpty, rawValue.hasPrefix(prefix) else { return nil }
        return String(rawValue.dropFirst(prefix.count))
    }

    /// The id as written.
    public var description: String { rawValue }
}
