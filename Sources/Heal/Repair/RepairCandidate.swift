import Git

/// A proposed fix of one file, not yet validated: the loop runs the tests on it in the sandbox.
public struct RepairCandidate: Sendable, Hashable, CustomStringConvertible {
    /// The file before and after.
    public var change: FileChange
    /// The template that made it (``RepairTemplate/name``).
    public var template: String
    /// The 1-based line it is about.
    public var line: Int
    /// What changes, e.g. "line 12: `<` → `<=`".
    public var description: String
    /// The line's suspiciousness times the template's prior, lowered by the rank
    /// (``RepairGenerator/rankWeight(_:)``); higher is tried first.
    public var score: Double
    /// The template's own order among its changes at the line (``RepairEdit/rank``), 0 for its
    /// likeliest.
    public var rank: Int
    /// Characters changed (inserted or replaced, whichever is more, per edit); smaller is tried
    /// first among equal scores, as the smaller change is the likelier fix.
    public var size: Int

    /// A candidate; see the properties.
    public init(
        change: FileChange, template: String, line: Int, description: String, score: Double, rank: Int = 0, size: Int
    ) {
        self.change = change
        self.template = template
        self.line = line
        self.description = description
        self.score = score
        self.rank = rank
        self.size = size
    }
}
