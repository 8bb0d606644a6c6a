import Audit
import Fleet
import Foundation
import Store

/// What an operator did to jobs by hand (`fleet retry`, `delete`, `prune`), in the fleet's audit
/// chain: the chain is checked first, and a job's requeue or deletion is appended in the transaction
/// that makes it (a change the chain could not record is not made); a prune's count after it.
struct FleetOperatorAudit {
    let audit: FleetAudit
    /// The operator, as the database knows them (`FleetOperator`).
    let person: String

    /// Opens the operator's chain in `queue` with `options`' key and checks its tail.
    init(queue: JobQueue, options: FleetAuditOptions) throws {
        person = try FleetOperator.current(queue)
        audit = try options.operatorChain(queue, person: person)
    }

    /// Appends `event` with `details`, the operator named as `fleet approve` names them.
    func record(_ event: String, _ details: [String: String]) throws {
        try audit.append(entry(event, details))
    }

    /// Runs `change` with an audit closure that appends the entry `make` gives for its outcome (nil:
    /// none) in the change's own transaction.
    func recording<Outcome, Result>(
        _ change: (_ audit: (Outcome) throws -> Void) throws -> Result, _ make: @escaping (Outcome) -> (String, [String: String])?
    ) throws -> Result {
        try audit.recording(change) { outcome in make(outcome).map { entry($0.0, $0.1) } }
    }

    private func entry(_ event: String, _ details: [String: String]) -> AuditEntry {
        AuditEntry(event: event, actor: person, details: details)
    }
}
