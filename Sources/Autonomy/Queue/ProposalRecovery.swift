#if canImport(Glibc)
    import Glibc
#endif
import Audit
import Foundation
import Git
import Support

/// Finishes what a crashed `sentinel` left in the `applying` state. The branch and the commit's
/// `Sentinel-Proposal` trailer say how far it got: a branch holding the proposal's commit means
/// the application was done and only the bookkeeping is missing (completed); no such branch
/// means nothing visible happened (the proposal goes back to the queue). The audit log's last
/// entry for the proposal is quoted in the recovery entry, so a reviewer sees both.
public enum ProposalRecovery {
    /// What recovery did to one proposal.
    public struct Action: Sendable, Hashable {
        /// The proposal.
        public var id: String
        /// `completed` or `rolled back`.
        public var outcome: String
        /// The last audited step before the crash.
        public var lastEvent: String?
    }

    /// Recovers every `applying` proposal whose applier is gone (a live one on this host is left
    /// alone); returns what was done.
    @discardableResult
    public static func run(store: AutonomyStore, audit: AuditLog, actor: String) throws -> [Action] {
        var actions: [Action] = []
        // In a launcher's analysis (its own pid namespace) no other applier's liveness can be
        // told: recovery is left to a process that can.
        guard ProcessInfo.processInfo.environment[launcherVariable] == nil else { return [] }
        for queued in try store.list(statuses: [.applying]) where !stillRunning(queued.reason) {
            let last = lastEvent(of: queued.id, in: audit.path)
            var outcome = "rolled back"
            var commit: String?
            if let repository = try? GitRepository(containing: queued.repository),
                let head = try? repository.branchCommit(queued.branch),
                let message = try? repository.message(of: head),
                PullRequestText.proposalTrailer(in: message) == queued.id
            {
                outcome = "completed"
                commit = head
            }
            let moved =
                outcome == "completed"
                ? try store.transition(queued.id, from: .applying, to: .applied, reason: "recovered", commit: commit)
                : try store.transition(
                    queued.id, from: .applying, to: .pending,
                    reason: "recovered: the branch was not created before the crash")
            guard moved else { continue }
            try audit.append(
                AuditEntry(
                    event: "recovery", actor: actor,
                    details: [
                        "proposal": queued.id, "outcome": outcome, "lastEvent": last ?? "none", "branch": queued.branch,
                        "commit": commit ?? "",
                    ]))
            actions.append(Action(id: queued.id, outcome: outcome, lastEvent: last))
        }
        return actions
    }

    /// The marker an applier leaves in the proposal's reason while it works.
    public static func marker() -> String {
        if let launcher = ProcessInfo.processInfo.environment[launcherVariable], launcherPattern(launcher) {
            return "applying: pid \(launcher)"
        }
        return "applying: pid \(getpid()) on \(ProcessInfo.processInfo.hostName)"
    }

    /// Set by a root launcher for the analysis it runs (`PID on HOST`, its own pid and host
    /// name): the analysis's own pid means nothing outside its pid namespace, the launcher's is
    /// alive exactly as long as the analysis is.
    public static let launcherVariable = "SENTINEL_LAUNCHER"

    /// `PID on HOST`, as `launcherVariable` holds it.
    static func launcherPattern(_ value: String) -> Bool {
        let parts = value.split(separator: " ", maxSplits: 2)
        return parts.count == 3 && Int32(parts[0]) != nil && parts[1] == "on" && !parts[2].contains(where: \.isNewline)
    }

    static func stillRunning(_ reason: String?) -> Bool {
        guard let reason, reason.hasPrefix("applying: pid ") else { return false }
        let parts = reason.dropFirst("applying: pid ".count).split(separator: " ", maxSplits: 2)
        guard parts.count == 3, let pid = Int32(parts[0]), String(parts[2]) == ProcessInfo.processInfo.hostName else {
            return false
        }
        // This process is not applying while it recovers (a simulated crash in a test is in it).
        return pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM)
    }

    /// The event of the last audit entry naming `proposal`.
    static func lastEvent(of proposal: String, in path: String) -> String? {
        guard let data = try? BoundedFile.read(path, limit: 1 << 30, followLinks: false) else { return nil }
        for line in data.split(separator: 0x0A).reversed() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let details = object["details"] as? [String: Any], details["proposal"] as? String == proposal
            else { continue }
            return object["event"] as? String
        }
        return nil
    }
}
