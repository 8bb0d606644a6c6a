import Synchronization

/// A worker's stop request, set from a signal handler's queue and read by its threads: `drain` stops
/// claiming and lets running jobs finish; `abandon` also stops them and gives them back.
public final class StopState: Sendable {
    /// Where the worker is.
    public enum Phase: Int, Sendable, Comparable {
        /// Claiming and running.
        case running
        /// Finishing running jobs, claiming none.
        case draining
        /// Stopping running jobs and releasing them.
        case abandoning

        /// Further along the way to stopping.
        public static func < (left: Phase, right: Phase) -> Bool { left.rawValue < right.rawValue }
    }
    private let phase = Mutex(Phase.running)

    /// Running.
    public init() {}

    /// The current phase.
    public var current: Phase { phase.withLock { $0 } }

    /// Moves to `next` when it is further along than the current phase.
    public func advance(to next: Phase) {
        phase.withLock { $0 = max($0, next) }
    }
}
