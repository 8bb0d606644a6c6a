import Foundation

@testable import Fleet

/// In-process `FleetWorker`s, each running on a thread of its own from `init`, for tests of a
/// fleet at work; `stop()` drains them, and abandons their jobs after a minute.
final class RunningWorkers: Sendable {
    let workers: [FleetWorker]
    private let stopped = DispatchGroup()

    init(_ workers: [FleetWorker]) {
        self.workers = workers
        for worker in workers {
            stopped.enter()
            Thread.detachNewThread { [stopped] in
                worker.run()
                stopped.leave()
            }
        }
    }

    /// Drains every worker; returns when all have stopped.
    func stop() {
        for worker in workers { worker.stop.advance(to: .draining) }
        if stopped.wait(timeout: .now() + 60) != .success {
            for worker in workers { worker.stop.advance(to: .abandoning) }
            stopped.wait()
        }
    }
}
