/// A risk value in words: `low` below 0.34, `medium` below 0.67, `high` from 0.67.
public enum RiskLevel: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    /// Below 0.34.
    case low
    /// From 0.34, below 0.67.
    case medium
    /// From 0.67.
    case high

    /// The level of a risk value.
    public init(value: Double) {
        self = value < 0.34 ? .low : value < 0.67 ? .medium : .high
    }

    /// The largest two-decimal value of the level (0.33, 0.66, 1): what `maxRisk: low` means.
    public var ceiling: Double {
        switch self {
        case .low: 0.33
        case .medium: 0.66
        case .high: 1
        }
    }

    /// Position in the order above.
    public var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// Orders by `rank`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
