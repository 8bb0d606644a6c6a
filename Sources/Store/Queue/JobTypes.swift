/// What a fleet job does; the fleet layer reads `JobRequest.spec` according to it.
public enum JobKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// `sentinel scan` of a repository.
    case scan
    /// `sentinel heal` of a signal in a repository.
    case heal
    /// `sentinel scan --dast` of a web application.
    case dast
    /// Nothing: claimed and recorded as succeeded with an empty result, no process, no checkout
    /// (benchmarks of the queue itself, health checks of a fleet).
    case noop
}

/// Where a job is in its life. `queued` → `running` → `succeeded`, or back to `queued` with a
/// backoff when an attempt fails or its lease expires, `dead` when no attempt is left, `failed`
/// when retrying cannot help (bad input), `cancelled` on request.
public enum JobState: String, Sendable, Hashable, CaseIterable, Codable {
    /// Waiting for a worker (perhaps until `runAfter`).
    case queued
    /// Claimed by a worker that holds its lease.
    case running
    /// Finished; its result is stored.
    case succeeded
    /// Finished with a failure that retrying cannot mend.
    case failed
    /// Every attempt failed; `lastError` says why (dead-lettered).
    case dead
    /// Cancelled before it finished.
    case cancelled
}

/// A job to enqueue.
public struct JobRequest: Sendable, Hashable {
    /// What to run.
    public var kind: JobKind
    /// The fleet layer's description of the run (JSON); the queue stores it as it is.
    public var spec: String
    /// The repository (path or URL) or target the job is about: findings history and locks key on it.
    public var repository: String
    /// The branch or revision scanned ("" when none): "new since the last scan of this branch".
    public var branch: String
    /// Higher runs first.
    public var priority: Int
    /// Attempts before the job is dead-lettered.
    public var maxAttempts: Int
    /// Seconds from now before a worker may claim it.
    public var delay: Double
    /// Jobs with the same key never run at once (a signal's fingerprint for heal jobs).
    public var exclusiveKey: String?

    /// A request; see the properties.
    public init(
        kind: JobKind, spec: String, repository: String, branch: String = "", priority: Int = 0, maxAttempts: Int = 5,
        delay: Double = 0, exclusiveKey: String? = nil
    ) {
        self.kind = kind
        self.spec = spec
        self.repository = repository
        self.branch = branch
        self.priority = priority
        self.maxAttempts = maxAttempts
        self.delay = delay
        self.exclusiveKey = exclusiveKey
    }
}

/// A worker's hold on a running job: only the holder of the token may renew, complete or fail it,
/// so a worker that lost its lease (and the job to another) cannot record a second result.
public struct JobLease: Sendable, Hashable {
    /// The job.
    public var jobID: Int64
    /// Random per claim.
    public var token: String
    /// The worker (`host:pid:n`).
    public var owner: String
}

/// One job as stored.
public struct Job: Sendable, Hashable {
    /// Its id, increasing in submission order.
    public var id: Int64
    /// What it was submitted as.
    public var request: JobRequest
    /// Where it is.
    public var state: JobState
    /// Attempts started so far (claims).
    public var attempts: Int
    /// Why the last attempt failed, or why the job is dead.
    public var lastError: String?
    /// Set when the job is running and its worker holds this lease.
    public var lease: JobLease?
    /// Leases of this job that expired (a worker died or hung).
    public var leaseExpiries: Int
    /// Submission, start of the latest attempt and end, in seconds since 1970 (the server's clock).
    public var createdAt: Double
    /// Start of the latest attempt.
    public var startedAt: Double?
    /// When it reached a final state.
    public var finishedAt: Double?
    /// The class of the last failed attempt (nil before one, and after a retry by hand).
    public var failureClass: FailureClass? = nil
    /// The key that made it unique (`fleet submit --unique-key`), nil for none.
    public var uniqueKey: String? = nil
}

/// What `renew` found.
public enum LeaseStatus: Sendable, Hashable {
    /// Still ours, extended.
    case held
    /// Still ours, but someone asked to cancel the job: stop and call `cancelled`.
    case cancelRequested
    /// No longer ours (it expired and was reclaimed, or the job ended): stop without recording.
    case lost
}

