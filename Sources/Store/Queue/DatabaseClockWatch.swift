#if canImport(Glibc)
    import Glibc
#endif
import Support
import Synchronization

/// Tells a forward step of the database's clock from time passing, for one reaper (issue 81).
///
/// Leases end at a time of the database's clock, so a step forward of that clock (an operator's
/// `date -s`, NTP stepping a server that was behind) ends every lease it jumps past at once,
/// living workers' too: the reaper would take their jobs before their next renewal, spending an
/// attempt. Each reading of the database's clock is set beside this process's boot clock
/// (`CLOCK_BOOTTIME`, which no setting of the time moves and which counts a suspended machine's
/// sleep): when the database's clock moved further than the boot clock between two readings,
/// it stepped by the difference. For one lease term after that, the reaper takes only leases that
/// ended more than the step ago, so the living workers renew theirs on the new clock first; a
/// dead worker's job still returns, one term later than it would have.
///
/// A reaper that starts after a step has no reading before it and reaps as usual. A step back
/// is undone where it shows (a lease ending further ahead than its term), not here.
public final class DatabaseClockWatch: Sendable {
    /// What one reading says.
    public struct Reading: Sendable, Equatable {
        /// Seconds of a forward step found at this reading, nil when none.
        public var step: Double?
        /// Leases that ended less than this many seconds ago are left to their workers.
        public var holdBack: Double
    }

    private struct State {
        var last: (database: Double, boot: Double)?
        var holdBack = 0.0
        var holdUntilBoot = 0.0
    }

    private let state = Mutex(State())
    private let onStep: @Sendable (_ seconds: Double, _ holdFor: Double) -> Void

    /// A jump of the database's clock smaller than this, plus `drift` of the time between two
    /// readings, is the readings' own delay (a query's round trip, a reaper held by a busy slot).
    static let tolerance = 1.0
    /// How far two clocks may drift apart in a second (NTP slews at most 500 ppm).
    static let drift = 0.001

    /// A watch with no reading yet; `onStep` hears of each step found (its size, and how long
    /// leases are held back), for the log.
    public init(onStep: @escaping @Sendable (_ seconds: Double, _ holdFor: Double) -> Void = { _, _ in }) {
        self.onStep = onStep
    }

    /// Records the database's clock reading `database` (seconds since 1970) taken now; `term`
    /// gives the longest lease term of the running jobs, asked only when a step is found (the
    /// time living workers need to renew theirs).
    public func observe(database: Double, boot: Double = DatabaseClockWatch.bootSeconds(), term: () throws -> Double) rethrows
        -> Reading
    {
        let last = state.withLock { state in
            defer { state.last = (database, boot) }
            return state.last
        }
        var step: Double?
        if let last {
            let elapsed = max(0, boot - last.boot)
            let jump = (database - last.database) - elapsed
            if jump > Self.tolerance + Self.drift * elapsed { step = jump }
        }
        let window = try step.map { _ in try term() }
        if let step, let window { onStep(step, window) }
        return state.withLock { state in
            if state.holdUntilBoot <= boot { state.holdBack = 0 }
            if let step, let window {
                // Steps within one window add up: every lease of before the first is behind by both.
                state.holdBack += step
                state.holdUntilBoot = boot + window
            }
            return Reading(step: step, holdBack: state.holdBack)
        }
    }

    /// `CLOCK_BOOTTIME` in seconds.
    public static func bootSeconds() -> Double {
        Double(MonotonicClock.nanoseconds(of: CLOCK_BOOTTIME)) / 1e9
    }
}
