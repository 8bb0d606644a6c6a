import Git
import Signals

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
    public var confidence: CandidateConfidence
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
    /// For a dependency bump: the advisories the version clears and those that stay open.
    public var bump: BumpPlan? = nil
    /// The verify command's run on the unchanged tree (tests before).
    public var baseline: Verification? = nil
    /// The sandbox it was verified in.
    public var sandbox: SandboxSummary? = nil
    /// A model's own explanation of the change (``Proposal/rationale``).
    public var rationale: String? = nil
    /// What verifying it checked beyond the exit status.
    public var checks: VerificationChecks? = nil

    /// Repository-relative paths the patch touches.
    public var files: [String] { changes.map(\.path) }
}

extension Candidate {
    /// For a dependency bump: whether its verification runs had the bumped version installed
    /// and imported (`exercised: …`), else the first run's reason (`not exercised: …`); nil for
    /// other candidates.
    public var exercised: String? {
        guard bump != nil else { return nil }
        let records = verifications.compactMap(\.dependency)
        guard records.count == verifications.count, let first = records.first else {
            return "not exercised: a verification run did not record the installed version"
        }
        if let reason = records.compactMap(\.notExercised).first { return reason }
        return "exercised: \(first.package) \(first.target) installed from the \(first.index ?? "?") in a fresh "
            + "virtual environment; the tests imported it (\(first.importedByTests.joined(separator: "; "))) in "
            + "\(records.count) of \(verifications.count) runs"
    }
}
