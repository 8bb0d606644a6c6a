import Git

/// A verified fix: the seam between Heal and whatever acts on it (DESIGN §1). It carries the
/// patch, the evidence that it works and how far to trust it; nothing in it refers back to
/// the run that made it.
public struct Candidate: Sendable, Hashable, Codable {
    /// The signal it fixes.
    public var signal: Signal
    /// The actor that proposed it.
    public var actor: ActorKind
    /// One line for people.
    public var description: String
    /// The template or strategy.
    public var strategy: String
    /// The patch, git format, applying with `git apply` to the original tree.
    public var patch: String
    /// The changed files with their content before and after.
    public var changes: [FileChange]
    /// Trust in [0, 1] and its inputs.
    public var confidence: Confidence
    /// The two passing runs of the verify command.
    public var verifications: [Verification]
    /// The re-scan, for findings and dependencies.
    public var rescan: Rescan?
    /// What the actor flagged (hashes it could not recompute, …).
    public var notes: [String]
    /// Lines added plus lines removed.
    public var changedLines: Int
    /// How many of the added source lines the tests executed; nil when not measured (no pytest
    /// run, no tracer, or nothing but non-Python files changed).
    public var coverage: ChangeCoverage? = nil
    /// For a dependency bump: the version the dependency is raised to.
    public var targetVersion: String? = nil
    /// The verify command's run on the unchanged tree (tests before).
    public var baseline: Verification? = nil
    /// The sandbox it was verified in.
    public var sandbox: SandboxSummary? = nil

    /// Repository-relative paths the patch touches.
    public var files: [String] { changes.map(\.path) }
}
