extension StoredFinding: QueueRowDecodable {
    static let columns = ["fingerprint", "rule_id", "severity", "location"]

    /// A `fleet_findings` row.
    init(row: QueueRow) throws(RowDecodingError) {
        self.init(
            fingerprint: try row.text("fingerprint"), ruleID: try row.text("rule_id"), severity: try row.text("severity"),
            location: try row.text("location"))
    }
}
