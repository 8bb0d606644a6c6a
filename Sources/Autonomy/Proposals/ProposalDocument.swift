import Foundation
import Git
import Heal
import Signals
import Support

/// `proposal.json` (DESIGN §4): everything needed to review, apply or publish a proposal
/// without the run that made it.
public struct ProposalDocument: Sendable, Hashable, Codable {
    /// Short hex id.
    public var id: String
    /// When it was made (ISO 8601).
    public var created: String
    /// The repository's top-level directory.
    public var repository: String
    /// The branch to commit on.
    public var branch: String
    /// The branch the change is meant for (nil on a detached HEAD).
    public var base: String?
    /// The commit the patch was made against.
    public var baseCommit: String
    /// Pull request title.
    public var title: String
    /// Full commit message, trailers included.
    public var commitMessage: String
    /// Labels for the pull request.
    public var labels: [String]
    /// Files the patch touches.
    public var files: [String]
    /// The change itself, file by file (before and after), so that it can be published without
    /// reading the repository again.
    public var changes: [FileChange]
    /// Its action class.
    public var action: ActionClass
    /// What it fixes.
    public var signal: SignalSummary
    /// Trust in the candidate and its inputs.
    public var confidence: CandidateConfidence
    /// Risk of the change and its inputs.
    public var risk: Risk
    /// What the controller decided and why.
    public var decision: Decision
    /// SHA-256 of `patch.diff`.
    public var patchSHA256: String
}

/// The part of a signal a reviewer needs.
public struct SignalSummary: Sendable, Hashable, Codable {
    /// `test-failure`, `finding`, ...
    public var kind: String
    /// Stable identity.
    public var fingerprint: String
    /// Its message.
    public var message: String
    /// Where it came from (file name, `stdin`).
    public var source: String
    /// The rule, for findings.
    public var ruleId: String?
    /// The failing tests, for test failures.
    public var failingTests: [String]
    /// `file:line` of its locations.
    public var locations: [String]
    /// Package, installed version and advisories, for vulnerable dependencies.
    public var dependency: Signal.Dependency?

    /// The summary of `signal`.
    public init(_ signal: Signal) {
        kind = signal.kind.rawValue
        fingerprint = signal.fingerprint
        message = signal.message
        source = signal.source
        ruleId = signal.ruleId
        failingTests = signal.failingTests
        locations = signal.locations.map { location in location.line.map { "\(location.file):\($0)" } ?? location.file }
        dependency = signal.dependency
    }
}
