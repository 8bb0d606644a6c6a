/// The severity Sentinel reports for an advisory, and where it came from.
///
/// Order of preference: a CVSS v3.x vector (base score computed here); then a CVSS v4 vector's
/// database-provided label, since the v4 score needs FIRST's macro-vector table, which is not
/// implemented — the vector is still shown; then `database_specific.severity` of the record or of
/// the affected entry; then `medium`.
public struct SeverityAssessment: Sendable, Hashable {
    public var severity: AdvisorySeverity
    /// The CVSS base score, when a v3.x vector gave one.
    public var score: Double?
    /// The vector the score or label belongs to, when any.
    public var vector: String?
    /// `cvss3`, `database`, `default`.
    public var source: String

    public init(severity: AdvisorySeverity, score: Double?, vector: String?, source: String) {
        self.severity = severity
        self.score = score
        self.vector = vector
        self.source = source
    }

    /// Assesses from a record's `severity[]` and database-specific labels.
    public static func assess(severity entries: [OSVSeverity], databaseLabels: [String?]) -> SeverityAssessment {
        let v3 = entries.filter { $0.type == "CVSS_V3" }.compactMap { try? CVSS3($0.score) }
        if let best = v3.max(by: { $0.baseScore < $1.baseScore }) {
            return SeverityAssessment(severity: best.severity, score: best.baseScore, vector: best.vector, source: "cvss3")
        }
        let v4 = entries.first { $0.type == "CVSS_V4" }?.score
        if let label = databaseLabels.compactMap({ $0.flatMap(AdvisorySeverity.init(label:)) }).max() {
            return SeverityAssessment(severity: label, score: nil, vector: v4, source: "database")
        }
        if let ubuntu = entries.first(where: { $0.type == "Ubuntu" }), let label = AdvisorySeverity(label: ubuntu.score) {
            return SeverityAssessment(severity: label, score: nil, vector: nil, source: "database")
        }
        return SeverityAssessment(severity: .medium, score: nil, vector: v4, source: "default")
    }
}
