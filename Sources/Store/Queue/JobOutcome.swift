/// What recording an attempt's end did to its job: given to the audit closure of `JobQueue.complete`,
/// `fail`, `release`, `cancelled` and `cancel` inside the transaction that records it, so that the
/// outcome and its audit entry commit together or not at all.
public struct JobOutcome: Sendable, Hashable {
    /// The job.
    public var jobID: Int64
    /// The state the job is in now (`queued` after a retry or a release).
    public var state: JobState

    /// The outcome of job `jobID`, now in `state`.
    public init(jobID: Int64, state: JobState) {
        self.jobID = jobID
        self.state = state
    }
}
