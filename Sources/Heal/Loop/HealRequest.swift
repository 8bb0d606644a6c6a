import Foundation
import Sandbox
import Signals

/// What `heal` is asked to do.
public struct HealRequest: Sendable {
    /// The repository (read into a snapshot; never written).
    public var repository: String
    /// The signals, the one to try first first (a report's most severe finding).
    public var signals: [Signal]
    /// The project's own check, run by `/bin/sh -c` in the workspace.
    public var verify: String
    /// The sandbox profile verification runs under (`fix-verify` by default).
    public var profile: Profile
    /// The most proposals judged (refused ones included); `Int.max`: as many as the time allows.
    public var maxAttempts: Int
    /// The wall-clock budget, seconds.
    public var maxSeconds: Double
    /// Candidates validated at once.
    public var jobs: Int
    /// Actors, in any order (they are tried in `ActorKind` order).
    public var actors: [any HealActor]
    /// Variables set in every verification run.
    public var environment: [String: String]
    /// Where a dependency bump's verification installs the bumped version from (nil: nowhere,
    /// so a bump is "not exercised").
    public var packageIndex: PackageIndex?
    /// What memory files this repository's attempts under, and offers fixes from
    /// (``RepositoryIdentity``); nil: the repository directory's real path (`file://…`).
    public var repositoryID: String?
    /// Where the snapshot of the repository and the candidate trees are made: the state
    /// directory's private `tmp` (swept by a later run and `sentinel doctor`); nil: `$TMPDIR`.
    public var scratchBase: String?
    /// The CPU seconds one test may use in heal's pytest runs (``TestTimeLimit``), every run
    /// alike; nil: derived from the budget for the unchanged tree and from its tests' times for
    /// candidates.
    public var testCPUSeconds: Double?

    /// A request; the defaults are no attempt cap (the time budget decides), 15 minutes and one
    /// job per core.
    public init(
        repository: String, signals: [Signal], verify: String, profile: Profile, actors: [any HealActor],
        maxAttempts: Int = .max, maxSeconds: Double = 900, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        environment: [String: String] = [:], packageIndex: PackageIndex? = nil, repositoryID: String? = nil
    ) {
        self.repository = repository
        self.repositoryID = repositoryID
        self.signals = signals
        self.verify = verify
        self.profile = profile
        self.actors = actors
        self.maxAttempts = maxAttempts
        self.maxSeconds = maxSeconds
        self.jobs = max(1, jobs)
        self.environment = environment
        self.packageIndex = packageIndex
    }
}
