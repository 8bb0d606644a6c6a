/// Ordering, de-duplication and counting over findings.
extension Finding {
    /// The deterministic report order: file (or URL), line, column, then rule id, higher severity
    /// first, tool and message as tie-breakers so equal inputs always print the same way.
    public static func reportOrder(_ a: Finding, _ b: Finding) -> Bool {
        let (x, y) = (a.location, b.location)
        if x.isWeb != y.isWeb { return !x.isWeb }  // source findings before web findings
        if x.artifact != y.artifact { return x.artifact < y.artifact }
        if (x.startLine ?? 0) != (y.startLine ?? 0) { return (x.startLine ?? 0) < (y.startLine ?? 0) }
        if (x.startColumn ?? 0) != (y.startColumn ?? 0) { return (x.startColumn ?? 0) < (y.startColumn ?? 0) }
        if (x.method ?? "") != (y.method ?? "") { return (x.method ?? "") < (y.method ?? "") }
        if (x.parameter ?? "") != (y.parameter ?? "") { return (x.parameter ?? "") < (y.parameter ?? "") }
        if a.ruleId != b.ruleId { return a.ruleId < b.ruleId }
        if a.severity != b.severity { return a.severity > b.severity }
        if a.tool != b.tool { return a.tool < b.tool }
        if a.message != b.message { return a.message < b.message }
        return a.fingerprint < b.fingerprint
    }
}

extension Array where Element == Finding {
    /// The findings in `Finding.reportOrder`.
    public func sortedForReport() -> [Finding] { sorted(by: Finding.reportOrder) }

    /// Number of findings per severity; every severity is present (0 when none).
    public func countsBySeverity() -> [Severity: Int] {
        var counts = Dictionary(uniqueKeysWithValues: Severity.allCases.map { ($0, 0) })
        for finding in self { counts[finding.severity, default: 0] += 1 }
        return counts
    }

    /// Number of findings per tool name.
    public func countsByTool() -> [ToolName: Int] {
        var counts: [ToolName: Int] = [:]
        for finding in self { counts[finding.tool, default: 0] += 1 }
        return counts
    }

    /// Merges findings that different tools made about the same thing, in two passes:
    ///
    /// 1. An external adapter's finding (Bandit, Semgrep) that a native rule also reports -- same
    ///    file, overlapping lines, and a mapped check (`equivalence`: the tool's check id, Bandit's
    ///    recorded test id → native rules), or, for a check the table does not map, a CWE in
    ///    common on the same start line -- is folded into the native finding, which keeps its id,
    ///    severity and fingerprint whatever the confidences. So the results do not depend on
    ///    which external tools are installed.
    /// 2. Other findings with the same file, start line and a CWE in common (a CWE and its parent
    ///    count as one, `cweParents`) merge into the one
    ///    with the higher confidence (then severity; a built-in engine before an adapter). An
    ///    adapter and the native engine merge only through pass 1.
    ///
    /// The survivor records the others in `facts.pipeline.alsoReportedBy` (tools) and
    /// `alsoReportedAs` (rule ids). Order of survivors is preserved.
    public func deduplicated(equivalence: RuleEquivalence = RuleEquivalence()) -> [Finding] {
        var result = self
        var dropped = Set<Int>()
        foldAdapterCopies(into: &result, dropped: &dropped, equivalence: equivalence)

        var byKey: [DedupeKey: [Int]] = [:]
        for (index, finding) in enumerated() where !dropped.contains(index) {
            guard let file = finding.location.file, let line = finding.location.startLine, !finding.cwe.isEmpty
            else { continue }
            byKey[DedupeKey(file: file, line: line), default: []].append(index)
        }
        for indices in byKey.values where indices.count > 1 {
            // Only findings of different tools merge: one tool's group (a line of 1,000 secrets)
            // has nothing to fold, and is not compared pair by pair.
            let tool = self[indices[0]].tool
            guard indices.contains(where: { self[$0].tool != tool }) else { continue }
            // Best first, so each finding is folded into the strongest overlapping one.
            let ranked = indices.sorted {
                Self.preferred(self[$0], over: self[$1]) || (!Self.preferred(self[$1], over: self[$0]) && $0 < $1)
            }
            for (position, loser) in ranked.enumerated() where position > 0 {
                guard
                    let winner = ranked[..<position].first(where: { candidate in
                        !dropped.contains(candidate) && self[candidate].tool != self[loser].tool
                            && !Self.nativeAndAdapter(self[candidate], self[loser])
                            && !Self.weaknesses(self[candidate]).isDisjoint(with: Self.weaknesses(self[loser]))
                    })
                else { continue }
                dropped.insert(loser)
                Self.note(result[loser], on: &result[winner])
            }
        }
        return result.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }

