/// What a policy says about one candidate change, and why.
public struct PolicyVerdict: Sendable, Hashable, Codable {
    /// The strongest effect over all changed paths; a path no rule covers counts as `ask`.
    public var effect: RuleEffect
    /// What decided: rule ids joined with `, `, `protected: <pattern>`, `uncovered: <path>`,
    /// `invalid path: <path>`, or `no paths`.
    public var rule: String
    /// One line per changed path, for people, e.g.
    /// `src/auth/login.py is denied by rule 'auth' (line 7)`.
    public var reasons: [String]
    /// The changed paths that hit a protected glob (never changed automatically).
    public var protectedPaths: [String]
    /// The changed paths no rule covers (they need approval, and are denied to the actor).
    public var uncoveredPaths: [String]

    /// A verdict with every field given.
    public init(
        effect: RuleEffect, rule: String, reasons: [String], protectedPaths: [String] = [], uncoveredPaths: [String] = []
    ) {
        self.effect = effect
        self.rule = rule
        self.reasons = reasons
        self.protectedPaths = protectedPaths
        self.uncoveredPaths = uncoveredPaths
    }
}
