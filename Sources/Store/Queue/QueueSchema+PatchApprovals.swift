extension QueueSchema {
    /// Migration 3: approvals bound to the patch and to the database's identity. A heal's verified
    /// patch is a row of its own (`fleet_patches`, one per job: a retry that verifies another patch
    /// replaces it, and a decision on the old digest no longer matches); a decision is keyed by
    /// (job, digest); each attempt keeps its error and a bounded tail of the run's log
    /// (`fleet_attempts`). On PostgreSQL the server, not the client, names who submitted a job and
    /// who decided: triggers set `submitted_by` and `approver` to `session_user`, whatever the
    /// statement said. Existing rows are kept (`submitted_by` stays NULL for them).
    static let patchApprovals = QueueMigration(
        version: 6, name: "006_patch_approvals",
        postgres: """
            ALTER TABLE fleet_jobs ADD COLUMN submitted_by TEXT;
            \(patchTables);
            CREATE OR REPLACE FUNCTION fleet_stamp_submitter() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN NEW.submitted_by := session_user; ELSE NEW.submitted_by := OLD.submitted_by; END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER fleet_jobs_submitter BEFORE INSERT OR UPDATE ON fleet_jobs
                FOR EACH ROW EXECUTE FUNCTION fleet_stamp_submitter();
            CREATE OR REPLACE FUNCTION fleet_stamp_approver() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                NEW.approver := session_user;
                RETURN NEW;
            END $$;
            CREATE TRIGGER fleet_decisions_approver BEFORE INSERT OR UPDATE ON fleet_decisions
                FOR EACH ROW EXECUTE FUNCTION fleet_stamp_approver()
            """,
        sqlite: """
            ALTER TABLE fleet_jobs ADD COLUMN submitted_by TEXT;
            \(patchTables)
            """)

    /// The tables, the same on both backends.
    private static let patchTables = """
        CREATE TABLE fleet_patches (
            job_id BIGINT PRIMARY KEY REFERENCES fleet_jobs (id),
            digest TEXT NOT NULL,
            patch TEXT NOT NULL,
            description TEXT,
            actor TEXT,
            evidence TEXT,
            awaiting INTEGER NOT NULL DEFAULT 0,
            recorded_at DOUBLE PRECISION NOT NULL,
            branch TEXT,
            commit_sha TEXT,
            pull_request TEXT,
            publish_error TEXT
        );
        CREATE TABLE fleet_decisions (
            job_id BIGINT NOT NULL REFERENCES fleet_jobs (id),
            digest TEXT NOT NULL,
            approved INTEGER NOT NULL,
            reason TEXT NOT NULL,
            approver TEXT NOT NULL,
            decided_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (job_id, digest)
        );
        CREATE TABLE fleet_attempts (
            job_id BIGINT NOT NULL REFERENCES fleet_jobs (id),
            attempt INTEGER NOT NULL,
            worker TEXT NOT NULL,
            outcome TEXT NOT NULL,
            error TEXT,
            log TEXT NOT NULL,
            ended_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (job_id, attempt)
        )
        """
}
