import Support

extension Schedule: QueueRowDecodable {
    static let columns = [
        "name", "kind", "spec", "repository", "branch", "priority", "max_attempts", "interval_seconds", "next_run", "cron", "time_zone",
    ]

    /// A `fleet_schedules` row; its cron expression and zone are read as `fleet schedule add` checks them.
    init(row: QueueRow) throws(RowDecodingError) {
        let request = JobRequest(
            kind: try row.value("kind", as: JobKind.self), spec: try row.text("spec"), repository: try row.text("repository"),
            branch: try row.text("branch"), priority: try row.int("priority"), maxAttempts: try row.int("max_attempts"))
        var cron: CronSchedule?
        if let text = try row.optionalText("cron") {
            do {
                cron = try CronSchedule(expression: CronExpression(text), timeZone: try row.optionalText("time_zone") ?? "UTC")
            } catch {
                throw RowDecodingError(.malformed, column: "cron", value: text, expected: "a cron expression and a known time zone")
            }
        }
        self.init(
            name: try row.text("name"), request: request, interval: try row.double("interval_seconds"), nextRun: try row.double("next_run"),
            cron: cron)
    }
}
