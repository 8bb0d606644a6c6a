/// A heal job's verified patch as the fleet holds it for a decision.
public struct JobPatch: Sendable, Hashable, Codable {
    /// The job.
    public var jobID: Int64
    /// The SHA-256 (hex) of `patch`: what an approval names.
    public var digest: String
    /// The unified diff.
    public var patch: String
    /// What it changes, in the heal's words.
    public var description: String?
    /// The actor that proposed it (`logic-repair`, `llm`...).
    public var actor: String?
    /// The heal's evidence.json.
    public var evidence: String?
    /// True while its worker waits for a decision.
    public var awaiting: Bool
    /// When it was recorded (seconds since 1970, the server's clock).
    public var recordedAt: Double
    /// What the approval published, once it did.
    public var publication: PatchPublication?
}

/// What an approved patch became: a branch, a commit and a pull request, or why not.
public struct PatchPublication: Sendable, Hashable, Codable {
    /// The branch created for it.
    public var branch: String?
    /// The commit on that branch.
    public var commit: String?
    /// The pull request's URL.
    public var pullRequest: String?
    /// Why publishing failed, when it did.
    public var error: String?

    /// A publication; see the properties.
    public init(branch: String? = nil, commit: String? = nil, pullRequest: String? = nil, error: String? = nil) {
        self.branch = branch
        self.commit = commit
        self.pullRequest = pullRequest
        self.error = error
    }
}

/// A person's decision on one patch of one job.
public struct PatchDecision: Sendable, Hashable, Codable {
    /// The job.
    public var jobID: Int64
    /// The digest of the patch decided on.
    public var digest: String
    /// True to approve.
    public var approved: Bool
    /// Why.
    public var reason: String
    /// Who decided, as the database knows them: PostgreSQL's `session_user`, or on SQLite the
    /// operating-system account of the deciding process's effective uid.
    public var approver: String
    /// When (seconds since 1970).
    public var decidedAt: Double
}

/// One attempt of a job as its worker ended it.
public struct JobAttempt: Sendable, Hashable, Codable {
    /// The job.
    public var jobID: Int64
    /// 1, 2, ...
    public var attempt: Int
    /// The worker that ran it.
    public var worker: String
    /// `succeeded`, `failed`, `cancelled`, `released`, `lease-lost`.
    public var outcome: String
    /// Why it failed, when it did.
    public var error: String?
    /// The last lines of the run's standard error, redacted by the worker, at most `JobAttempt.logLimit` bytes.
    public var log: String
    /// When it ended.
    public var endedAt: Double

    /// The most log a stored attempt keeps (its tail).
    public static let logLimit = 16 << 10

    /// An attempt; see the properties.
    public init(jobID: Int64, attempt: Int, worker: String, outcome: String, error: String?, log: String, endedAt: Double = 0) {
        self.jobID = jobID
        self.attempt = attempt
        self.worker = worker
        self.outcome = outcome
        self.error = error
        self.log = log
        self.endedAt = endedAt
    }
}