    /// Pass 1 of `deduplicated`: adapter findings folded into the native finding of the same check.
    private func foldAdapterCopies(into result: inout [Finding], dropped: inout Set<Int>, equivalence: RuleEquivalence) {
        var nativeByFile: [String: [Int]] = [:]
        for (index, finding) in enumerated() where finding.tool == ToolName.native {
            if let file = finding.location.file { nativeByFile[file, default: []].append(index) }
        }
        guard !nativeByFile.isEmpty else { return }
        for (index, finding) in enumerated() where !ToolName.builtIn.contains(finding.tool) {
            guard let file = finding.location.file, let candidates = nativeByFile[file] else { continue }
            // Bandit's copy names its check by the test id it recorded.
            let check = finding.facts.external.testId.map { RuleID(tool: finding.tool, checkId: $0) } ?? RuleID(finding.ruleId)
            let mapped = Set(equivalence.nativeRules(for: check))
            // A mapped Bandit test merges only into its native rules; anything else (Semgrep, a
            // Bandit test no native rule maps) also when a CWE is shared on the same start line.
            let byCWE = (finding.tool != ToolName.bandit || mapped.isEmpty) && !finding.cwe.isEmpty
            let matches = candidates.filter { candidate in
                let native = self[candidate]
                guard Self.linesOverlap(native.location, finding.location) else { return false }
                if mapped.contains(native.ruleId) { return true }
                return byCWE && native.location.startLine == finding.location.startLine
                    && !Set(native.cwe).isDisjoint(with: finding.cwe)
            }
            // The mapped rule first, then the most severe.
            guard
                let winner = matches.min(by: { a, b in
                    let (x, y) = (self[a], self[b])
                    if mapped.contains(x.ruleId) != mapped.contains(y.ruleId) { return mapped.contains(x.ruleId) }
                    if x.severity != y.severity { return x.severity > y.severity }
                    return a < b
                })
            else { continue }
            dropped.insert(index)
            Self.note(finding, on: &result[winner])
        }
    }

    /// CWEs that name a special case of another weakness Sentinel reports: one line's
    /// `SECRET_KEY = "…"` is a hard-coded key (321) to one rule and a hard-coded credential (798)
    /// to the secrets scan -- one finding (issue 55).
    static let cweParents: [Int: Int] = [259: 798, 321: 798]

    /// A finding's CWEs with the parents of those that have one.
    private static func weaknesses(_ finding: Finding) -> Set<Int> {
        Set(finding.cwe + finding.cwe.compactMap { cweParents[$0] })
    }

    /// Whether two locations share a line (a location without lines shares none).
    private static func linesOverlap(_ a: Location, _ b: Location) -> Bool {
        guard let x = a.lineRange, let y = b.lineRange else { return false }
        return x.overlaps(y)
    }

    /// A native finding paired with an external adapter's (these merge only through pass 1).
    private static func nativeAndAdapter(_ a: Finding, _ b: Finding) -> Bool {
        (a.tool == ToolName.native && !ToolName.builtIn.contains(b.tool))
            || (b.tool == ToolName.native && !ToolName.builtIn.contains(a.tool))
    }

    private static func preferred(_ a: Finding, over b: Finding) -> Bool {
        if a.confidence != b.confidence { return a.confidence > b.confidence }
        if a.severity != b.severity { return a.severity > b.severity }
        let (x, y) = (ToolName.builtIn.contains(a.tool), ToolName.builtIn.contains(b.tool))
        if x != y { return x }
        return false
    }

    private static func note(_ other: Finding, on winner: inout Finding) {
        winner.facts.pipeline.noteCopy(tool: other.tool, ruleId: other.ruleId)
        // What the other finding had already absorbed travels with it.
        for tool in other.facts.pipeline.alsoReportedBy ?? [] { winner.facts.pipeline.noteCopy(tool: tool, ruleId: nil) }
        for rule in other.facts.pipeline.alsoReportedAs ?? [] { winner.facts.pipeline.noteCopy(tool: nil, ruleId: rule) }
        winner.facts.adoptMissing(from: other.facts)
        // A proven path is worth keeping whichever copy found it.
        if winner.codeFlow.isEmpty { winner.codeFlow = other.codeFlow }
    }
}

/// Findings merge only when they share file and start line.
private struct DedupeKey: Hashable {
    let file: String
    let line: Int
}

extension Report {
    /// The pipeline's last step: repeated matches get occurrence fingerprints, cross-tool
    /// duplicates are merged, and findings are put in report order.
    public func finalized(equivalence: RuleEquivalence = RuleEquivalence()) -> Report {
        var copy = self
        copy.findings = Fingerprint.assignOccurrences(findings).deduplicated(equivalence: equivalence).sortedForReport()
        return copy
    }

    /// The descriptor for `ruleId`, if the report has one.
    public func rule(_ ruleId: String) -> RuleDescriptor? {
        rules.first { $0.id == ruleId }
    }

    /// `12 low-confidence findings not shown (--min-confidence low shows them)`, the line every
    /// format prints when `--min-confidence` hid findings; nil when it hid none.
    public var belowConfidenceSummary: String? {
        guard belowConfidenceCount > 0 else { return nil }
        let kind = minimumConfidence == .high ? "low- or medium-confidence" : "low-confidence"
        let noun = belowConfidenceCount == 1 ? "finding" : "findings"
        return "\(belowConfidenceCount) \(kind) \(noun) not shown (--min-confidence low shows them)"
    }

    /// True when any tool failed; the scan then exits 3.
    public var anyToolFailed: Bool { tools.contains { $0.status == .failed } }

    /// Tool names in the report: those that ran plus any that only appear on findings, sorted.
    public var toolNames: [ToolName] {
        Array(Set(tools.map(\.name)).union(findings.map(\.tool))).sorted()
    }
}
