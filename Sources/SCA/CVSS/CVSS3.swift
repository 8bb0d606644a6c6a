import Foundation
import Support

/// A CVSS v3.0 or v3.1 vector with its base score computed as the FIRST specification defines it
/// (the two versions differ only in the rounding function).
public struct CVSS3: Sendable, Hashable {
    /// `"3.0"` or `"3.1"`.
    public let version: String
    /// The base metrics by abbreviation (`AV` → `N`).
    public let metrics: [String: String]
    /// The vector as given.
    public let vector: String

    private static let baseMetrics: [String: Set<String>] = [
        "AV": ["N", "A", "L", "P"], "AC": ["L", "H"], "PR": ["N", "L", "H"], "UI": ["N", "R"],
        "S": ["U", "C"], "C": ["H", "L", "N"], "I": ["H", "L", "N"], "A": ["H", "L", "N"],
    ]
    /// Temporal and environmental metrics are allowed in a vector but do not change the base score.
    private static let otherMetrics: Set<String> = [
        "E", "RL", "RC", "CR", "IR", "AR", "MAV", "MAC", "MPR", "MUI", "MS", "MC", "MI", "MA",
    ]

    /// Parses a vector such as `CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H`.
    public init(_ vector: String) throws {
        let parts = vector.trimmingASCIISpaces().split(separator: "/", omittingEmptySubsequences: false)
        guard let head = parts.first, head == "CVSS:3.0" || head == "CVSS:3.1" else {
            throw SentinelError(.invalidInput, "CVSS vector \(vector): does not start with CVSS:3.0 or CVSS:3.1")
        }
        var metrics = [String: String]()
        var seen = Set<String>()
        for part in parts.dropFirst() {
            let kv = part.split(separator: ":", omittingEmptySubsequences: false)
            guard kv.count == 2 else { throw SentinelError(.invalidInput, "CVSS vector \(vector): bad part \"\(part)\"") }
            let key = String(kv[0]), value = String(kv[1])
            guard seen.insert(key).inserted else {
                throw SentinelError(.invalidInput, "CVSS vector \(vector): metric \(key) repeated")
            }
            if let allowed = Self.baseMetrics[key] {
                guard allowed.contains(value) else {
                    throw SentinelError(.invalidInput, "CVSS vector \(vector): \(key) cannot be \(value)")
                }
                metrics[key] = value
            } else if !Self.otherMetrics.contains(key) {
                throw SentinelError(.invalidInput, "CVSS vector \(vector): unknown metric \(key)")
            }
        }
        let missing = Self.baseMetrics.keys.filter { metrics[$0] == nil }.sorted()
        guard missing.isEmpty else {
            throw SentinelError(.invalidInput, "CVSS vector \(vector): missing \(missing.joined(separator: ", "))")
        }
        self.version = String(head.dropFirst(5))
        self.metrics = metrics
        self.vector = vector
    }

    /// The base score, 0.0–10.0.
    public var baseScore: Double {
        let changed = metrics["S"] == "C"
        let avWeights: [String: Double] = ["N": 0.85, "A": 0.62, "L": 0.55, "P": 0.2]
        let av: Double = avWeights[metrics["AV"] ?? ""] ?? 0
        let ac: Double = metrics["AC"] == "L" ? 0.77 : 0.44
        let pr: Double
        switch metrics["PR"] {
        case "N": pr = 0.85
        case "L": pr = changed ? 0.68 : 0.62
        default: pr = changed ? 0.5 : 0.27
        }
        let ui: Double = metrics["UI"] == "N" ? 0.85 : 0.62
        let cia: [String: Double] = ["H": 0.56, "L": 0.22, "N": 0.0]
        let c: Double = cia[metrics["C"] ?? ""] ?? 0, i: Double = cia[metrics["I"] ?? ""] ?? 0, a: Double = cia[metrics["A"] ?? ""] ?? 0
        let iss: Double = 1 - (1 - c) * (1 - i) * (1 - a)
        let impact: Double = changed ? 7.52 * (iss - 0.029) - 3.25 * Foundation.pow(iss - 0.02, 15.0) : 6.42 * iss
        let exploitability: Double = 8.22 * av * ac * pr * ui
        guard impact > 0 else { return 0 }
        let raw = changed ? min(1.08 * (impact + exploitability), 10) : min(impact + exploitability, 10)
        return roundUp(raw)
    }

    /// v3.1's Roundup works on integers to avoid floating-point surprises; v3.0 used a plain ceiling.
    private func roundUp(_ x: Double) -> Double {
        if version == "3.0" { return (x * 10).rounded(.up) / 10 }
        let scaled = Int((x * 100_000).rounded())
        if scaled % 10_000 == 0 { return Double(scaled) / 100_000 }
        return Double(scaled / 10_000 + 1) / 10
    }

    /// The qualitative rating of the base score.
    public var severity: AdvisorySeverity { AdvisorySeverity(score: baseScore) }
}

/// Severity of an advisory, spelled as Sentinel findings spell it (CVSS "none" becomes `info`).
/// `unknown`: the advisory carries no severity anywhere; it ranks between `high` and `critical`
/// as the finding severity of the same name does.
public enum AdvisorySeverity: String, Sendable, Hashable, Comparable, CaseIterable, Codable {
    case info, low, medium, high, unknown, critical

    /// The CVSS qualitative rating for a 0–10 score.
    public init(score: Double) {
        switch score {
        case ..<0.1: self = .info
        case ..<4.0: self = .low
        case ..<7.0: self = .medium
        case ..<9.0: self = .high
        default: self = .critical
        }
    }

    /// A database-specific label (`HIGH`, `Moderate`, `important`, `negligible`); nil when unknown.
    public init?(label: String) {
        switch label.lowercased() {
        case "none", "info", "informational", "negligible", "unimportant": self = .info
        case "low": self = .low
        case "medium", "moderate": self = .medium
        case "high", "important": self = .high
        case "critical": self = .critical
        default: return nil
        }
    }

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    /// Orders as the cases are declared, least severe first.
    public static func < (a: AdvisorySeverity, b: AdvisorySeverity) -> Bool { a.rank < b.rank }
}
