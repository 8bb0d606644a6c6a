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
/// sleep): their difference, the offset, stays put while time passes and moves by a step's size
/// when the database's clock steps. When it rose past the last offset by more than the readings'
/// own jitter, the reaper, for one lease term, takes only leases that ended more than the rise
/// ago, so the living workers renew theirs on the new clock first; a lease of before the step
/// then ends when it would have without it. The rise is measured from the offset before the
/// step at every reading (not added up), so late readings neither grow the hold nor extend it.
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

    /// A step being held: the offset before it, the highest offset since, and when the hold ends.
    private struct Hold {
        var base: Double
        var peak: Double
        var until: Double
    }

    private struct State {
        /// The last reading outside a hold: its offset and boot time.
        var last: (offset: Double, boot: Double)?
        var hold: Hold?
        /// The term of the last hold, for a step another reading found between this one's look
        /// and its record (without asking again).
        var term = DatabaseClockWatch.fallbackTerm

        /// A rise of the offset past `reference` at `boot` that is a step, nil otherwise.
        func rise(_ offset: Double, boot: Double) -> Double? {
            let reference: Double
            let elapsed: Double
            if let hold {
                reference = hold.peak
                elapsed = 0
            } else if let last {
                reference = last.offset
                elapsed = max(0, boot - last.boot)
            } else {
                return nil
            }
            let rise = offset - reference
            return rise > DatabaseClockWatch.tolerance + DatabaseClockWatch.drift * elapsed ? rise : nil
        }
    }

    private let state = Mutex(State())
    private let onStep: @Sendable (_ seconds: Double, _ holdFor: Double) -> Void

    /// A rise of the offset smaller than this, plus `drift` of the time between two readings, is
    /// the readings' own delay (a query's round trip, a reaper held by a busy slot).
    static let tolerance = 1.0
    /// How far the two clocks may drift apart in a second between readings: chrony slews up to
    /// 8 % (`maxslewrate` 83,333 ppm), and readings far apart must not take a slew for a step.
    static let drift = 0.1
    /// The hold's length when the term could not be asked.
    static let fallbackTerm = 60.0

    /// A watch with no reading yet; `onStep` hears of each step found (its size, and how long
    /// leases are held back), for the log.
    public init(onStep: @escaping @Sendable (_ seconds: Double, _ holdFor: Double) -> Void = { _, _ in }) {
        self.onStep = onStep
    }

    /// Records the database's clock reading `database` (seconds since 1970) taken at `boot`;
    /// `term` gives the longest lease term of the running jobs, asked only when a step is found
    /// (the time living workers need to renew theirs). When `term` throws, nothing is recorded:
    /// the next reading finds the same step.
    public func observe(database: Double, boot: Double = DatabaseClockWatch.bootSeconds(), term: () throws -> Double) rethrows
        -> Reading
    {
        let offset = database - boot
        let found = state.withLock { $0.rise(offset, boot: boot) }
        let asked = try found.map { _ in try term() }
        var stepped: (size: Double, term: Double)?
        let reading = state.withLock { state -> Reading in
            if let hold = state.hold, hold.until <= boot {
                // The hold is over: every living worker renewed on the new clock, which is now
                // the reference (a step found at this very reading still shows against it).
                state.hold = nil
                state.last = (hold.peak, boot)
            }
            if let rise = state.rise(offset, boot: boot) {
                let term = asked ?? state.term
                state.term = term
                let base = state.hold?.base ?? state.last?.offset ?? offset
                state.hold = Hold(base: base, peak: offset, until: boot + term)
                stepped = (rise, term)
            } else if var hold = state.hold {
                hold.peak = max(hold.peak, offset)
                state.hold = hold
            } else {
                state.last = (offset, boot)
            }
            let holdBack = state.hold.map { max(0, offset - $0.base) } ?? 0
            return Reading(step: stepped?.size, holdBack: holdBack)
        }
        if let stepped { onStep(stepped.size, stepped.term) }
        return reading
    }

    /// Seconds leases are held back at `boot` with no new reading (when the clock could not be read).
    public func holdBack(at boot: Double = DatabaseClockWatch.bootSeconds()) -> Double {
        state.withLock { state in
            guard let hold = state.hold, hold.until > boot else { return 0 }
            return max(0, hold.peak - hold.base)
        }
    }

    /// `CLOCK_BOOTTIME` in seconds.
    public static func bootSeconds() -> Double {
        MonotonicClock.seconds(of: CLOCK_BOOTTIME)
    }
}
