extension Job: QueueRowDecodable {
    static let columns = [
        "id", "kind", "state", "spec", "repository", "branch", "priority", "max_attempts", "exclusive_key", "attempts",
        "last_error", "lease_owner", "lease_token", "lease_expiries", "created_at", "started_at", "finished_at",
        "failure_class", "unique_key",
    ]

    /// A `fleet_jobs` row. Its id, kind and state are read first, so an unreadable row names the
    /// first of those that is wrong (`unknown kind 'x'`), as `fleet jobs` always has.
    init(row: QueueRow) throws(RowDecodingError) {
        let id = try row.int64("id")
        let kind = try row.value("kind", as: JobKind.self)
        let state = try row.value("state", as: JobState.self)
        let request = JobRequest(
            kind: kind, spec: try row.text("spec"), repository: try row.text("repository"), branch: try row.text("branch"),
            priority: try row.int("priority"), maxAttempts: try row.int("max_attempts"),
            exclusiveKey: try row.optionalText("exclusive_key"))
        let owner = try row.optionalText("lease_owner")
        let token = try row.optionalText("lease_token")
        self.init(
            id: id, request: request, state: state, attempts: try row.int("attempts"), lastError: try row.optionalText("last_error"),
            lease: state == .running ? token.map { JobLease(jobID: id, token: $0, owner: owner ?? "") } : nil,
            leaseExpiries: try row.int("lease_expiries"), createdAt: try row.double("created_at"),
            startedAt: try row.optionalDouble("started_at"), finishedAt: try row.optionalDouble("finished_at"),
            // A class a newer build wrote reads as none: the job itself is still this build's.
            failureClass: try row.optionalText("failure_class").flatMap(FailureClass.init(rawValue:)),
            uniqueKey: try row.optionalText("unique_key"))
    }
}
