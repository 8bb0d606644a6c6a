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
    public func countsByTool() -> [String: Int] {
        var counts: [String: Int] = [:]
        for finding in self { counts[finding.tool, default: 0] += 1 }
        return counts
    }

    /// Merges findings that different tools made about the same thing: same file, same start line
    /// and at least one CWE in common. The survivor is the one with the higher confidence (then
    /// severity, then the native `sentinel` tool); it records the others in
    /// `properties["alsoReportedBy"]` (tools) and `properties["alsoReportedAs"]` (rule ids).
    /// Findings without a CWE or a line are never merged. Order of survivors is preserved.
    public func deduplicated() -> [Finding] {
        var byKey: [DedupeKey: [Int]] = [:]
        for (index, finding) in enumerated() {
            guard let file = finding.location.file, let line = finding.location.startLine, !finding.cwe.isEmpty
            else { continue }
            byKey[DedupeKey(file: file, line: line), default: []].append(index)
        }
        var result = self
        var dropped = Set<Int>()
        for indices in byKey.values where indices.count > 1 {
            // Best first, so each finding is folded into the strongest overlapping one.
            let ranked = indices.sorted {
                Self.preferred(self[$0], over: self[$1]) || (!Self.preferred(self[$1], over: self[$0]) && $0 < $1)
            }
            for (position, loser) in ranked.enumerated() where position > 0 {
                guard
                    let winner = ranked[..<position].first(where: { candidate in
                        !dropped.contains(candidate) && self[candidate].tool != self[loser].tool
                            && !Set(self[candidate].cwe).isDisjoint(with: self[loser].cwe)
                    })
                else { continue }
                dropped.insert(loser)
                Self.note(self[loser], on: &result[winner])
            }
        }
        return result.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }

    private static func preferred(_ a: Finding, over b: Finding) -> Bool {
        if a.confidence != b.confidence { return a.confidence > b.confidence }
        if a.severity != b.severity { return a.severity > b.severity }
        if (a.tool == "sentinel") != (b.tool == "sentinel") { return a.tool == "sentinel" }
        return false
    }

    private static func note(_ other: Finding, on winner: inout Finding) {
        func append(_ key: String, _ value: String) {
            var items = winner.properties[key].map { $0.split(separator: ",").map(String.init) } ?? []
            if !items.contains(value) { items.append(value) }
            winner.properties[key] = items.joined(separator: ",")
        }
        append("alsoReportedBy", other.tool)
        append("alsoReportedAs", other.ruleId)
        for (key, value) in other.properties where key != "alsoReportedBy" && key != "alsoReportedAs" {
            if winner.properties[key] == nil { winner.properties[key] = value }
        }
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
    public func finalized() -> Report {
        var copy = self
        copy.findings = Fingerprint.assignOccurrences(findings).deduplicated().sortedForReport()
        return copy
    }

    /// The descriptor for `ruleId`, if the report has one.
    public func rule(_ ruleId: String) -> RuleDescriptor? {
        rules.first { $0.id == ruleId }
    }

    /// True when any tool failed; the scan then exits 3.
    public var anyToolFailed: Bool { tools.contains { $0.status == .failed } }

    /// Tool names in the report: those that ran plus any that only appear on findings, sorted.
    public var toolNames: [String] {
        Array(Set(tools.map(\.name)).union(findings.map(\.tool))).sorted()
    }
}
