import Foundation
import Support

/// What a fleet worker needs of the queue to run all its jobs on one connection: every lease it
/// holds renewed in one statement, and one listening connection for the whole process.
extension JobQueue {
    /// The most leases one `renew` statement carries (a worker runs at most 256 jobs at once).
    public static let renewBatch = 256

    /// Extends by `leaseSeconds` every lease of `leases` still held, in one statement per
    /// `renewBatch` leases; says for each (by job id) whether it is held, cancel-requested or lost.
    public func renew(_ leases: [JobLease], leaseSeconds: Double) throws -> [Int64: LeaseStatus] {
        var found: [Int64: LeaseStatus] = [:]
        for lease in leases { found[lease.jobID] = .lost }
        var start = 0
        while start < leases.count {
            let batch = Array(leases[start..<min(leases.count, start + Self.renewBatch)])
            start += batch.count
            // `$1` the length, then the tokens: a lease is its token (random per claim), whatever its id.
            let tokens = (0..<batch.count).map { "$\($0 + 2)" }.joined(separator: ", ")
            let rows = try storage.rows(
                """
                UPDATE fleet_jobs SET lease_until = {now} + $1, lease_seconds = $1
                WHERE state = 'running' AND lease_token IN (\(tokens)) RETURNING id, lease_token, cancel_requested
                """, [String(leaseSeconds)] + batch.map(\.token))
            let renewed = try storage.decode(rows, table: "fleet_jobs") { row throws(RowDecodingError) in
                (try row.int64("id"), try row.text("lease_token"), try row.flag("cancel_requested"))
            }
            for (id, token, cancel) in renewed where batch.contains(where: { $0.jobID == id && $0.token == token }) {
                found[id] = cancel ? .cancelRequested : .held
            }
        }
        return found
    }

    /// True when the backend delivers notifications (PostgreSQL); SQLite's waiters poll.
    public var notifies: Bool { storage.isServer }

    /// Waits up to `timeout` seconds for a submission or an approval decision on this connection
    /// (LISTEN on both channels, once); nil when none came, at once on SQLite.
    public func nextNotification(timeout: Double) throws -> QueueNotification? {
        guard let (channel, payload) = try storage.waitAny(channels: [Self.jobsChannel, Self.decisionsChannel], timeout: timeout)
        else { return nil }
        return QueueNotification(kind: channel == Self.jobsChannel ? .submitted : .decided, payload: payload)
    }
}

/// A notification a listening connection received.
public struct QueueNotification: Sendable, Hashable {
    /// What it announces.
    public enum Kind: Sendable, Hashable {
        /// A job was submitted (or became due): idle workers claim.
        case submitted
        /// An approval decision was recorded: waiting heals look.
        case decided
    }
    /// What it announces.
    public var kind: Kind
    /// The sender's payload (a job id, a proposal), as sent: untrusted text.
    public var payload: String
}
