import Support

/// Which failed attempts another attempt may mend: the one place a job's failure is classed, so
/// that retry policies keyed by class read it here. Deterministic failures fail the job at once:
/// a policy refusal (outside the roots, a host not allowed, credentials in a URL), bad options, a
/// revision or repository that does not exist, the clone's size bound (`.invalidInput`), and a
/// run that exited 2. The rest (the network, a server's 5xx, a time bound, git or the database
/// unavailable: `.git` and every other code) are transient.
enum JobFailure {
    /// Whether the attempt that threw `error` may succeed when tried again.
    static func isTransient(_ error: any Error) -> Bool {
        guard let error = error as? SentinelError else { return true }
        return error.code != .invalidInput
    }

    /// Whether a `sentinel scan` or `heal` run that exited `status` (not 0 or 1) may succeed again:
    /// 2 is bad input, which a retry meets again; anything else (a crash, a signal) may not recur.
    static func isTransient(exitStatus status: Int32) -> Bool { status != 2 }
}
