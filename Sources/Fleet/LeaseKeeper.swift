import Foundation
import Store
import Synchronization

/// Renews a running job's lease on a connection of its own, from the claim to the end of the job,
/// so that a long checkout, a slow start or an approval wait never lets it lapse while the job's own
/// thread is busy. When it cannot renew (the server is away), it says `lost` well before the lease
/// can have expired on the server, so the job stops before another worker can take it over.
final class LeaseKeeper: Sendable {
    /// What the last renewal found, and whether `stop` was called.
    private let state = Mutex<(found: LeaseStatus, finished: Bool)>((.held, false))
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// Starts renewing `lease` every `options.renewInterval`.
    init(url: DatabaseURL, lease: JobLease, options: WorkerOptions) {
        Thread.detachNewThread { [self] in
            renew(url: url, lease: lease, options: options)
            done.signal()
        }
    }

    /// What the last renewal found: `cancelRequested` and `lost` stay once seen.
    var status: LeaseStatus { state.withLock { $0.found } }

    /// Stops renewing; returns when the renewing thread has ended.
    func stop() {
        state.withLock { $0.finished = true }
        wake.signal()
        done.wait()
    }

    private func renew(url: DatabaseURL, lease: JobLease, options: WorkerOptions) {
        var queue: JobQueue?
        // The claim itself set the lease.
        var renewed = Date()
        while true {
            _ = wake.wait(timeout: .now() + options.renewInterval)
            if state.withLock({ $0.finished }) { return }
            do {
                let connected = try queue ?? JobQueue(url: url)
                queue = connected
                try connected.reconnectIfNeeded()
                let status = try connected.renew(lease, leaseSeconds: options.leaseSeconds)
                renewed = Date()
                state.withLock { if $0.found == .held { $0.found = status } }
                if status == .lost { return }
            } catch {
                // Stop at four fifths of the lease: the job ends before the server lets anyone else claim it.
                if Date().timeIntervalSince(renewed) > options.leaseSeconds * 0.8 {
                    state.withLock { $0.found = .lost }
                    return
                }
            }
        }
    }
}
