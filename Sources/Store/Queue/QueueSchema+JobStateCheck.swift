extension QueueSchema {
    /// The job states migration 2 allows: `JobState`'s raw values as every build has stored them.
    /// Frozen with the migration; a new state is a new migration (and a test holds `JobState` to this).
    static let jobStates = ["queued", "running", "succeeded", "failed", "dead", "cancelled"]

    /// `'queued', 'running', ...`: the states as SQL literals, for the CHECK and the clean-up before it.
    private static let stateList = jobStates.map { "'\($0)'" }.joined(separator: ", ")

    /// `state IN (...)` for the CHECK constraint.
    private static let stateCheck = "CHECK (state IN (\(stateList)))"

    /// A row written with a state no build knows (straight into the table) would stop the CHECK
    /// being added: it fails instead, saying what its state was, as `claim` fails an unknown kind.
    private static let failUnknownStates = """
        UPDATE fleet_jobs SET last_error = 'not a job this worker reads: unknown state ''' || state || ''' (failed by migration 2)',
            state = 'failed', lease_owner = NULL, lease_token = NULL, lease_until = NULL,
            finished_at = coalesce(finished_at, {now})
        WHERE state NOT IN (\(stateList))
        """

    /// Migration 2: a job's state is one of `jobStates`, enforced by the database on both backends.
    static let jobStateCheck = QueueMigration(
        version: 2, name: "002_job_state_check",
        postgres: """
            \(failUnknownStates);
            ALTER TABLE fleet_jobs ADD CONSTRAINT fleet_jobs_state_check \(stateCheck)
            """,
        // SQLite adds a constraint only by rebuilding the table (its documented twelve steps, with
        // foreign keys off as this connection has them): copy, drop, rename, index again. The
        // AUTOINCREMENT counter is carried over, so no job id is ever handed out twice.
        sqlite: """
            \(failUnknownStates);
            CREATE TABLE fleet_jobs_new (
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
                last_error TEXT,
                CONSTRAINT fleet_jobs_state_check \(stateCheck)
            );
            INSERT INTO fleet_jobs_new (\(jobColumns)) SELECT \(jobColumns) FROM fleet_jobs;
            DELETE FROM sqlite_sequence WHERE name = 'fleet_jobs_new';
            INSERT INTO sqlite_sequence (name, seq) SELECT 'fleet_jobs_new', seq FROM sqlite_sequence WHERE name = 'fleet_jobs';
            DROP TABLE fleet_jobs;
            ALTER TABLE fleet_jobs_new RENAME TO fleet_jobs;
            CREATE INDEX fleet_jobs_ready ON fleet_jobs (priority DESC, run_after, id) WHERE state = 'queued';
            CREATE INDEX fleet_jobs_leases ON fleet_jobs (lease_until) WHERE state = 'running';
            CREATE INDEX fleet_jobs_state ON fleet_jobs (state);
            CREATE INDEX fleet_jobs_branch ON fleet_jobs (repository, branch, id)
            """)

    /// Every column of `fleet_jobs` as migration 1 made it, for the copy.
    private static let jobColumns = """
        id, kind, spec, repository, branch, priority, state, attempts, max_attempts, run_after, created_at, started_at, \
        finished_at, lease_owner, lease_token, lease_until, lease_expiries, cancel_requested, exclusive_key, last_error
        """
}
