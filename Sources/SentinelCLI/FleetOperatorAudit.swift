import Audit
import Fleet
import Foundation
import Store

/// What an operator did to jobs by hand (`fleet retry`, `delete`, `prune`), in the fleet's audit
/// chain: the chain is checked before the change (a change the chain could not record is not made)
/// and the entry appended after it.
struct FleetOperatorAudit {
    let audit: FleetAudit

    /// Opens the chain of `queue` with `options`' key and checks its tail.
    init(queue: JobQueue, options: FleetAuditOptions) throws {
        audit = FleetAudit(queue: queue, state: try options.open())
        try audit.checkTail()
    }

    /// Appends `event` with `details`, the operator named as `fleet approve` names them.
    func record(_ event: String, _ details: [String: String]) throws {
        let person = ProcessInfo.processInfo.environment["USER"] ?? "operator"
        try audit.append(AuditEntry(event: event, actor: person, details: details))
    }
}
