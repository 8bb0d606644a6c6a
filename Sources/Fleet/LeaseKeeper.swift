import Foundation
import Store
import Support
import Synchronization

/// A running job's view of its lease, from the claim to the end of the job: the worker's
/// `LeaseHeartbeat` renews it with every other lease the worker holds and sets `status`, so that
/// a long checkout, a slow start or an approval wait never lets it lapse while the job's own
/// thread is busy.
final class LeaseKeeper: Sendable {
    let lease: JobLease
    private let heartbeat: LeaseHeartbeat
    /// What the last renewal found, and when one last succeeded (the claim set the lease), in
    /// monotonic seconds: a step of the wall clock neither loses nor keeps a lease.
    private let state = Mutex<(found: LeaseStatus, renewed: Double)>((.held, MonotonicClock.seconds()))

    fileprivate init(lease: JobLease, heartbeat: LeaseHeartbeat) {
        self.lease = lease
        self.heartbeat = heartbeat
    }

    /// What the last renewal found: `cancelRequested` and `lost` stay once seen.
    var status: LeaseStatus { state.withLock { $0.found } }

    /// Stops renewing.
    func stop() { heartbeat.forget(self) }

    /// Takes what a renewal found.
    fileprivate func renewed(_ status: LeaseStatus) {
        state.withLock { state in
            state.renewed = MonotonicClock.seconds()
            if state.found == .held { state.found = status }
        }
    }

    /// A renewal failed (the server is away): stop at four fifths of the lease, so that the job
    /// ends before the server lets anyone else claim it.
    fileprivate func failed(leaseSeconds: Double) {
        state.withLock { state in
            if MonotonicClock.seconds() - state.renewed > leaseSeconds * 0.8 { state.found = .lost }
        }
    }
}

/// Renews every lease the worker holds in one statement every `renewInterval`, on the worker's
/// shared connection, and tells each job's `LeaseKeeper` what it found.
final class LeaseHeartbeat: Sendable {
    private let connection: WorkerConnection
    private let leaseSeconds: Double
    private let interval: Double
    private let keepers = Mutex<(all: [ObjectIdentifier: LeaseKeeper], finished: Bool)>(([:], false))
    // Monotonic: Dispatch's timed wait ends at a wall-clock time on Linux, and a step of the clock
    // back would stop every renewal for the step's size.
    private let wake = MonotonicSemaphore()
    private let done = MonotonicSemaphore()

    /// Starts renewing (nothing, until `keep` is called).
    init(connection: WorkerConnection, options: WorkerOptions) {
        self.connection = connection
        leaseSeconds = options.leaseSeconds
        interval = options.renewInterval
        let thread = Thread { [self] in
            beat()
            done.signal()
        }
        thread.name = "fleet-heartbeat"
        thread.start()
    }

    /// Renews `lease` from now until its keeper's `stop`.
    func keep(_ lease: JobLease) -> LeaseKeeper {
        let keeper = LeaseKeeper(lease: lease, heartbeat: self)
        keepers.withLock { $0.all[ObjectIdentifier(keeper)] = keeper }
        return keeper
    }

    fileprivate func forget(_ keeper: LeaseKeeper) {
        _ = keepers.withLock { $0.all.removeValue(forKey: ObjectIdentifier(keeper)) }
    }

    /// Stops renewing; returns when the renewing thread has ended.
    func stop() {
        keepers.withLock { $0.finished = true }
        wake.signal()
        done.wait()
    }

    private func beat() {
        while true {
            wake.wait(seconds: interval)
            let (held, finished) = keepers.withLock { (Array($0.all.values), $0.finished) }
            if finished { return }
            // Lost ones are not renewed again (another attempt may hold the job by now).
            let renewing = held.filter { $0.status != .lost }
            guard !renewing.isEmpty else { continue }
            let leases = renewing.map(\.lease)
            do {
                let found = try connection.with { try $0.renew(leases, leaseSeconds: leaseSeconds) }
                for keeper in renewing { keeper.renewed(found[keeper.lease.jobID] ?? .lost) }
            } catch {
                for keeper in renewing { keeper.failed(leaseSeconds: leaseSeconds) }
                connection.reconnectIfNeeded()
            }
        }
    }
}
