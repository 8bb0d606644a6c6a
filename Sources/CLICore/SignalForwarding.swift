#if canImport(Glibc)
    import Glibc
#endif
import Support
import Synchronization

/// Turns stop signals into a stop of the sandbox until cancelled. The signals are blocked in
/// the launcher's thread (and so in every thread it starts later) and taken by one thread of
/// their own in `sigwaitinfo`, so a launcher blocked anywhere still reacts, and no handler runs
/// Swift code in signal context.
///
/// The first signal is forwarded (`forward`); the launcher then has `grace` seconds to end
/// on its own (reporting 128+N) before it exits anyway. A second signal exits at once. Both
/// exits call `abandon` first (kill the sandbox tree, restore the terminal) and end the
/// process with 128+N.
///
/// A plain thread rather than dispatch signal sources: those start libdispatch's manager
/// thread, its epoll set and a signalfd per signal, a twentieth of a whole launch.
public final class SignalForwarding {
    private let signals: [Int32]
    private var previousMask = sigset_t()
    private var thread: pthread_t?
    private let cancelled = Cancelled()

    private final class Cancelled: Sendable {
        let value = Atomic(false)
    }

    /// The grace after the first signal: `SENTINEL_SIGNAL_GRACE` seconds when set (a test
    /// sets it high to show that a second signal alone ends a stuck launcher), else 3.
    public static var defaultGrace: Double {
        getenv("SENTINEL_SIGNAL_GRACE").flatMap { Double(String(cString: $0)) }.map { max(0, $0) } ?? 3
    }

    /// Starts taking `signals`: the first `forwarded` are passed to `forward` (a fleet worker
    /// takes two: drain, then release), the next one (or the end of the grace after the last
    /// forwarded) calls `abandon` and exits with 128+N.
    public init(
        signals: [Int32], grace: Double = SignalForwarding.defaultGrace, forwarded: Int = 1,
        forward: @escaping @Sendable (Int32) -> Void, abandon: @escaping @Sendable (Int32) -> Void
    ) {
        self.signals = signals
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, &previousMask)
        let waited = set
        let cancelled = self.cancelled
        let graceNanoseconds = UInt64(min(grace, 1e9) * 1e9)
        thread = PosixThread.spawn(joinable: true, stackSize: 64 << 10) {
            var set = waited
            var first: Int32?
            var count = 0
            var deadline: UInt64 = 0
            while true {
                var number: Int32
                if first == nil {
                    number = sigwaitinfo(&set, nil)
                } else {
                    let left = deadline &- min(deadline, MonotonicClock.nanoseconds())
                    var timeout = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
                    number = sigtimedwait(&set, nil, &timeout)
                }
                if cancelled.value.load(ordering: .acquiring) { return }
                if number < 0 {
                    // EAGAIN: the grace is over; EINTR: a stop of this thread, wait again.
                    if errno == EAGAIN, let first { Self.exit(first, abandon) }
                    continue
                }
                guard count < max(1, forwarded) else { Self.exit(number, abandon) }
                count += 1
                first = number
                forward(number)
                deadline = MonotonicClock.nanoseconds() &+ graceNanoseconds
            }
        }
        if thread == nil {
            // No thread, no forwarding: the signals keep their default effect.
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
    }

    private static func exit(_ number: Int32, _ abandon: @Sendable (Int32) -> Void) -> Never {
        abandon(number)
        _exit(128 + number)
    }

    /// Stops forwarding: the thread ends, and the launcher's signal mask is what it was, so a
    /// signal from now on has its default effect.
    public func cancel() {
        guard let thread else { return }
        self.thread = nil
        cancelled.value.store(true, ordering: .releasing)
        // Wakes the thread's wait: directed at it, where the signal is blocked and awaited.
        pthread_kill(thread, signals[0])
        pthread_join(thread, nil)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    deinit { cancel() }
}