/// How many jobs are in each state.
public struct QueueCounts: Sendable, Hashable, Codable {
    /// Waiting, including those whose `runAfter` is still ahead.
    public var queued = 0
    /// Held by a worker.
    public var running = 0
    /// Finished with a result.
    public var succeeded = 0
    /// Finished with a permanent failure.
    public var failed = 0
    /// Dead-lettered after their last attempt.
    public var dead = 0
    /// Cancelled.
    public var cancelled = 0

    /// All zero.
    public init() {}
}

/// One finding as the findings history keeps it.
public struct StoredFinding: Sendable, Hashable, Codable {
    /// Stable across line moves (the report's fingerprint).
    public var fingerprint: String
    /// The rule.
    public var ruleID: String
    /// Its severity name.
    public var severity: String
    /// `file:line` or the URL.
    public var location: String

    /// A finding; see the properties.
    public init(fingerprint: String, ruleID: String, severity: String, location: String) {
        self.fingerprint = fingerprint
        self.ruleID = ruleID
        self.severity = severity
        self.location = location
    }
}

/// What a finished job left: its exit status, the report (JSON the fleet layer owns) and the
/// findings that go into the history.
public struct JobResult: Sendable, Hashable {
    /// The run's exit status.
    public var exitStatus: Int32
    /// The report.
    public var report: String
    /// Its findings, by fingerprint.
    public var findings: [StoredFinding]

    /// A result; see the properties.
    public init(exitStatus: Int32, report: String, findings: [StoredFinding] = []) {
        self.exitStatus = exitStatus
        self.report = report
        self.findings = findings
    }
}

/// How a scan's findings compare with another scan of the same branch, by fingerprint.
public struct FindingsDelta: Sendable, Hashable, Codable {
    /// The scan compared against (nil when there was none: every finding is new).
    public var baseJob: Int64?
    /// In this scan, not in the base, never seen before on this branch.
    public var new: [StoredFinding] = []
    /// In this scan and not in the base, but present in a scan of the branch before the base:
    /// fixed once, back again.
    public var reintroduced: [StoredFinding] = []
    /// In the base, not in this scan.
    public var fixed: [StoredFinding] = []
    /// In both.
    public var unchanged = 0
}

/// A lease that expired and what became of its job.
public struct ExpiredLease: Sendable, Hashable {
    /// The job.
    public var jobID: Int64
    /// The worker that held it.
    public var owner: String
    /// `queued` (retried after a backoff), `dead`, or `cancelled` (a cancel was requested).
    public var newState: JobState

    /// An expired lease; see the properties.
    public init(jobID: Int64, owner: String, newState: JobState) {
        self.jobID = jobID
        self.owner = owner
        self.newState = newState
    }
}

/// A recurring job: submitted every `interval` seconds by the one scheduler holding the lock.
public struct Schedule: Sendable, Hashable {
    /// Unique name.
    public var name: String
    /// The job submitted each time.
    public var request: JobRequest
    /// Seconds between submissions.
    public var interval: Double
    /// When it is next due (seconds since 1970).
    public var nextRun: Double
    /// A cron expression and its zone instead of `interval` (which is 0 then).
    public var cron: CronSchedule?

    /// A schedule; see the properties.
    public init(name: String, request: JobRequest, interval: Double, nextRun: Double = 0, cron: CronSchedule? = nil) {
        self.name = name
        self.request = request
        self.interval = interval
        self.nextRun = nextRun
        self.cron = cron
    }
}

/// Backoff between attempts: `base × 2^(attempt-1)`, at most `maximum` seconds; per failure
/// class, `rules` say how many attempts and which backoff (`FailureClass.swift`), with full jitter.
public struct RetryPolicy: Sendable, Hashable {
    /// The delay after the first failed attempt.
    public var base: Double
    /// The longest delay.
    public var maximum: Double
    /// Per failure class, the rule that replaces the default (`defaultRules`).
    public var rules: [FailureClass: RetryRule]

    /// A policy; the defaults are 10 s doubling to an hour.
    public init(base: Double = 10, maximum: Double = 3600, rules: [FailureClass: RetryRule] = [:]) {
        self.base = base
        self.maximum = maximum
        self.rules = rules
    }

    /// Seconds to wait after failed attempt number `attempt` (1-based).
    public func delay(afterAttempt attempt: Int) -> Double {
        min(maximum, base * Double(1 << min(max(attempt - 1, 0), 30)))
    }
}
