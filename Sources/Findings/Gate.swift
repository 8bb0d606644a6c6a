import Foundation
import Support

/// The exit statuses of `sentinel scan` (DESIGN §3).
public enum ScanExitStatus: Int32, Sendable {
    /// Nothing at or above the threshold.
    case clean = 0
    /// Findings at or above the threshold.
    case findings = 1
    /// Bad usage, config or input.
    case usage = 2
    /// A scanner failed, so the absence of findings proves nothing.
    case scannerFailed = 3
}

/// Decides the exit status from the findings and a threshold (`--fail-on`, `failOn`).
public struct Gate: Sendable, Hashable {
    /// The lowest severity that fails the scan; `nil` (`--fail-on none`) never fails on findings.
    public var failOn: Severity?
    /// Only findings a request against the running application proved fail it (`--fail-on
    /// proven`, `failOn: {proven: true}`): a proven finding is true by construction.
    public var requiresProof = false

    /// The default threshold, `high`.
    public static let defaultThreshold: Severity = .high

    /// A gate failing on findings at `failOn` and above; `nil` never fails on findings.
    public init(failOn: Severity? = Gate.defaultThreshold, requiresProof: Bool = false) {
        self.failOn = failOn
        self.requiresProof = requiresProof
    }

    /// The gate as a user writes it: `none`, a severity, `proven`, or `proven high`.
    public var spelled: String {
        guard let failOn else { return "none" }
        guard requiresProof else { return failOn.rawValue }
        return failOn == .info ? "proven" : "proven \(failOn.rawValue)"
    }

    /// The threshold names users type, `none` first.
    public static let thresholdNames = ["none", "info", "low", "medium", "high", "critical"]

    /// Parses a threshold: a severity name, `none`, or `proven` (proven findings of any
    /// severity).
    public init(parsing text: String) throws {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        if word == "none" {
            self.failOn = nil
            return
        }
        if word == "proven" {
            self.failOn = .info
            self.requiresProof = true
            return
        }
        // `unknown` ranks beside `high` for gating; it is not a threshold of its own.
        guard let severity = try? Severity(parsing: text), severity != .unknown else {
            throw SentinelError(
                .invalidInput,
                "unknown threshold '\(text)' (expected none, info, low, medium, high, critical or proven)")
        }
        self.failOn = severity
    }

    /// The findings at or above the threshold.
    public func failing(_ findings: [Finding]) -> [Finding] {
        guard let failOn else { return [] }
        return findings.filter { $0.severity >= failOn && (!requiresProof || $0.facts.proof.proven == true) }
    }

    /// 3 when a scanner failed (its silence proves nothing, so it outranks findings), else 1 when
    /// any finding is at or above the threshold, else 0.
    public func exitStatus(for findings: [Finding], scannerFailed: Bool = false) -> ScanExitStatus {
        if scannerFailed { return .scannerFailed }
        return failing(findings).isEmpty ? .clean : .findings
    }

    /// The status for a finished report; a `failed` tool counts as a scanner failure.
    public func exitStatus(for report: Report) -> ScanExitStatus {
        exitStatus(for: report.findings, scannerFailed: report.anyToolFailed)
    }
}
