/// What the controller decided for one candidate, and everything it decided from: the level
/// asked for, the level granted, the policy rule that decided, the risk, the confidence, the
/// rate limits and the kill switch. It goes into `proposal.json`, the notification and the
/// audit log, so a reviewer can replay the reasoning.
public struct Decision: Sendable, Hashable, Codable {
    /// The level asked for (`--level`, else the policy's `level`).
    public var requested: AutonomyLevel
    /// The level granted: never above `requested`.
    public var level: AutonomyLevel
    /// What decided: a rule id, `protected: <glob>`, `uncovered: <path>`, `kill-switch`,
    /// `min-confidence`, `max-risk`, `rate-limit`, `requested`, ...
    public var rule: String
    /// One line per reason, for people.
    public var reasons: [String]
    /// The policy's verdict on the candidate's class and paths.
    public var policy: PolicyVerdict
    /// The risk score.
    public var risk: Risk
    /// The candidate's confidence.
    public var confidence: Double
    /// The rate-limit check, when the actor level was in reach.
    public var rateLimit: RateLimitCheck?

    /// Lowers the decision to `level` (never raises it), recording why and what decided. With
    /// `always`, a reason that does not lower the level (it is already as low) is still recorded.
    mutating func lower(to level: AutonomyLevel, rule: String, reason: String, always: Bool = false) {
        guard level < self.level else {
            if always { reasons.append(reason) }
            return
        }
        self.level = level
        self.rule = rule
        reasons.append(reason)
    }
}
