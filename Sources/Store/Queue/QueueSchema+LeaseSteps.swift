extension QueueSchema {
    /// Migration 8: leases that survive a step of the database's clock (issue 81). A lease records
    /// the term it was granted for (`lease_seconds`) and when a reaper first found it past its end
    /// (`lease_lapsed_at`); both are written by the claim and every renewal. With them a reaper
    /// tells a worker that stopped renewing from a clock that moved (``JobQueue/reapExpiredLeases(audit:)``):
    /// a lease further ahead than its term can only come from a clock that went back, and a lease
    /// found long past its end, from a clock that went forward (or from a fleet whose every reaper
    /// was away), is reaped only after a whole term more without a renewal. Rows from earlier builds
    /// have neither (NULL): their leases end as before. The scheduler's leader lease records its
    /// term (`fleet_leaders.term_seconds`) for the same reason.
    static let leaseSteps = QueueMigration(
        version: 8, name: "008_lease_steps",
        sql: """
            ALTER TABLE fleet_jobs ADD COLUMN lease_seconds DOUBLE PRECISION;
            ALTER TABLE fleet_jobs ADD COLUMN lease_lapsed_at DOUBLE PRECISION;
            ALTER TABLE fleet_leaders ADD COLUMN term_seconds DOUBLE PRECISION
            """)
}
