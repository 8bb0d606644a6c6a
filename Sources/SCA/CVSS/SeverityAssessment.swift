/// The severity Sentinel reports for an advisory, and where it came from.
///
/// A record's own severity is its CVSS vectors (v3.x and v4.0, scored here; the highest score
/// wins), else `database_specific.severity` of the record or of the affected entry (GHSA's
/// LOW/MODERATE/HIGH/CRITICAL) or an Ubuntu priority, else `unknown`. An issue published under
/// several ids takes the highest of its records' (``outranks(_:)``; the database lookup and
/// `AliasGroup` compare them, see `borrowing(from:id:)`): a 9.8 record with a 1.6 alias is
/// critical, whichever of the two a lockfile's package matched.
public struct SeverityAssessment: Sendable, Hashable {
    /// The severity reported for the advisory.
    public var severity: AdvisorySeverity
    /// The CVSS score, when a vector gave one.
    public var score: Double?
    /// The vector the score belongs to, when any.
    public var vector: String?
    /// `cvss3`, `cvss4`, `database`, `unknown`; `alias:` + one of those + ` ID` when borrowed.
    public var source: String

    /// Makes an assessment; `source` says where the severity came from.
    public init(severity: AdvisorySeverity, score: Double?, vector: String?, source: String) {
        self.severity = severity
        self.score = score
        self.vector = vector
        self.source = source
    }

    /// Whether a CVSS vector gave the severity (the record's own or an alias's).
    public var isFromCVSS: Bool { score != nil }

    /// Whether nothing gave a severity.
    public var isUnknown: Bool { severity == .unknown }

    /// The best CVSS assessment among `entries` (v3.x and v4.0 vectors; unparsable ones are
    /// ignored); nil when there is none.
    public static func cvss(_ entries: [OSVSeverity]) -> SeverityAssessment? {
        var scored: [(score: Double, vector: String, source: String)] = []
        for entry in entries {
            switch entry.type {
            case "CVSS_V3":
                if let v3 = try? CVSS3(entry.score) { scored.append((v3.baseScore, v3.vector, "cvss3")) }
            case "CVSS_V4":
                if let v4 = try? CVSS4(entry.score) { scored.append((v4.score, v4.vector, "cvss4")) }
            default: continue
            }
        }
        guard let best = scored.max(by: { $0.score < $1.score }) else { return nil }
        return SeverityAssessment(
            severity: AdvisorySeverity(score: best.score), score: best.score,
            vector: best.vector, source: best.source)
    }

    /// The severity from labels alone (`database_specific.severity`, an Ubuntu priority); nil when none.
    public static func label(severity entries: [OSVSeverity], databaseLabels: [String?]) -> SeverityAssessment? {
        if let label = databaseLabels.compactMap({ $0.flatMap(AdvisorySeverity.init(label:)) }).max() {
            return SeverityAssessment(severity: label, score: nil, vector: nil, source: "database")
        }
        if let ubuntu = entries.first(where: { $0.type == "Ubuntu" }), let label = AdvisorySeverity(label: ubuntu.score) {
            return SeverityAssessment(severity: label, score: nil, vector: nil, source: "database")
        }
        return nil
    }

    /// Assesses from a record's own `severity[]` and database-specific labels, without aliases.
    public static func assess(severity entries: [OSVSeverity], databaseLabels: [String?]) -> SeverityAssessment {
        cvss(entries) ?? label(severity: entries, databaseLabels: databaseLabels)
            ?? SeverityAssessment(severity: .unknown, score: nil, vector: nil, source: "unknown")
    }

    /// This assessment, or the alias's when the alias's ``outranks(_:)`` it (a higher severity:
    /// one issue is as severe as its most severe record, whichever record was matched); the
    /// source then names the alias.
    public func borrowing(from alias: SeverityAssessment, id: String) -> SeverityAssessment {
        guard alias.outranks(self) else { return self }
        var copy = alias
        copy.source = "alias:\(alias.source) \(id)"
        return copy
    }

    /// Whether this assessment says the issue is worse than `other` does: a known severity over
    /// `unknown`, a higher severity, and at the same severity a CVSS score over a label, then the
    /// higher score.
    public func outranks(_ other: SeverityAssessment) -> Bool {
        rank > other.rank
    }

    /// `unknown` below every known severity (the enum puts it above `high`, for the gate).
    private var rank: (Int, Int, Double) {
        (isUnknown ? -1 : AdvisorySeverity.allCases.firstIndex(of: severity) ?? 0, isFromCVSS ? 1 : 0, score ?? 0)
    }
}
