extension QueueSchema {
    /// The chain lines written before migration 3 join: they were one fleet-wide chain.
    static let legacyAuditChain = "fleet"

    /// Migration 3: one audit chain per writer instead of one for the fleet, and a leader lease for
    /// the scheduler instead of a session advisory lock.
    ///
    /// - `fleet_audit` gains `chain` (its key is `(chain, seq)`); the lines already there become the
    ///   chain `fleet`, unchanged, so they verify as before.
    /// - `fleet_audit_chains` holds each chain's head (`fleet_audit_head`'s one row becomes the
    ///   `fleet` chain's); an append locks only its own chain's row (`SELECT … FOR UPDATE`).
    /// - `fleet_audit_cutover` records the last job id before the migration: from the next one on,
    ///   every outcome is appended in the transaction that records it, and `fleet audit verify`
    ///   cross-checks each one; earlier jobs were audited after their outcome, and are not.
    /// - `fleet_leaders` is River's `river_leader`: a named lease a leader renews and another takes
    ///   when it has expired, so a leader that stops answering loses it.
    ///
    /// The same statements on both backends: the table is copied, not altered (SQLite cannot change a
    /// primary key in place).
    static let auditChains = QueueMigration(
        version: 3, name: "003_audit_chains",
        sql: """
            CREATE TABLE fleet_audit_lines (
                chain TEXT NOT NULL,
                seq BIGINT NOT NULL,
                line TEXT NOT NULL,
                PRIMARY KEY (chain, seq)
            );
            INSERT INTO fleet_audit_lines (chain, seq, line) SELECT '\(legacyAuditChain)', seq, line FROM fleet_audit;
            DROP TABLE fleet_audit;
            ALTER TABLE fleet_audit_lines RENAME TO fleet_audit;
            CREATE TABLE fleet_audit_chains (
                chain TEXT PRIMARY KEY,
                seq BIGINT NOT NULL,
                hash TEXT NOT NULL
            );
            INSERT INTO fleet_audit_chains (chain, seq, hash) SELECT '\(legacyAuditChain)', seq, hash FROM fleet_audit_head;
            DROP TABLE fleet_audit_head;
            CREATE TABLE fleet_audit_cutover (last_job BIGINT NOT NULL);
            INSERT INTO fleet_audit_cutover (last_job) SELECT coalesce(max(id), 0) FROM fleet_jobs;
            CREATE TABLE fleet_leaders (
                name TEXT PRIMARY KEY,
                leader_id TEXT NOT NULL,
                elected_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL
            )
            """)
}
