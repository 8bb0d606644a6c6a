import Foundation
import Store
import Support

/// Continuous scans: submits each schedule's job when it is due. Any number may run; one holds the
/// scheduler lock (an advisory lock on PostgreSQL) and submits, the others wait for it to go away
/// (its session ends with its process, so a killed scheduler is replaced within a second).
public struct FleetScheduler: Sendable {
    let url: DatabaseURL
    let log: JSONLog
    let name: String
    let stop: StopState

    /// A scheduler named `name` on the queue at `url`.
    public init(url: DatabaseURL, name: String, log: JSONLog, stop: StopState) {
        self.url = url
        self.name = name
        self.log = log
        self.stop = stop
    }

    /// Runs until `stop` leaves `running`; `onLeadership` is told when this scheduler takes or
    /// loses the lock.
    public func run(onLeadership: @Sendable (Bool) -> Void = { _ in }) {
        var queue: JobQueue?
        var leading = false
        var announcedWait = false
        while stop.current == .running {
            do {
                let connected = try queue ?? JobQueue(url: url)
                queue = connected
                if !leading {
                    leading = try connected.tryLock(JobQueue.schedulerLock)
                    if leading {
                        log.info("scheduler.leading", [LogField("scheduler", .string(name))])
                        onLeadership(true)
                    } else if !announcedWait {
                        announcedWait = true
                        log.info("scheduler.waiting", [LogField("scheduler", .string(name))])
                    }
                }
                if leading {
                    for id in try connected.submitDueSchedules() {
                        log.info("schedule.submitted", [LogField("scheduler", .string(name)), LogField("job", .int(id))])
                    }
                }
                Thread.sleep(forTimeInterval: leading ? 0.5 : 1)
            } catch {
                // A lost connection took the lock with it: compete again after reconnecting.
                if leading { onLeadership(false) }
                leading = false
                announcedWait = false
                log.warning("database.error", [LogField("scheduler", .string(name)), LogField("error", .string("\(error)"))])
                try? queue?.reconnectIfNeeded()
                Thread.sleep(forTimeInterval: 1)
            }
        }
        if leading { try? queue?.unlock(JobQueue.schedulerLock) }
    }
}
