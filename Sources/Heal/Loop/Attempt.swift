import Findings
import Foundation

/// What became of one proposal.
public enum Verdict: String, Sendable, Hashable, Codable {
    /// Verified twice: the verify command passes, nothing regressed, the signal is gone.
    case verified
    /// Refused before running: it edits tests, skips or deletes them, empties a function, or
    /// does not parse.
    case rejected
    /// Ran and failed the check (still failing, new failures, finding still reported).
    case failed
    /// Passed once, failed on the re-run.
    case flaky
    /// Not run: the budget ended or a better candidate won first.
    case skipped
}

/// The structured lesson the reflector draws from a failed attempt: what the next attempt
/// (and a person reading the evidence) needs to know.
public struct Lesson: Sendable, Hashable, Codable {
    /// One line: "still failing: test_mean (assert 6.0 == 3)".
    public var summary: String
    /// Tests that failed before and still fail.
    public var stillFailing: [String]
    /// Tests that passed before and fail now (a regression).
    public var newlyFailing: [String]
    /// Expected-versus-actual lines from the assertion output (`assert 6.0 == 3`).
    public var expectedActual: [String]
    /// Exception types that appear now and did not before.
    public var newErrors: [String]
    /// Whether the original failure moved (another exception type or innermost location).
    public var failureMoved: Bool

    /// A lesson; see the properties.
    public init(
        summary: String, stillFailing: [String] = [], newlyFailing: [String] = [], expectedActual: [String] = [],
        newErrors: [String] = [], failureMoved: Bool = false
    ) {
        self.summary = summary
        self.stillFailing = stillFailing
        self.newlyFailing = newlyFailing
        self.expectedActual = expectedActual
        self.newErrors = newErrors
        self.failureMoved = failureMoved
    }
}

/// The re-scan of the files a candidate touched, against the same scan of the unchanged tree.
public struct Rescan: Sendable, Hashable, Codable {
    /// The scanner re-run (`native`, `osv`, …).
    public var tool: ToolName
    /// Findings of the signal's rule in its file before and after.
    public var ruleFindingsBefore: Int
    /// Same, on the candidate tree.
    public var ruleFindingsAfter: Int
    /// All findings in the changed files before and after.
    public var findingsBefore: Int
    /// Same, on the candidate tree.
    public var findingsAfter: Int
    /// Rules with more findings in the changed files than before, at or above the signal's
    /// severity (a lower-severity audit note that the rewrite now matches does not count).
    public var introduced: [String] = []
    /// What the re-scan still reports in the changed files, one `rule` (or, for dependencies,
    /// `package version: advisory`) per finding, sorted: what the patch leaves open.
    public var openAfter: [String] = []

    /// The signal's finding is gone and nothing as severe appeared.
    public var clean: Bool { ruleFindingsAfter < ruleFindingsBefore && introduced.isEmpty }
}

/// One proposal tried: what it was, how it ran, and what was learnt.
public struct Attempt: Sendable, Hashable, Codable {
    /// 1-based, in the order attempts finished being judged.
    public var number: Int
    /// The actor that proposed it.
    public var actor: ActorKind
    /// The proposal's one-line description.
    public var description: String
    /// The strategy or template.
    public var strategy: String
    /// SHA-256 of the patch text.
    public var patchHash: String
    /// The patch (git format).
    public var patch: String
    /// Characters changed.
    public var size: Int
    /// The outcome.
    public var verdict: Verdict
    /// Why it was rejected or failed; nil when verified.
    public var lesson: Lesson?
    /// Every run of the verify command on it (two for a verified one).
    public var verifications: [Verification]
    /// The re-scan, for findings and dependencies.
    public var rescan: Rescan?
    /// Notes the actor attached (flags such as hashes not recomputed).
    public var notes: [String]
    /// The change itself (``Proposal/changeKey``), for memory to know it again.
    public var changeKey: String? = nil
}
