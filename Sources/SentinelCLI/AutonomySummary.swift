import Autonomy
import Foundation

/// The lines `heal` prints after its summary: the level granted, why, and what was done.
enum AutonomySummary {
    static func text(_ outcome: AutonomyOutcome) -> String {
        let decision = outcome.decision
        var text = "autonomy: \(decision.level.rawValue)"
        if decision.level != decision.requested { text += " (asked for \(decision.requested.rawValue))" }
        text += "; decided by \(decision.rule)\n"
        text += "  risk \(String(format: "%.2f", decision.risk.value)) (\(decision.risk.level.rawValue)), "
        text += "confidence \(String(format: "%.2f", decision.confidence))\n"
        for reason in decision.reasons { text += "  - \(reason)\n" }
        switch outcome.action {
        case "applied":
            if let applied = outcome.applied {
                text += "  committed \(applied.commit.prefix(12)) on branch \(applied.branch)\n"
                if let pull = applied.pullRequest { text += "  pull request #\(pull.number): \(pull.url)\n" }
            }
        case "proposed":
            if let proposal = outcome.proposal {
                text += "  proposal \(proposal.id) (\(proposal.status.rawValue)): \(proposal.title)\n"
                text += "  review: sentinel proposals show \(proposal.id)\n"
                if proposal.status == .pending {
                    text += "  then:   sentinel proposals approve \(proposal.id)   or   deny \(proposal.id) --reason TEXT\n"
                }
            }
        default:
            text += "  nothing was changed: \(outcome.notification.reason)\n"
        }
        return text
    }
}
