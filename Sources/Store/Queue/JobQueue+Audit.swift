import Support

extension JobQueue {
    /// Appends one line to the fleet's audit chain, one writer at a time fleet-wide (an advisory
    /// transaction lock on PostgreSQL, the write lock on SQLite): `make` gets the chain's last line
    /// (nil for the first) and the stored head, and returns the new line with its sequence number
    /// and link, which is stored as the chain's head in the same transaction. `make` may read other
    /// lines (`auditLine`) and throw to refuse the append; nothing is written then.
    public func appendAuditLine(
        _ make: (_ last: String?, _ head: (sequence: Int, hash: String)?) throws -> (line: String, sequence: Int, hash: String)
    ) throws {
        try lockedAudit {
            let next = try make(try lastAuditLine(), try auditHead())
            try storage.rows("INSERT INTO fleet_audit (seq, line) VALUES ($1, $2)", [String(next.sequence), next.line])
            try storage.rows(
                """
                INSERT INTO fleet_audit_head (id, seq, hash) VALUES (1, $1, $2)
                ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash
                """, [String(next.sequence), next.hash])
        }
    }

    /// Calls `check` with the chain's last line and stored head as `appendAuditLine` would give
    /// them (under the same lock, so no append lands between the two reads); writes nothing.
    public func checkAuditTail(_ check: (_ last: String?, _ head: (sequence: Int, hash: String)?) throws -> Void) throws {
        try lockedAudit {
            try check(try lastAuditLine(), try auditHead())
        }
    }

    /// Every line of the chain and its stored head, read together (an append between two reads
    /// would look like a cut or an addition).
    public func auditSnapshot() throws -> (lines: [String], head: (sequence: Int, hash: String)?) {
        try lockedAudit { (try auditLines(), try auditHead()) }
    }

    /// `body` in a transaction holding the audit chain's lock fleet-wide.
    private func lockedAudit<Result>(_ body: () throws -> Result) throws -> Result {
        try storage.transaction {
            if storage.isServer {
                try storage.rows("SELECT pg_advisory_xact_lock(hashtextextended('sentinel-fleet-audit', 0))", [])
            }
            return try body()
        }
    }

    /// Every line of the audit chain, in sequence order.
    public func auditLines() throws -> [String] {
        try storage.decode(storage.rows("SELECT line FROM fleet_audit ORDER BY seq", []), table: "fleet_audit") {
            row throws(RowDecodingError) in try row.text("line")
        }
    }

    /// The line stored as number `sequence`, if there is one.
    public func auditLine(_ sequence: Int) throws -> String? {
        try storage.first(storage.rows("SELECT line FROM fleet_audit WHERE seq = $1", [String(sequence)]), table: "fleet_audit") {
            row throws(RowDecodingError) in try row.text("line")
        }
    }

    /// The chain's last line; nil before the first append.
    private func lastAuditLine() throws -> String? {
        try storage.first(storage.rows("SELECT line FROM fleet_audit ORDER BY seq DESC LIMIT 1", []), table: "fleet_audit") {
            row throws(RowDecodingError) in try row.text("line")
        }
    }

    /// The stored head: the last line's sequence number and link; nil before the first append. A
    /// head that is there but unreadable is an error, not "no head": that would pass a cut chain.
    public func auditHead() throws -> (sequence: Int, hash: String)? {
        try storage.first(storage.rows("SELECT seq, hash FROM fleet_audit_head WHERE id = 1", []), table: "fleet_audit_head") {
            row throws(RowDecodingError) in (sequence: try row.int("seq"), hash: try row.text("hash"))
        }
    }
}
