extension QueueSchema {
    /// Migration 3, the job system teams expect (issue 58): unique jobs (a key, and whether it also
    /// covers finished jobs, enforced by a partial unique index that `INSERT ... ON CONFLICT` relies
    /// on), the failure class of a job's last failed attempt, the index `fleet prune` walks, and
    /// cron schedules (an expression and its time zone beside `interval_seconds`). Existing rows
    /// keep their values: no key, no class, interval schedules.
    static let jobSystem = QueueMigration(
        version: 5, name: "005_job_system",
        sql: """
            ALTER TABLE fleet_jobs ADD COLUMN unique_key TEXT;
            ALTER TABLE fleet_jobs ADD COLUMN unique_all_states INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE fleet_jobs ADD COLUMN failure_class TEXT;
            CREATE UNIQUE INDEX fleet_jobs_unique ON fleet_jobs (unique_key)
                WHERE unique_key IS NOT NULL AND (unique_all_states = 1 OR state IN ('queued', 'running'));
            CREATE INDEX fleet_jobs_finished ON fleet_jobs (finished_at) WHERE finished_at IS NOT NULL;
            ALTER TABLE fleet_schedules ADD COLUMN cron TEXT;
            ALTER TABLE fleet_schedules ADD COLUMN time_zone TEXT
            """)
}
