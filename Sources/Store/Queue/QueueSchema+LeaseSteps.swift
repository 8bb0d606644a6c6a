extension QueueSchema {
    /// Migration 8: leases that survive a step back of the database's clock (issue 81). A lease
    /// records the term it was granted for (`lease_seconds`), written by the claim and every
    /// renewal, so that a reaper can tell a lease ending further ahead than its term, which only a
    /// clock that went back makes, and cut it to one term (``JobQueue/reapExpiredLeases(audit:)``).
    /// The scheduler's leader lease records its term (`fleet_leaders.term_seconds`) for the same
    /// reason. Rows from earlier builds have none (NULL): their leases end as before.
    static let leaseSteps = QueueMigration(
        version: 8, name: "008_lease_steps",
        sql: """
            ALTER TABLE fleet_jobs ADD COLUMN lease_seconds DOUBLE PRECISION;
            ALTER TABLE fleet_leaders ADD COLUMN term_seconds DOUBLE PRECISION
            """)
}
