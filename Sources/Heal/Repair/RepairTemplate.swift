/// One textual replacement in a source file: UTF-8 bytes `start..<end` become `replacement`.
public struct SourceEdit: Sendable, Hashable {
    /// First byte replaced (a UTF-8 offset, as ``PythonSyntax/SourceLocation/offset``).
    public var start: Int
    /// Byte just past the last one replaced; equal to `start` for an insertion.
    public var end: Int
    /// The new text.
    public var replacement: String

    /// Replaces bytes `start..<end` with `replacement`.
    public init(start: Int, end: Int, replacement: String) {
        self.start = start
        self.end = end
        self.replacement = replacement
    }
}

/// A change a template proposes at one line, before it is applied, checked and scored.
public struct RepairEdit: Sendable, Hashable {
    /// The 1-based line the change is about.
    public var line: Int
    /// Non-overlapping replacements; every other byte of the file stays as it is.
    public var edits: [SourceEdit]
    /// What changes, e.g. "line 12: `<` → `<=`".
    public var description: String
    /// The template's own order among the changes it proposes at a line: 0 for its likeliest,
    /// higher for less likely ones (a variable replaced by a far-off one, a guard returning a
    /// value the function never returns). Each step costs ``RepairGenerator/rankDecay`` of the score.
    public var rank: Int

    /// A change at `line` made of `edits`, described by `description`, `rank` in the template's order.
    public init(line: Int, edits: [SourceEdit], description: String, rank: Int = 0) {
        self.line = line
        self.edits = edits
        self.description = description
        self.rank = rank
    }
}

/// A mutation-style fix pattern (one per file, as swift-format has one rule per file). Given a
/// suspicious line it proposes edits; ``RepairGenerator`` applies them, drops those that do not
/// parse and scores the rest by the line's suspiciousness times ``prior``.
public protocol RepairTemplate: Sendable {
    /// A short stable name, e.g. `comparison-operator`.
    var name: String { get }
    /// How likely a change of this kind is the fix, in 0...1, before anything is known about
    /// the line (see ``RepairTemplates/standard`` for the values and why).
    var prior: Double { get }
    /// The changes this template proposes at `line` of `file`; may be empty.
    func candidates(in file: RepairFile, line: Int) -> [RepairEdit]
}
