/// The outcome of checking one destination: whether it may be reached and why, quoting
/// the entry that decided (`api.example.com:443`, `deny 10.0.0.0/8`) or the reason
/// (`no rule matches`, `private address 127.0.0.1 not allowed`).
public struct EgressDecision: Hashable, Sendable, Codable {
    /// Whether the destination may be reached.
    public var allowed: Bool
    /// The deciding entry as written, or the reason for a denial.
    public var rule: String

    /// A decision with its deciding entry or reason.
    public init(allowed: Bool, rule: String) {
        self.allowed = allowed
        self.rule = rule
    }

    /// The reason used when no allow entry covers a destination.
    public static let noRuleMatches = "no rule matches"

    static func denied(_ rule: String) -> EgressDecision { EgressDecision(allowed: false, rule: rule) }
}
