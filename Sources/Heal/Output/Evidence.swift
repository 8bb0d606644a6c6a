import Foundation
import Sandbox
import Signals

/// `evidence.json`: everything a reviewer needs to trust (or not) the outcome — the signal,
/// the baseline, every attempt with its lesson and runs, the winning candidate's verification,
/// re-scan and confidence, the sandbox it ran in and where the time went.
public struct Evidence: Sendable, Codable, Hashable {
    /// Where the time went.
    public struct Timing: Sendable, Codable, Hashable {
        /// The whole heal, ms.
        public var totalMilliseconds: Int
        /// All verification runs, set-up included, summed, ms (runs overlap with `--jobs` > 1,
        /// so this may exceed `totalMilliseconds`).
        public var verificationMilliseconds: Int
        /// Of that, sandbox set-up and tear-down, ms.
        public var sandboxOverheadMilliseconds: Int
        /// Share of verification time spent on the sandbox rather than the project's own check.
        public var sandboxOverheadShare: Double
        /// Wall time by stage (``HealStageTime``), in the order the stages first ran; absent in
        /// evidence written before it was recorded.
        public var stages: [HealStageTime]?
    }

    /// The candidate part, when there is one.
    public struct CandidateSummary: Sendable, Codable, Hashable {
        /// The actor.
        public var actor: ActorKind
        /// One line.
        public var description: String
        /// Changed files.
        public var files: [String]
        /// Lines added plus removed.
        public var changedLines: Int
        /// Trust in [0, 1] and its inputs.
        public var confidence: CandidateConfidence
        /// The two passing runs.
        public var verifications: [Verification]
        /// The re-scan, for findings and dependencies.
        public var rescan: Rescan?
        /// The actor's flags.
        public var notes: [String]
        /// pytest counts before (baseline) and after (the candidate's first run).
        public var testsBefore: [String: Int]?
        /// Same, after.
        public var testsAfter: [String: Int]?
        /// For a dependency bump: what the version clears and what stays open.
        public var bump: BumpPlan?
        /// For a dependency bump: `exercised: pkg 1.2 installed from …, imported 1.2`, or
        /// `not exercised: …` with the reason, from the verification runs.
        public var exercised: String?
        /// What verification checked beyond the exit status.
        public var checks: VerificationChecks?
        /// A model's own explanation of its change.
        public var rationale: String?
    }

    /// Format version.
    public var version = Heal.evidenceVersion
    /// The signal the outcome is about.
    public var signal: Signal
    /// The signal's fingerprint.
    public var fingerprint: String
    /// The repository as named.
    public var repository: String
    /// The verify command.
    public var verifyCommand: String
    /// The sandbox.
    public var sandbox: SandboxSummary
    /// The unchanged tree's run.
    public var baseline: Verification?
    /// Every attempt, in order, without the full patches of the losers (their hashes stay).
    public var attempts: [Attempt]
    /// The verified candidate, or nil.
    public var candidate: CandidateSummary?
    /// Why the loop stopped.
    public var stopReason: HealStopReason
    /// Things the user was told.
    public var notes: [String]
    /// Where the time went.
    public var timing: Timing
    /// Past outcomes of similar signals that informed this run (ids and verdicts).
    public var memory: [String]

    /// The evidence of `outcome`.
    public init(outcome: HealOutcome, request: HealRequest) {
        signal = outcome.signal
        fingerprint = outcome.signal.fingerprint
        repository = request.repository
        verifyCommand = request.verify
        sandbox = Self.sandboxSummary(request.profile)
        baseline = outcome.baseline
        attempts = outcome.attempts.map { attempt in
            var slim = attempt
            if attempt.verdict != .verified { slim.patch = "" }
            return slim
        }
        if let candidate = outcome.candidate {
            self.candidate = CandidateSummary(
                actor: candidate.actor, description: candidate.description, files: candidate.files,
                changedLines: candidate.changedLines, confidence: candidate.confidence,
                verifications: candidate.verifications, rescan: candidate.rescan, notes: candidate.notes,
                testsBefore: outcome.baseline?.tests?.counts, testsAfter: candidate.verifications.first?.tests?.counts,
                bump: candidate.bump, exercised: candidate.exercised, checks: candidate.checks,
                rationale: candidate.rationale)
        }
        stopReason = outcome.stopReason
        notes = outcome.notes
        let share =
            outcome.verificationMilliseconds > 0
            ? Double(outcome.sandboxOverheadMilliseconds) / Double(outcome.verificationMilliseconds) : 0
        timing = Timing(
            totalMilliseconds: outcome.totalMilliseconds, verificationMilliseconds: outcome.verificationMilliseconds,
            sandboxOverheadMilliseconds: outcome.sandboxOverheadMilliseconds,
            sandboxOverheadShare: (share * 1000).rounded() / 1000, stages: outcome.stages)
        memory = outcome.memory.prefix(10).map { "#\($0.id) \($0.verdict.rawValue) \($0.actor): \($0.description)" }
    }

    /// The sandbox as evidence.json names it: the network as `proxy: a, b`, the workspace
    /// `overlay` (verification runs always are; their writes are discarded), no CPU limit.
    static func sandboxSummary(_ profile: Profile) -> SandboxSummary {
        var summary = SandboxSummary(profile)
        summary.network =
            profile.network.mode == .none
            ? "none" : "proxy: " + (profile.network.allow.isEmpty ? "(nothing)" : profile.network.allow.joined(separator: ", "))
        summary.workspace = "overlay"
        summary.cpus = nil
        return summary
    }

    /// Pretty, key-sorted JSON.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
