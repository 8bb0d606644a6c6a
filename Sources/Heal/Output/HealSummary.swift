import Foundation

/// The text `heal` prints: what was fixed and how it was checked, or what was tried and why
/// each attempt failed.
public enum HealSummary {
    /// The report for `evidence`; `out` names where the files went.
    public static func text(_ evidence: Evidence, out: String?) -> String {
        var lines: [String] = []
        let seconds = String(format: "%.1f", Double(evidence.timing.totalMilliseconds) / 1000)
        let share = String(format: "%.0f%%", evidence.timing.sandboxOverheadShare * 100)
        if let candidate = evidence.candidate {
            // A bump whose tests did not run with the bumped version is not called verified.
            let unexercised = candidate.exercised?.hasPrefix("not exercised") == true
            lines.append(
                unexercised
                    ? "heal: unexercised bump (the tests passed, but not with the bumped version) for \(evidence.signal.message)"
                    : "heal: verified fix for \(evidence.signal.message)")
            lines.append("  actor: \(candidate.actor.rawValue): \(candidate.description)")
            lines.append("  files: \(candidate.files.joined(separator: ", ")) (\(candidate.changedLines) changed lines)")
            let runs = candidate.verifications.map(\.summary).joined(separator: "; ")
            lines.append("  verified twice: \(runs)")
            if let rescan = candidate.rescan {
                lines.append(
                    "  re-scan (\(rescan.tool)): \(rescan.ruleFindingsBefore) → \(rescan.ruleFindingsAfter) findings of the rule, "
                        + "\(rescan.findingsBefore) → \(rescan.findingsAfter) in the changed files")
                if !rescan.openAfter.isEmpty { lines.append("  still reported: \(rescan.openAfter.joined(separator: "; "))") }
            }
            if let exercised = candidate.exercised { lines.append("  bumped version: \(exercised)") }
            for note in candidate.notes { lines.append("  note: \(note)") }
            lines.append(String(format: "  confidence: %.2f", candidate.confidence.value))
        } else {
            lines.append("heal: no verified fix for \(evidence.signal.message) (stopped: \(evidence.stopReason.rawValue))")
        }
        if let baseline = evidence.baseline { lines.append("  baseline: \(baseline.summary)") }
        let counts = Dictionary(grouping: evidence.attempts, by: \.verdict).mapValues(\.count)
        let tally = counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }
        lines.append(
            "  attempts: \(evidence.attempts.count)\(tally.isEmpty ? "" : " (" + tally.joined(separator: ", ") + ")") "
                + "in \(seconds) s, sandbox overhead \(share) of verification time")
        if let stages = evidence.timing.stages, !stages.isEmpty { lines.append("  time: " + stageText(stages)) }
        if evidence.candidate == nil {
            for attempt in evidence.attempts.prefix(20) {
                let why = attempt.lesson?.summary ?? attempt.verdict.rawValue
                lines.append("  \(attempt.number). \(attempt.actor.rawValue): \(attempt.description): \(why)")
                for note in attempt.notes { lines.append("     note: \(note)") }
            }
            if evidence.attempts.count > 20 { lines.append("  … \(evidence.attempts.count - 20) more in evidence.json") }
        }
        for note in evidence.notes { lines.append("  \(note)") }
        if let out {
            lines.append("  wrote \(evidence.candidate == nil ? "" : out + "/patch.diff, ")\(out)/evidence.json")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `baseline 0.3 s, trace 0.5 s, templates proposing 0.0 s, templates verifying 2.1 s (3×)`.
    static func stageText(_ stages: [HealStageTime]) -> String {
        stages.map { stage in
            let seconds = String(format: "%.1f", Double(stage.milliseconds) / 1000)
            return "\(stage.stage) \(seconds) s" + (stage.count > 1 ? " (\(stage.count)×)" : "")
        }.joined(separator: ", ")
    }
}
