import Fleet
import Store

/// Who runs a fleet command that writes the audit chain (`fleet approve`, `deny`, `cancel`, `retry`,
/// `delete`, `prune`), and the chain that person's entries go to: one per writer identity, so that
/// operators and workers never wait on each other's appends.
enum FleetOperator {
    /// The operator as the database knows them (`JobQueue.sessionIdentity`: PostgreSQL's
    /// `session_user`, SQLite's effective uid), never `$USER`, which whoever runs the command sets.
    static func current(_ queue: JobQueue) throws -> String { try queue.sessionIdentity() }

    /// The audit chain of `person`'s entries: `operator:NAME`, apart from every worker's (a worker's
    /// chain is its name, `host:pid`).
    static func chain(of person: String) -> String { FleetAudit.operatorChainPrefix + person }
}
