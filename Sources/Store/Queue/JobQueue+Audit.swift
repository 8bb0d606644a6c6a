import Support

extension JobQueue {
    /// The chain the lines written before per-writer chains became (migration 3), and the chain of
    /// a writer that names none.
    public static let legacyAuditChain = QueueSchema.legacyAuditChain

    /// Appends one line to the audit chain `chain`, one writer of that chain at a time: the chain's
    /// head row is locked (`SELECT … FOR UPDATE` on PostgreSQL, the write lock on SQLite), never a
    /// fleet-wide lock, so a writer stopped inside its append holds up its own chain only. `make`
    /// gets the chain's last line (nil for the first) and its stored head, and returns the new line
    /// with its sequence number and link, stored as the chain's head in the same transaction. `make`
    /// may read other lines (`auditLine`) and throw to refuse the append; nothing is written then.
    ///
    /// Called inside another of this queue's transactions (an outcome's), it joins it: the line and
    /// the outcome commit together or not at all.
    public func appendAuditLine(
        chain: String = JobQueue.legacyAuditChain,
        _ make: (_ last: String?, _ head: (sequence: Int, hash: String)?) throws -> (line: String, sequence: Int, hash: String)
    ) throws {
        try extendAuditChain(chain) { head, last in try make(try last(), head) }
    }

    /// `appendAuditLine`, where `make` reads the chain's last line only if it needs it (`last`): a
    /// writer whose stored head is the one it committed itself knows the line already.
    public func extendAuditChain(
        _ chain: String,
        _ make: (_ head: (sequence: Int, hash: String)?, _ last: () throws -> String?) throws -> (
            line: String, sequence: Int, hash: String
        )
    ) throws {
        try Self.checkChainName(chain)
        try storage.transaction {
            let head = try lockedHead(chain)
            let next = try make(head, { try lastAuditLine(chain) })
            try storage.rows("INSERT INTO fleet_audit (chain, seq, line) VALUES ($1, $2, $3)", [chain, String(next.sequence), next.line])
            try storage.rows(
                "UPDATE fleet_audit_chains SET seq = $2, hash = $3 WHERE chain = $1", [chain, String(next.sequence), next.hash])
        }
    }

    /// Calls `check` with `chain`'s last line and stored head as `appendAuditLine` would give them
    /// (under the same row lock, so no append lands between the two reads); writes nothing.
    public func checkAuditTail(
        chain: String = JobQueue.legacyAuditChain, _ check: (_ last: String?, _ head: (sequence: Int, hash: String)?) throws -> Void
    ) throws {
        try Self.checkChainName(chain)
        try storage.transaction {
            try check(try lastAuditLine(chain), try auditHead(chain: chain))
        }
    }

    /// Every chain's lines and stored head, read in one snapshot (an append between two reads would
    /// look like a cut or an addition), by chain name; a chain with lines and no head row has a nil
    /// head. `lastJob` is the last job from before per-writer chains: later ones are cross-checked.
    public func auditSnapshot() throws -> (chains: [AuditChainSnapshot], lastUncheckedJob: Int64, jobs: [AuditedJob]) {
        try snapshotTransaction {
            var chains: [String: AuditChainSnapshot] = [:]
            for (chain, sequence, hash) in try storage.decode(
                storage.rows("SELECT chain, seq, hash FROM fleet_audit_chains", []), table: "fleet_audit_chains",
                { row throws(RowDecodingError) in (try row.text("chain"), try row.int("seq"), try row.text("hash")) })
            {
                chains[chain] = AuditChainSnapshot(chain: chain, lines: [], head: sequence == 0 ? nil : (sequence, hash))
            }
            for (chain, line) in try storage.decode(
                storage.rows("SELECT chain, line FROM fleet_audit ORDER BY chain, seq", []), table: "fleet_audit",
                { row throws(RowDecodingError) in (try row.text("chain"), try row.text("line")) })
            {
                chains[chain, default: AuditChainSnapshot(chain: chain, lines: [], head: nil)].lines.append(line)
            }
            let cutover =
                try storage.first(
                    storage.rows("SELECT max(last_job) AS last_job FROM fleet_audit_cutover", []), table: "fleet_audit_cutover"
                ) { row throws(RowDecodingError) in try row.optionalText("last_job") == nil ? nil : try row.int64("last_job") } ?? nil
            let jobs = try storage.decode(
                storage.rows(
                    "SELECT id, state, lease_expiries FROM fleet_jobs WHERE id > $1 ORDER BY id", [String(cutover ?? 0)]),
                table: "fleet_jobs"
            ) { row throws(RowDecodingError) in
                AuditedJob(id: try row.int64("id"), state: try row.text("state"), leaseExpiries: try row.int("lease_expiries"))
            }
            return (chains.values.sorted { $0.chain < $1.chain }, cutover ?? 0, jobs)
        }
    }

