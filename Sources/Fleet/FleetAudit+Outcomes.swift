import Audit
import Foundation
import Store
import Support

extension FleetAudit {
    /// Runs `record` — one of `JobQueue`'s outcome methods (`complete`, `fail`, `release`,
    /// `cancelled`, `cancel`, `reapExpiredLeases`) — with the closure that appends `entry(outcome)`
    /// to this writer's chain inside the outcome's transaction, so the outcome commits with its
    /// entry or not at all (a refused chain, a lost connection: neither is recorded). This machine's
    /// head file is advanced after the commit. `entry` returning nil appends nothing. `alongside`
    /// runs in the same transaction first, for each outcome (the attempt's own record).
    public func recording<Outcome, Result>(
        _ record: (_ audit: (Outcome) throws -> Void) throws -> Result, alongside: @escaping () throws -> Void = {},
        entry: @escaping (Outcome) throws -> AuditEntry?
    ) throws -> Result {
        var written: AuditHead?
        let result = try record { outcome in
            try alongside()
            guard let entry = try entry(outcome) else { return }
            let head = try appendLine(entry, at: Date())
            if head.sequence > written?.sequence ?? 0 { written = head }
        }
        if let written {
            do {
                try advance(to: written)
            } catch {
                guard let report = onHeadFileError else { throw error }
                report(error)
            }
        }
        return result
    }

    /// Reaps expired leases (`JobQueue.reapExpiredLeases`), each expiry's `fleet.lease.expired` entry
    /// appended by `actor` in the same transaction; `clock` is the reaper's own watch of the
    /// database's clock (``DatabaseClockWatch``), kept across its passes.
    public func reapExpiredLeases(actor: String, clock: DatabaseClockWatch? = nil) throws -> [ExpiredLease] {
        try recording({ try queue.reapExpiredLeases(clock: clock, audit: $0) }) { (expired: ExpiredLease) in
            AuditEntry(
                event: Self.leaseExpiredEvent, actor: actor,
                details: ["job": String(expired.jobID), "holder": expired.owner, "state": expired.newState.rawValue])
        }
    }

    /// The event of an attempt's outcome that left its job in `state`: `fleet.job.succeeded`,
    /// `.failed`, `.dead`, `.cancelled`, `.retry` (queued again after a failure) or `.released`
    /// (queued again without counting the attempt).
    public static func outcomeEvent(_ state: JobState, released: Bool = false) -> String {
        switch state {
        case .queued: released ? "fleet.job.released" : "fleet.job.retry"
        case .running: "fleet.job.running"
        case .succeeded, .failed, .dead, .cancelled: "fleet.job." + state.rawValue
        }
    }

    /// The event of a lease expiry's entry.
    public static let leaseExpiredEvent = "fleet.lease.expired"
    /// The event of `fleet retry` queueing a finished job again (its next outcome is audited anew).
    public static let requeuedEvent = "fleet.job.requeued"

    /// The events that end a job for good (its state final): each such job has exactly one entry
    /// among these and the lease expiries that ended it.
    static let finalEvents: Set<String> = ["fleet.job.succeeded", "fleet.job.failed", "fleet.job.dead", "fleet.job.cancelled"]

    /// The job states no attempt leaves.
    static let finalStates: Set<String> = ["succeeded", "failed", "dead", "cancelled"]
}
