import Foundation
import Support

/// How bad a finding is. Ordered: `info < low < medium < high < unknown < critical`.
/// Encoded as the lowercase names, which are also what users type (`--fail-on high`).
///
/// `unknown` is a known vulnerability whose advisory carries no severity anywhere (no CVSS
/// vector, no alias with one, no database label). It ranks just above `high` so that it gates
/// like `high` at every threshold (pip-audit and OSV-Scanner fail on any known vulnerability)
/// without passing itself off as `critical`; it is not a `--fail-on` threshold.
public enum Severity: String, Sendable, Codable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    case info, low, medium, high, unknown, critical

    /// Parses user text (`"High"`, `" critical "`); `"moderate"` and `"warning"` are accepted as
    /// `medium` and `"error"` as `high` because scanners spell them so.
    /// - Parameter context: names where the text came from (a flag or `file:key`) in the error.
    public init(parsing text: String, context: String = "severity") throws {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let value = Severity(rawValue: word) {
            self = value
            return
        }
        switch word {
        case "moderate", "warning": self = .medium
        case "error": self = .high
        case "note", "informational": self = .info
        default:
            throw SentinelError(
                .invalidInput,
                "\(context): unknown severity '\(text)' (expected info, low, medium, high or critical)")
        }
    }

    /// Position in the order, 0 for `info`.
    public var rank: Int {
        switch self {
        case .info: 0
        case .low: 1
        case .medium: 2
        case .high: 3
        case .unknown: 4
        case .critical: 5
        }
    }

    /// Orders by `rank`: `info` lowest, then low, medium, high, unknown, critical.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

    /// The raw name, e.g. `high`.
    public var description: String { rawValue }

    /// SARIF `level`: critical/unknown/high → error, medium → warning, low/info → note.
    public var sarifLevel: String {
        switch self {
        case .critical, .unknown, .high: "error"
        case .medium: "warning"
        case .low, .info: "note"
        }
    }

    /// The numeric `security-severity` GitHub code scanning reads (critical > 9.0, high 7.0–8.9,
    /// medium 4.0–6.9, low 0.1–3.9); `nil` for `info`, which is not a security rating, and for
    /// `unknown`, which has none (GitHub then ranks the result by its `error` level).
    public var securitySeverity: String? {
        switch self {
        case .critical: "9.5"
        case .high: "8.0"
        case .medium: "5.5"
        case .low: "2.0"
        case .info, .unknown: nil
        }
    }
}

/// How sure the tool is that a finding is real.
public enum Confidence: String, Sendable, Codable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    case low, medium, high

    /// Parses user or tool text case-insensitively (`"HIGH"`, `"Medium"`).
    public init(parsing text: String, context: String = "confidence") throws {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let value = Confidence(rawValue: word) else {
            throw SentinelError(
                .invalidInput, "\(context): unknown confidence '\(text)' (expected low, medium or high)")
        }
        self = value
    }

    /// What `sentinel scan` reports when neither `--min-confidence` nor `minConfidence` says:
    /// like Semgrep's default rule sets, audit-style findings with no proven flow stay out.
    public static let defaultMinimum: Confidence = .medium

    /// Position in the order, 0 for `low`.
    public var rank: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .high: 2
        }
    }

    /// Orders by `rank`: low < medium < high.
    public static func < (lhs: Confidence, rhs: Confidence) -> Bool { lhs.rank < rhs.rank }

    /// The raw name, e.g. `medium`.
    public var description: String { rawValue }
}
