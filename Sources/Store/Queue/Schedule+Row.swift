extension Schedule: QueueRowDecodable {
    static let columns = ["name", "kind", "spec", "repository", "branch", "priority", "max_attempts", "interval_seconds", "next_run"]

    /// A `fleet_schedules` row.
    init(row: QueueRow) throws(RowDecodingError) {
        let request = JobRequest(
            kind: try row.value("kind", as: JobKind.self), spec: try row.text("spec"), repository: try row.text("repository"),
            branch: try row.text("branch"), priority: try row.int("priority"), maxAttempts: try row.int("max_attempts"))
        self.init(
            name: try row.text("name"), request: request, interval: try row.double("interval_seconds"), nextRun: try row.double("next_run"))
    }
}
