import Support

/// Why an attempt failed, as the retry policy tells classes apart: a deterministic refusal is never
/// retried, a flaky network gets its own backoff. Stored with the job (`failure_class`), so that
/// `fleet jobs --state dead` says why. The fleet maps errors to a class in one place
/// (`FailureClassification` in Fleet).
public enum FailureClass: String, Sendable, Hashable, CaseIterable, Codable {
    /// Bad input that a retry cannot mend: a policy refusal, bad options, exit status 2.
    case invalid
    /// The job ran past the worker's `--job-timeout`.
    case timeout
    /// The checkout failed: a clone, git or the network.
    case checkout
    /// The scanner or heal crashed or exited unexpectedly.
    case tool
    /// The worker holding the lease stopped renewing it (killed, hung, partitioned).
    case leaseExpired = "lease-expired"
    /// The infrastructure failed: the database, the file system, the sandbox.
    case infrastructure
}

/// How one failure class is retried: how many attempts it may use, and the exponential backoff
/// with full jitter between them (a delay drawn uniformly from zero to `min(cap, base × 2^(n-1))`,
/// so that jobs failing together do not come back together).
public struct RetryRule: Sendable, Hashable {
    /// Attempts in all before the job is dead-lettered; nil: the job's own `max_attempts`; 0 or 1:
    /// never retried (0 fails the job at once, `failed`; 1 dead-letters it). Never more than the
    /// job's own maximum.
    public var attempts: Int?
    /// The backoff's first step in seconds; nil: the policy's `base`.
    public var base: Double?
    /// The longest backoff in seconds; nil: the policy's `maximum`.
    public var cap: Double?

    /// A rule; see the properties.
    public init(attempts: Int? = nil, base: Double? = nil, cap: Double? = nil) {
        self.attempts = attempts
        self.base = base
        self.cap = cap
    }

    /// Never retried: the job fails at once.
    public static let never = RetryRule(attempts: 0)

    /// Reads `CLASS=ATTEMPTS[:BASE[:CAP]]` (`checkout=8:30s:1h`, `invalid=0`), durations in
    /// `Quantity.seconds`' syntax; nil for anything else. Bounded: at most 100 attempts, a day's
    /// backoff.
    public static func parse(_ text: String) -> (FailureClass, RetryRule)? {
        guard text.utf8.count <= 100 else { return nil }
        let sides = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard sides.count == 2, let failure = FailureClass(rawValue: String(sides[0])) else { return nil }
        let parts = sides[1].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count), let attempts = Int(parts[0]), (0...100).contains(attempts) else { return nil }
        var rule = RetryRule(attempts: attempts)
        func duration(_ text: String) -> Double? {
            guard let seconds = Quantity.seconds(text), seconds >= 0, seconds <= 86400 else { return nil }
            return seconds
        }
        if parts.count > 1 {
            guard let base = duration(parts[1]) else { return nil }
            rule.base = base
        }
        if parts.count > 2 {
            guard let cap = duration(parts[2]), cap >= (rule.base ?? 0) else { return nil }
            rule.cap = cap
        }
        return (failure, rule)
    }
}

/// What the policy says about one failed attempt.
public struct RetryDecision: Sendable, Hashable {
    /// `queued` (retried after `delay`), `dead` (no attempt left) or `failed` (never retried).
    public var state: JobState
    /// Seconds before the next attempt (jittered); 0 unless `state` is `queued`.
    public var delay: Double
    /// The attempts the class allowed this job.
    public var limit: Int

    /// A decision; see the properties.
    public init(state: JobState, delay: Double, limit: Int) {
        self.state = state
        self.delay = delay
        self.limit = limit
    }
}

extension RetryPolicy {
    /// The rules every worker starts from: bad input is never retried, a timeout twice at most
    /// (a job that ran out of time once mostly does again), the rest up to the job's maximum.
    public static let defaultRules: [FailureClass: RetryRule] = [.invalid: .never, .timeout: RetryRule(attempts: 2)]

    /// The rule for `failure`: the configured one, else the default.
    public func rule(for failure: FailureClass) -> RetryRule {
        rules[failure] ?? Self.defaultRules[failure] ?? RetryRule()
    }

    /// What becomes of a job after failed attempt number `attempt` (1-based) of at most
    /// `maxAttempts`, failed for `failure`; the delay is drawn with `generator`.
    public func decide(
        afterAttempt attempt: Int, maxAttempts: Int, failure: FailureClass, using generator: inout some RandomNumberGenerator
    ) -> RetryDecision {
        let rule = rule(for: failure)
        let limit = max(0, min(maxAttempts, rule.attempts ?? maxAttempts))
        if limit == 0 { return RetryDecision(state: .failed, delay: 0, limit: 0) }
        guard attempt < limit else { return RetryDecision(state: .dead, delay: 0, limit: limit) }
        return RetryDecision(state: .queued, delay: jitteredDelay(afterAttempt: attempt, rule: rule, using: &generator), limit: limit)
    }

    /// `decide` with the system's random numbers.
    public func decide(afterAttempt attempt: Int, maxAttempts: Int, failure: FailureClass) -> RetryDecision {
        var generator = SystemRandomNumberGenerator()
        return decide(afterAttempt: attempt, maxAttempts: maxAttempts, failure: failure, using: &generator)
    }

    /// Full jitter: uniform in `0...min(cap, base × 2^(attempt-1))`.
    func jitteredDelay(afterAttempt attempt: Int, rule: RetryRule, using generator: inout some RandomNumberGenerator) -> Double {
        let ceiling = RetryPolicy(base: rule.base ?? base, maximum: rule.cap ?? maximum).delay(afterAttempt: attempt)
        guard ceiling > 0, ceiling.isFinite else { return 0 }
        return Double.random(in: 0...ceiling, using: &generator)
    }
}
