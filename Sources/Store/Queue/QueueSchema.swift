/// The fleet's tables, built by numbered migrations (River's way): `migrations` in order, each
/// recorded once in `fleet_schema_migrations` when it ran. Times are seconds since 1970 as doubles,
/// from the server's clock on PostgreSQL.
enum QueueSchema {
    /// Every migration, version 1 first.
    static let migrations = [
        initial, jobStateCheck, auditChains, sharedMemoryCursor, jobSystem, patchApprovals, tenantUniqueKeys, leaseSteps,
    ]

    /// The version after every migration: what this build reads and writes.
    static var latestVersion: Int { migrations.count }

    /// The schema as it was before migrations were numbered, when `fleet_schema` held its only
    /// version, 1: a database with that row is at migration 1. The same on both backends
    /// (`{serial}` is the only difference).
    static let initial = QueueMigration(
        version: 1, name: "001_initial",
        sql: """
            CREATE TABLE IF NOT EXISTS fleet_jobs (
                id {serial},
                kind TEXT NOT NULL,
                spec TEXT NOT NULL,
                repository TEXT NOT NULL,
                branch TEXT NOT NULL DEFAULT '',
                priority INTEGER NOT NULL DEFAULT 0,
                state TEXT NOT NULL DEFAULT 'queued',
                attempts INTEGER NOT NULL DEFAULT 0,
                max_attempts INTEGER NOT NULL,
                run_after DOUBLE PRECISION NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                started_at DOUBLE PRECISION,
                finished_at DOUBLE PRECISION,
                lease_owner TEXT,
                lease_token TEXT,
                lease_until DOUBLE PRECISION,
                lease_expiries INTEGER NOT NULL DEFAULT 0,
                cancel_requested INTEGER NOT NULL DEFAULT 0,
                exclusive_key TEXT,
                last_error TEXT
            );
            CREATE INDEX IF NOT EXISTS fleet_jobs_ready ON fleet_jobs (priority DESC, run_after, id) WHERE state = 'queued';
            CREATE INDEX IF NOT EXISTS fleet_jobs_leases ON fleet_jobs (lease_until) WHERE state = 'running';
            CREATE INDEX IF NOT EXISTS fleet_jobs_state ON fleet_jobs (state);
            CREATE INDEX IF NOT EXISTS fleet_jobs_branch ON fleet_jobs (repository, branch, id);
            CREATE TABLE IF NOT EXISTS fleet_results (
                job_id BIGINT PRIMARY KEY REFERENCES fleet_jobs (id),
                exit_status INTEGER NOT NULL,
                report TEXT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS fleet_findings (
                job_id BIGINT NOT NULL REFERENCES fleet_jobs (id),
                repository TEXT NOT NULL,
                branch TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                rule_id TEXT NOT NULL,
                severity TEXT NOT NULL,
                location TEXT NOT NULL,
                PRIMARY KEY (job_id, fingerprint)
            );
            CREATE INDEX IF NOT EXISTS fleet_findings_history ON fleet_findings (repository, branch, fingerprint, job_id);
            CREATE TABLE IF NOT EXISTS fleet_schedules (
                name TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                spec TEXT NOT NULL,
                repository TEXT NOT NULL,
                branch TEXT NOT NULL,
                priority INTEGER NOT NULL,
                max_attempts INTEGER NOT NULL,
                interval_seconds DOUBLE PRECISION NOT NULL,
                next_run DOUBLE PRECISION NOT NULL
            );
            CREATE TABLE IF NOT EXISTS fleet_approvals (
                proposal TEXT PRIMARY KEY,
                approved INTEGER NOT NULL,
                reason TEXT NOT NULL,
                decided_at DOUBLE PRECISION NOT NULL
            );
            CREATE TABLE IF NOT EXISTS fleet_proposals (
                change_key TEXT PRIMARY KEY,
                job_id BIGINT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            );
            CREATE TABLE IF NOT EXISTS fleet_audit (seq BIGINT PRIMARY KEY, line TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS fleet_audit_head (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                seq BIGINT NOT NULL,
                hash TEXT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS fleet_memory (id {serial}, key TEXT NOT NULL UNIQUE, record TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS fleet_schema (version INTEGER NOT NULL);
            """
    )
}
