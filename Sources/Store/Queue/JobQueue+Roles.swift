import Support

/// The fleet's database roles on PostgreSQL (`fleet init-db`): four NOLOGIN group roles, each
/// granted exactly what its people or machines do, with row-level security where a role sees only
/// its own rows. An operator makes login roles members of them (`CREATE ROLE alice LOGIN IN ROLE
/// sentinel_approver`); the database, not the client, then says who did what (`session_user`).
public enum FleetRole: String, Sendable, CaseIterable, Codable {
    /// Submits jobs and reads its own jobs and their results.
    case submitter = "sentinel_submitter"
    /// Claims, renews and ends jobs, records results, patches, attempts, memory and audit lines.
    case worker = "sentinel_worker"
    /// Reads jobs and patches, records decisions (its name set by the server) and their audit lines,
    /// in its own chain only (`operator:` and its login): it never moves a worker's chain head.
    case approver = "sentinel_approver"
    /// Reads everything, writes nothing.
    case reader = "sentinel_reader"

    /// Table → privileges, the whole grant of the role; a privilege with columns is column-level.
    /// A table another migration adds is granted nowhere until it is listed here.
    var grants: [(table: String, privileges: String)] {
        switch self {
        case .submitter:
            return [
                (
                    "fleet_jobs",
                    "SELECT, INSERT (kind, spec, repository, branch, priority, max_attempts, run_after, created_at, exclusive_key, unique_key, unique_all_states)"
                ),
                ("fleet_results", "SELECT"), ("fleet_findings", "SELECT"), ("fleet_schema_migrations", "SELECT"),
            ]
        case .worker:
            return [
                ("fleet_jobs", "SELECT, INSERT, UPDATE"), ("fleet_results", "SELECT, INSERT"), ("fleet_findings", "SELECT, INSERT"),
                ("fleet_proposals", "SELECT, INSERT"), ("fleet_patches", "SELECT, INSERT, UPDATE"), ("fleet_decisions", "SELECT"),
                ("fleet_attempts", "SELECT, INSERT, UPDATE"), ("fleet_audit", "SELECT, INSERT"),
                ("fleet_audit_chains", "SELECT, INSERT, UPDATE"), ("fleet_audit_cutover", "SELECT"),
                ("fleet_leaders", "SELECT, INSERT, UPDATE, DELETE"), ("fleet_memory", "SELECT, INSERT, UPDATE"),
                ("fleet_schedules", "SELECT, UPDATE"), ("fleet_schema_migrations", "SELECT"),
            ]
        case .approver:
            return [
                ("fleet_jobs", "SELECT"), ("fleet_patches", "SELECT"), ("fleet_attempts", "SELECT"), ("fleet_results", "SELECT"),
                ("fleet_findings", "SELECT"), ("fleet_decisions", "SELECT, INSERT (job_id, digest, approved, reason, decided_at)"),
                ("fleet_audit", "SELECT, INSERT"), ("fleet_audit_chains", "SELECT, INSERT, UPDATE"), ("fleet_audit_cutover", "SELECT"),
                ("fleet_schema_migrations", "SELECT"),
            ]
        case .reader:
            return Self.tables.map { ($0, "SELECT") }
        }
    }

    /// Sequences the role draws ids from.
    var sequences: [String] {
        switch self {
        case .submitter: return ["fleet_jobs_id_seq"]
        case .worker: return ["fleet_jobs_id_seq", "fleet_memory_id_seq"]
        case .approver, .reader: return []
        }
    }

    /// Every fleet table the roles are granted on (and revoked from, so that a second run converges).
    static let tables = [
        "fleet_jobs", "fleet_results", "fleet_findings", "fleet_schedules", "fleet_approvals", "fleet_proposals", "fleet_audit",
        "fleet_audit_chains", "fleet_audit_cutover", "fleet_leaders", "fleet_memory", "fleet_schema", "fleet_schema_migrations",
        "fleet_patches", "fleet_decisions", "fleet_attempts",
    ]

    /// Tables whose rows a submitter sees only for its own jobs.
    static let ownedTables = ["fleet_results", "fleet_findings"]

    /// The audit tables, whose rows each name their chain: an approver writes only its own chain
    /// (`FleetRole.approverChain`), a worker only chains that are not an operator's.
    static let chainTables = ["fleet_audit", "fleet_audit_chains"]

    /// The chain of the approver logged in as the session: `operator:LOGIN`, as `fleet approve` names it.
    static let approverChain = "'operator:' || session_user"
}

extension JobQueue {
    /// The advisory lock `createRoles` holds, so two runs on one database at once do not race.
    static let rolesLock = "sentinel-fleet-roles"

