/// How a heal job's wait for `fleet approve` or `fleet deny` ended. The raw values are what the
/// stored record and the audit entry say.
public enum ApprovalOutcome: String, Sendable, Hashable, Codable {
    /// `fleet approve`.
    case approved
    /// `fleet deny`.
    case denied
    /// No decision within the wait asked for, the worker's job timeout, or before the worker stopped.
    case timedOut = "timed out"
}