    /// `body` reading one consistent snapshot: a repeatable-read transaction on PostgreSQL (no
    /// lock: appends go on meanwhile), a read transaction on SQLite.
    private func snapshotTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try storage.transaction {
            if storage.isServer {
                // Every line of every chain: longer than the session's statement limit allows on a big fleet.
                try storage.script("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = '10min'")
            }
            return try body()
        }
    }

    /// The lines of `chain`, in sequence order.
    public func auditLines(chain: String = JobQueue.legacyAuditChain) throws -> [String] {
        try storage.decode(storage.rows("SELECT line FROM fleet_audit WHERE chain = $1 ORDER BY seq", [chain]), table: "fleet_audit") {
            row throws(RowDecodingError) in try row.text("line")
        }
    }

    /// Every chain's lines, chain by chain (sorted by name), each in sequence order.
    public func allAuditLines() throws -> [String] {
        try auditChains().flatMap { try auditLines(chain: $0) }
    }

    /// The names of the chains that have a head row or lines, sorted.
    public func auditChains() throws -> [String] {
        try storage.decode(
            storage.rows("SELECT chain FROM fleet_audit_chains UNION SELECT chain FROM fleet_audit ORDER BY chain", []),
            table: "fleet_audit_chains"
        ) { row throws(RowDecodingError) in try row.text("chain") }
    }

    /// The line stored as number `sequence` of `chain`, if there is one.
    public func auditLine(_ sequence: Int, chain: String = JobQueue.legacyAuditChain) throws -> String? {
        try storage.first(
            storage.rows("SELECT line FROM fleet_audit WHERE chain = $1 AND seq = $2", [chain, String(sequence)]), table: "fleet_audit"
        ) {
            row throws(RowDecodingError) in try row.text("line")
        }
    }

    /// The chain's last line; nil before the first append.
    private func lastAuditLine(_ chain: String) throws -> String? {
        try storage.first(
            storage.rows("SELECT line FROM fleet_audit WHERE chain = $1 ORDER BY seq DESC LIMIT 1", [chain]), table: "fleet_audit"
        ) {
            row throws(RowDecodingError) in try row.text("line")
        }
    }

    /// `chain`'s head row, locked for this transaction (made first, empty, for a new chain: two
    /// writers making it at once end up with one row, and wait on each other from then on).
    private func lockedHead(_ chain: String) throws -> (sequence: Int, hash: String)? {
        let lock = storage.isServer ? "FOR UPDATE" : ""
        let select = "SELECT seq, hash FROM fleet_audit_chains WHERE chain = $1 \(lock)"
        let read = { () throws -> (sequence: Int, hash: String)? in
            try self.storage.first(self.storage.rows(select, [chain]), table: "fleet_audit_chains") {
                row throws(RowDecodingError) in (sequence: try row.int("seq"), hash: try row.text("hash"))
            }
        }
        if let head = try read() { return head.sequence == 0 ? nil : head }
        try storage.rows("INSERT INTO fleet_audit_chains (chain, seq, hash) VALUES ($1, 0, '') ON CONFLICT (chain) DO NOTHING", [chain])
        guard let head = try read() else {
            throw SentinelError(.database, "\(storage.name): the audit chain '\(chain)' has no head row after making one")
        }
        return head.sequence == 0 ? nil : head
    }

    /// The stored head of `chain`: its last line's sequence number and link; nil before the first
    /// append. A head that is there but unreadable is an error, not "no head": that would pass a cut chain.
    public func auditHead(chain: String = JobQueue.legacyAuditChain) throws -> (sequence: Int, hash: String)? {
        let head = try storage.first(
            storage.rows("SELECT seq, hash FROM fleet_audit_chains WHERE chain = $1", [chain]), table: "fleet_audit_chains"
        ) {
            row throws(RowDecodingError) in (sequence: try row.int("seq"), hash: try row.text("hash"))
        }
        return head?.sequence == 0 ? nil : head
    }

    /// A chain's name is a writer's: 1 to 200 bytes, no control characters (it is written on a
    /// line of a head file and in messages).
    static func checkChainName(_ chain: String) throws {
        guard !chain.isEmpty, chain.utf8.count <= 200, !chain.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw SentinelError(.invalidInput, "'\(chain.prefix(40))': an audit chain's name is 1 to 200 bytes without control characters")
        }
    }
}

/// One audit chain as `JobQueue.auditSnapshot` read it.
public struct AuditChainSnapshot: Sendable {
    /// Its name: the writer's.
    public var chain: String
    /// Its lines in sequence order.
    public var lines: [String]
    /// Its stored head; nil when it has none (no append yet, or its row was deleted).
    public var head: (sequence: Int, hash: String)?

    /// A chain named `chain` holding `lines`, whose stored head is `head`.
    public init(chain: String, lines: [String], head: (sequence: Int, hash: String)?) {
        self.chain = chain
        self.lines = lines
        self.head = head
    }
}

/// A job the audit cross-check covers: its state as stored and how many of its leases expired.
public struct AuditedJob: Sendable, Hashable {
    /// The job's id.
    public var id: Int64
    /// Its state column as stored (`succeeded`, `dead`...).
    public var state: String
    /// How many times its lease expired (`fleet_jobs.lease_expiries`).
    public var leaseExpiries: Int
}

extension JobQueue {
    /// Each chain's last line, by chain name.
    public func lastAuditLines() throws -> [(chain: String, line: String)] {
        try storage.decode(
            storage.rows(
                """
                SELECT last.chain AS chain, last.line AS line FROM fleet_audit AS last
                WHERE last.seq = (SELECT max(other.seq) FROM fleet_audit AS other WHERE other.chain = last.chain) ORDER BY last.chain
                """, []), table: "fleet_audit"
        ) { row throws(RowDecodingError) in (chain: try row.text("chain"), line: try row.text("line")) }
    }
}