    /// Creates (or brings up to date) the fleet's roles, their grants and row-level security, in
    /// one transaction; running it again changes nothing. PostgreSQL only: SQLite has no roles and
    /// is refused with `.invalidInput`. The connecting role must own the tables and may create roles.
    public func createRoles() throws {
        guard storage.isServer else {
            throw SentinelError(
                .invalidInput, "\(storage.name): SQLite has no database roles; init-db is for PostgreSQL (its tables are made on first use)"
            )
        }
        try storage.transaction {
            try storage.rows("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [Self.rolesLock])
            try storage.script(Self.rolesScript)
        }
    }

    /// The statements `createRoles` runs.
    static var rolesScript: String {
        let roles = FleetRole.allCases.map(\.rawValue)
        var statements: [String] = []
        for role in roles {
            statements.append(
                // Roles are the cluster's, the advisory lock only this database's: an init-db of another
                // database at the same moment may create the role first (unique_violation), not an error.
                "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '\(role)') THEN CREATE ROLE \(role) NOLOGIN; END IF; "
                    + "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"
            )
        }
        let all = roles.joined(separator: ", ")
        for table in FleetRole.tables { statements.append("REVOKE ALL ON \(table) FROM \(all)") }
        statements.append("REVOKE ALL ON SEQUENCE fleet_jobs_id_seq, fleet_memory_id_seq FROM \(all)")
        for role in FleetRole.allCases {
            for (table, privileges) in role.grants { statements.append("GRANT \(privileges) ON \(table) TO \(role.rawValue)") }
            for sequence in role.sequences { statements.append("GRANT USAGE, SELECT ON SEQUENCE \(sequence) TO \(role.rawValue)") }
        }
        // A submitter sees the jobs it submitted (the server set submitted_by) and their results;
        // the other roles every row, as far as their grants reach. The tables' owner is not bound.
        let staff = "sentinel_worker, sentinel_approver, sentinel_reader"
        statements += [
            "ALTER TABLE fleet_jobs ENABLE ROW LEVEL SECURITY",
            "DROP POLICY IF EXISTS fleet_jobs_own ON fleet_jobs",
            "CREATE POLICY fleet_jobs_own ON fleet_jobs FOR SELECT TO sentinel_submitter USING (submitted_by = session_user)",
            "DROP POLICY IF EXISTS fleet_jobs_submit ON fleet_jobs",
            "CREATE POLICY fleet_jobs_submit ON fleet_jobs FOR INSERT TO sentinel_submitter WITH CHECK (submitted_by = session_user)",
            "DROP POLICY IF EXISTS fleet_jobs_staff ON fleet_jobs",
            "CREATE POLICY fleet_jobs_staff ON fleet_jobs TO \(staff) USING (true) WITH CHECK (true)",
        ]
        for table in FleetRole.ownedTables {
            statements += [
                "ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY",
                "DROP POLICY IF EXISTS \(table)_own ON \(table)",
                // fleet_jobs under the reader's own policies: the submitter's jobs only.
                "CREATE POLICY \(table)_own ON \(table) FOR SELECT TO sentinel_submitter USING (job_id IN (SELECT id FROM fleet_jobs))",
                "DROP POLICY IF EXISTS \(table)_staff ON \(table)",
                "CREATE POLICY \(table)_staff ON \(table) TO \(staff) USING (true) WITH CHECK (true)",
            ]
        }
        // Audit chains (issue 78, W9): an approver appends to and moves the head of its own chain
        // only, so it can neither move a worker's head (which would make the worker refuse its next
        // outcome) nor take a worker's next sequence number. Workers, whose chains are named by
        // the machine, not by a login, write any chain but an operator's. Everyone granted reads all.
        for table in FleetRole.chainTables {
            let own = "chain = \(FleetRole.approverChain)"
            let notOperators = "left(chain, 9) <> 'operator:'"
            statements += [
                "ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY",
                "DROP POLICY IF EXISTS \(table)_read ON \(table)",
                "CREATE POLICY \(table)_read ON \(table) FOR SELECT TO sentinel_approver, sentinel_reader, sentinel_worker USING (true)",
                "DROP POLICY IF EXISTS \(table)_approver_insert ON \(table)",
                "CREATE POLICY \(table)_approver_insert ON \(table) FOR INSERT TO sentinel_approver WITH CHECK (\(own))",
                "DROP POLICY IF EXISTS \(table)_approver_update ON \(table)",
                "CREATE POLICY \(table)_approver_update ON \(table) FOR UPDATE TO sentinel_approver USING (\(own)) WITH CHECK (\(own))",
                "DROP POLICY IF EXISTS \(table)_worker_insert ON \(table)",
                "CREATE POLICY \(table)_worker_insert ON \(table) FOR INSERT TO sentinel_worker WITH CHECK (\(notOperators))",
                "DROP POLICY IF EXISTS \(table)_worker_update ON \(table)",
                "CREATE POLICY \(table)_worker_update ON \(table) FOR UPDATE TO sentinel_worker USING (\(notOperators)) WITH CHECK (\(notOperators))",
            ]
        }
        return statements.joined(separator: ";\n")
    }
}
