@testable import Findings

/// Bandit's and Semgrep's suppression comments as their adapters declare them
/// (`BanditScanner.suppressionSyntax`, `SemgrepScanner.suppressionSyntax`; Findings tests do not
/// see Adapters, and ScanTests check that the registry hands these over).
enum ToolSyntaxes {
    static let nosec = SuppressionSyntax(
        marker: "nosec", tool: ToolName.bandit, matching: .caseInsensitive, coversNextLine: false, namesRecordedTest: true)
    static let nosemgrep = SuppressionSyntax(
        marker: "nosemgrep", tool: ToolName.semgrep, matching: .dottedSuffix, coversNextLine: true)
    static let all = [nosec, nosemgrep]
}

extension RuleEquivalence {
    /// Records a native rule's Bandit and Semgrep ids, as the rule metadata does.
    mutating func add(nativeRule: String, banditIds: [String], semgrepIds: [String]) {
        add(nativeRule: nativeRule, checkIds: banditIds, of: ToolName.bandit)
        add(nativeRule: nativeRule, checkIds: semgrepIds, of: ToolName.semgrep)
    }
}
