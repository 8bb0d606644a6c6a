import Support

extension JobQueue {
    /// Appends one line to the fleet's audit chain, one writer at a time fleet-wide (an advisory
    /// transaction lock on PostgreSQL, the write lock on SQLite): `make` gets the chain's last line
    /// (nil for the first) and returns the new line with its sequence number and SHA-256, which is
    /// stored as the chain's head in the same transaction (the anchor truncation is checked against).
    public func appendAuditLine(_ make: (String?) throws -> (line: String, sequence: Int, hash: String)) throws {
        try storage.transaction {
            if storage.isServer {
                try storage.rows("SELECT pg_advisory_xact_lock(hashtextextended('sentinel-fleet-audit', 0))", [])
            }
            let last = try storage.value("SELECT line FROM fleet_audit ORDER BY seq DESC LIMIT 1")
            let next = try make(last)
            try storage.rows("INSERT INTO fleet_audit (seq, line) VALUES ($1, $2)", [String(next.sequence), next.line])
            try storage.rows(
                """
                INSERT INTO fleet_audit_head (id, seq, hash) VALUES (1, $1, $2)
                ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash
                """, [String(next.sequence), next.hash])
        }
    }

    /// Every line of the audit chain, in sequence order.
    public func auditLines() throws -> [String] {
        try storage.rows("SELECT line FROM fleet_audit ORDER BY seq", []).map { $0.first.flatMap { $0 } ?? "" }
    }

    /// The stored head: the last line's sequence number and SHA-256; nil before the first append.
    public func auditHead() throws -> (sequence: Int, hash: String)? {
        guard let row = try storage.rows("SELECT seq, hash FROM fleet_audit_head WHERE id = 1", []).first,
            let sequence = row[0].flatMap({ Int($0) }), let hash = row[1]
        else { return nil }
        return (sequence, hash)
    }
}
