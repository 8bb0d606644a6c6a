import SourcePositions

/// The steps between the scanners and the renderers (DESIGN §2), in one place so that every
/// caller applies them in the same order:
/// severity overrides → occurrence fingerprints → cross-tool de-duplication → suppressions →
/// `--since` filter (+ the change's own findings) → baseline → `--severity` filter → `--min-confidence` filter → report order →
/// gate. De-duplication comes before suppressions so that a comment naming one tool's id hides the
/// merged finding whichever tool reported it; the filters come before the gate so that it judges
/// only what the report shows.
public struct FindingsPipeline: Sendable {
    /// `--fail-on`.
    public var gate: Gate
    /// `--baseline`: accepted findings are hidden and counted.
    public var baseline: Baseline?
    /// Per-rule severities from the config (rule id → severity).
    public var severityOverrides: [String: Severity]
    /// `--since REV`: only findings on these lines are kept.
    public var changedLines: ChangedLines?
    /// `--severity`: findings below it are hidden (and so not gated), only counted.
    public var minimumSeverity: Severity?
    /// `--min-confidence`: findings below it are hidden (and so not gated), only counted; nil
    /// keeps every confidence. The CLI's default is `Confidence.defaultMinimum`.
    public var minimumConfidence: Confidence?
    /// Which native rules cover which external tools' checks (de-duplication and suppressions).
    public var equivalence: RuleEquivalence
    /// The external tools' suppression comments (`# nosec`), as their scanners declare them:
    /// those of every scanner Sentinel knows, whether or not it ran.
    public var suppressionSyntaxes: [SuppressionSyntax]
    /// False (`--no-inline-suppressions`): no comment in the code hides anything, and none is
    /// reported on.
    public var inlineSuppressions = true
    /// Findings about a pull request's change itself (`ChangeReview`: its configuration edits),
    /// added after the `--since` filter: they need not lie on a changed line (a deleted file).
    public var changeFindings: [Finding] = []
    /// The files the scan analysed (relative paths): with `changedLines`, a suppression the change
    /// adds there is reported even where it hides no finding yet.
    public var scannedFiles: Set<String> = []

    /// Makes a pipeline; by default with the default gate and no baseline, overrides or filters.
    public init(
        gate: Gate = Gate(), baseline: Baseline? = nil, severityOverrides: [String: Severity] = [:],
        changedLines: ChangedLines? = nil, minimumSeverity: Severity? = nil, minimumConfidence: Confidence? = nil,
        equivalence: RuleEquivalence = RuleEquivalence(), suppressionSyntaxes: [SuppressionSyntax] = []
    ) {
        self.gate = gate
        self.baseline = baseline
        self.severityOverrides = severityOverrides
        self.changedLines = changedLines
        self.minimumSeverity = minimumSeverity
        self.minimumConfidence = minimumConfidence
        self.equivalence = equivalence
        self.suppressionSyntaxes = suppressionSyntaxes
    }

    /// Runs the steps on `report` (its findings as the scanners produced them). `sources` returns a
    /// file's lines for the suppression check. Returns the final report and the exit status.
    public func process(_ report: Report, sources: (String) -> LineIndex?) -> (report: Report, exitStatus: ScanExitStatus) {
        var result = report
        var findings = report.findings.map { finding -> Finding in
            guard let severity = severityOverrides[finding.ruleId] else { return finding }
            var copy = finding
            copy.severity = severity
            return copy
        }
        let equivalence = equivalence.declaring(suppressionSyntaxes)
        findings = Fingerprint.assignOccurrences(findings).deduplicated(equivalence: equivalence)

        if inlineSuppressions {
            // With `--since`, the lines the change writes are the head's: its suppressions there hide nothing.
            let suppression = Suppressions.apply(
                to: findings, equivalence: equivalence, syntaxes: suppressionSyntaxes, head: changedLines,
                reviewSeverity: ChangeReview.severity(under: gate), scannedFiles: scannedFiles, sources: sources)
            findings = suppression.kept + suppression.extraFindings
            result.suppressedCount += suppression.suppressed.count
        }

        if let changedLines { findings = changedLines.filter(findings) }
        findings += changeFindings
        for rule in [Suppressions.missingReasonRule, ChangeReview.suppressionAddedRule, ChangeReview.configChangedRule]
        where findings.contains(where: { $0.ruleId == rule.id }) && !result.rules.contains(where: { $0.id == rule.id }) {
            result.rules.append(rule)
        }
        if let baseline {
            let (new, known) = baseline.filter(findings)
            findings = new
            result.baselinedCount += known.count
        }
        if let minimumSeverity {
            let shown = findings.filter { $0.severity >= minimumSeverity }
            result.belowSeverityCount += findings.count - shown.count
            findings = shown
        }
        if let minimumConfidence {
            // After `--severity`, so the count is what `--min-confidence low` would add to this report.
            let shown = findings.filter { $0.confidence >= minimumConfidence }
            result.belowConfidenceCount += findings.count - shown.count
            result.minimumConfidence = minimumConfidence
            findings = shown
        }
        result.findings = findings.sortedForReport()
        return (result, gate.exitStatus(for: result))
    }
}
