import Support

extension JobQueue {
    /// The scheduler's leader lease, in `fleet_leaders`.
    public static let schedulerLeadership = "scheduler"

    /// Takes the leader lease `name` for `leader` for `seconds`, or renews it when `leader` holds it
    /// (River's `river_leader`): true when `leader` holds it now. Another leader's lease is taken only
    /// once it has expired, so a leader that stops renewing (SIGSTOPped, partitioned) loses it after
    /// `seconds`, whatever its session does; times are the server's clock on PostgreSQL. A lease
    /// ending further ahead than its term was renewed before that clock went back: it is cut to
    /// end one term from now, so a step back keeps a dead leader's lease a term, not the step's size.
    public func holdLeadership(_ name: String, leader: String, seconds: Double) throws -> Bool {
        try storage.rows(
            "UPDATE fleet_leaders SET expires_at = {now} + term_seconds WHERE name = $1 AND expires_at > {now} + term_seconds",
            [name])
        let rows = try storage.rows(
            """
            INSERT INTO fleet_leaders (name, leader_id, elected_at, expires_at, term_seconds) VALUES ($1, $2, {now}, {now} + $3, $3)
            ON CONFLICT (name) DO UPDATE SET leader_id = excluded.leader_id, expires_at = excluded.expires_at,
                term_seconds = excluded.term_seconds,
                elected_at = CASE WHEN fleet_leaders.leader_id = excluded.leader_id THEN fleet_leaders.elected_at ELSE excluded.elected_at END
            WHERE fleet_leaders.leader_id = excluded.leader_id OR fleet_leaders.expires_at < {now}
            RETURNING leader_id
            """, [name, leader, String(max(0.1, seconds))])
        return !rows.isEmpty
    }

    /// Gives the lease `name` up when `leader` holds it (a scheduler stopping): another takes it at once.
    public func resignLeadership(_ name: String, leader: String) throws {
        try storage.rows("DELETE FROM fleet_leaders WHERE name = $1 AND leader_id = $2", [name, leader])
    }

    /// Whether `leader` holds the unexpired lease `name`, inside the caller's transaction: on
    /// PostgreSQL the lease row is locked until it commits, so it cannot be taken over meanwhile.
    func checkLeadership(_ name: String, leader: String) throws -> Bool {
        !(try storage.rows(
            "SELECT leader_id FROM fleet_leaders WHERE name = $1 AND leader_id = $2 AND expires_at > {now} \(storage.isServer ? "FOR UPDATE" : "")",
            [name, leader])).isEmpty
    }
}
