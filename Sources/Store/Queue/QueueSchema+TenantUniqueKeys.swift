extension QueueSchema {
    /// Migration 7: a unique key is unique among its submitter's jobs, not the fleet's (issue 78,
    /// W7). Row security hides other submitters' jobs, and one index over every tenant let a
    /// submitter who inserted a job holding another's computable key (a `--unique-key`, a spec's
    /// digest) make that one's submission resolve to a job she cannot see, so none of hers queued.
    /// The index is now over the submitter (the server stamps `submitted_by` with `session_user`) and
    /// the key. On SQLite, and for rows from before migration 6, `submitted_by` is NULL: `coalesce`
    /// makes those one tenant, as before (SQLite has no roles: whoever can write the file is the fleet).
    static let tenantUniqueKeys = QueueMigration(
        version: 7, name: "007_tenant_unique_keys",
        sql: """
            DROP INDEX fleet_jobs_unique;
            CREATE UNIQUE INDEX fleet_jobs_unique_by_submitter ON fleet_jobs ((coalesce(submitted_by, '')), unique_key)
                WHERE unique_key IS NOT NULL AND (unique_all_states = 1 OR state IN ('queued', 'running'))
            """)
}
