/// What a pull request's scan (`scan --since REV`) reports about the change itself rather than
/// about its code (docs/SECURITY.md, "The configuration trust model"): the head may not choose its
/// own gate, so what it changes in the configuration and the suppressions it adds take effect only
/// once merged, and are shown to the reviewer now as findings that meet the gate (GitHub code
/// scanning and Semgrep show an added suppression in the pull request the same way).
public enum ChangeReview {
    /// The configuration a scan of the merged tree would read (`.sentinel.yml`, or a rule file
    /// it names) differs from the base revision's.
    public static let configChangedRuleId = "sentinel.config-changed"
    /// A suppression comment on a line the change writes.
    public static let suppressionAddedRuleId = "sentinel.suppression-added"

    /// The descriptor of `configChangedRuleId`.
    public static let configChangedRule = RuleDescriptor(
        id: configChangedRuleId, tool: ToolName.native, name: "Scan configuration changed",
        shortDescription: "The change edits the scan's configuration; it takes effect only once merged.",
        help:
            "A pull request's scan reads the configuration of its base revision (or the operator's --config). "
            + "Review what the change does to the gate, severities, models, excludes and scanners before merging it.",
        defaultSeverity: .high, tags: ["configuration"])

    /// The descriptor of `suppressionAddedRuleId`.
    public static let suppressionAddedRule = RuleDescriptor(
        id: suppressionAddedRuleId, tool: ToolName.native, name: "Suppression added",
        shortDescription: "The change adds a suppression comment; it hides nothing until merged.",
        help:
            "A pull request's scan honours only the suppressions its base revision already had on unchanged lines. "
            + "Review the finding the comment would hide and its reason before merging it.",
        defaultSeverity: .high, tags: ["suppression"])

    /// The severity of these findings under `gate`: its threshold, so that each fails the scan
    /// whatever the threshold is; `high` when findings fail nothing (`--fail-on none`).
    public static func severity(under gate: Gate) -> Severity {
        gate.failOn ?? .high
    }

    /// The finding for a configuration file the change edits, adds or deletes (`line` nil: it is
    /// not in the change's tree).
    public static func configChanged(file: String, line: Int?, severity: Severity, message: String) -> Finding {
        Finding(
            ruleId: configChangedRuleId, tool: ToolName.native, severity: severity, confidence: .high, message: message,
            location: line.map { Location(file: file, startLine: $0) } ?? Location(file: file))
    }

    /// The finding for `directive`, a suppression on a line the change writes in `file`.
    static func suppressionAdded(file: String, directive: SuppressionDirective, text: String, severity: Severity) -> Finding {
        let marker = directive.syntax?.marker ?? "sentinel: ignore"
        return Finding(
            ruleId: suppressionAddedRuleId, tool: ToolName.native, severity: severity, confidence: .high,
            message:
                "Suppression added in this change (\(marker)): a pull request's own suppressions hide nothing here; "
                + "review what it would hide once merged",
            location: Location(file: file, startLine: directive.line, startColumn: directive.column), snippet: text)
    }
}
