/// How far Sentinel may go with a verified candidate, least to most: tell a human, propose a
/// change for approval, or apply it on a branch. Levels are ordered, so the effective level of a
/// decision is the lowest of what was asked for and what the policy and conditions allow.
public enum AutonomyLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Read-only: a notification with the reason no action was taken.
    case observer
    /// A proposal (patch, PR text, metadata) queued for a human's approval.
    case proposer
    /// Applied on a new branch and committed without waiting.
    case actor

    /// Position in the order above.
    public var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// Orders by `rank`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
