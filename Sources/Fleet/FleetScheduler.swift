import Foundation
import Store
import Support

/// Continuous scans: submits each schedule's job when it is due. Any number may run; one holds the
/// scheduler's leader lease (`JobQueue.holdLeadership`, a row with an expiry it renews about every
/// half second) and submits, checking the lease in the submitting transaction; the others try to
/// take the lease each second. A leader killed, SIGSTOPped or cut off stops renewing: another takes
/// over once the lease expires (`leaseSeconds`), and the stopped one, resumed, submits nothing.
public struct FleetScheduler: Sendable {
    let url: DatabaseURL
    let log: JSONLog
    let name: String
    let stop: StopState
    /// How long the lease lasts unrenewed.
    let leaseSeconds: Double
    /// This run's identity in the lease: the name alone could be shared by two processes.
    let leaderID: String

    /// A scheduler named `name` on the queue at `url`, whose lease lasts `leaseSeconds` unrenewed.
    public init(url: DatabaseURL, name: String, log: JSONLog, stop: StopState, leaseSeconds: Double = 5) {
        self.url = url
        self.name = name
        self.log = log
        self.stop = stop
        self.leaseSeconds = leaseSeconds
        leaderID = name + "/" + UUID().uuidString
    }

    /// Runs until `stop` leaves `running`; `onLeadership` is told when this scheduler takes or
    /// loses the lease.
    public func run(onLeadership: @Sendable (Bool) -> Void = { _ in }) {
        var queue: JobQueue?
        var leading = false
        var announcedWait = false
        while stop.current == .running {
            do {
                let connected = try queue ?? JobQueue(url: url)
                queue = connected
                let holding = try connected.holdLeadership(JobQueue.schedulerLeadership, leader: leaderID, seconds: leaseSeconds)
                if holding != leading { changeLeadership(holding, onLeadership) }
                leading = holding
                if !leading, !announcedWait {
                    announcedWait = true
                    log.info("scheduler.waiting", [LogField("scheduler", .string(name))])
                }
                if leading {
                    if let submitted = try connected.submitDueSchedules(asLeader: leaderID) {
                        for id in submitted {
                            log.info("schedule.submitted", [LogField("scheduler", .string(name)), LogField("job", .int(id))])
                        }
                    } else {
                        // The lease expired between renewing and submitting (this process was stopped).
                        changeLeadership(false, onLeadership)
                        leading = false
                    }
                }
                Thread.sleep(forTimeInterval: leading ? min(0.5, leaseSeconds / 4) : min(1, leaseSeconds / 2))
            } catch {
                // The lease stays until it expires; whoever holds it then submits.
                if leading { changeLeadership(false, onLeadership) }
                leading = false
                announcedWait = false
                log.warning("database.error", [LogField("scheduler", .string(name)), LogField("error", .string("\(error)"))])
                try? queue?.reconnectIfNeeded()
                Thread.sleep(forTimeInterval: 1)
            }
        }
        // Handed over at once rather than after the lease's expiry; a failure leaves it to expire.
        if leading { try? queue?.resignLeadership(JobQueue.schedulerLeadership, leader: leaderID) }
    }

    private func changeLeadership(_ holding: Bool, _ onLeadership: @Sendable (Bool) -> Void) {
        log.info(holding ? "scheduler.leading" : "scheduler.lost_leadership", [LogField("scheduler", .string(name))])
        onLeadership(holding)
    }
}
