/// What a policy rule says about a change to the paths it covers, weakest to strongest. When
/// several rules cover a path the strongest wins, so the order of rules in a file never matters.
public enum RuleEffect: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    /// The change may be applied without asking (at the `actor` level).
    case allow
    /// The change needs a human's approval.
    case ask
    /// The change is never made automatically.
    case deny

    /// Position in the order above.
    public var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// Orders by `rank`: `allow < ask < deny`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
