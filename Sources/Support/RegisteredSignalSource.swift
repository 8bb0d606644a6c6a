#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import Dispatch

/// Dispatch signal sources that take their signal from the moment they are made.
///
/// libdispatch registers a signal source (its `sigaction` and `signalfd`) on one of its own
/// threads some time after `resume()`; a signal sent before then has the disposition the process
/// had, and one whose disposition is to be ignored (SIGWINCH by default) is lost, one whose
/// default is to end the process ends it without its cleanup. A fleet worker that had logged
/// `worker.started` dropped the SIGTERM it was stopped with this way, and one signalled while
/// it registered (its stop signals ignored meanwhile) dropped it too. So while the sources register, a
/// signal still at its default disposition is counted by a handler that only counts (C, an atomic
/// add), and what it counted is handed to `handle` once the sources are registered.
public enum RegisteredSignalSource {
    /// How long to wait for libdispatch to register the sources before going on without the
    /// guarantee (never seen: registration takes microseconds).
    static let registrationSeconds = 30.0

    /// One source per signal of `signals`, each calling `handle(signal, count)` on `queue` (`count`:
    /// how many arrived since the last call), resumed and registered. A signal that arrived
    /// while they registered is handed to `handle` on `queue` as soon as this returns.
    public static func make(
        _ signals: [Int32], queue: DispatchQueue, handle: @escaping @Sendable (Int32, Int) -> Void
    ) -> [any DispatchSourceSignal] {
        make(signals, queue: queue, whileRegistering: {}, handle: handle)
    }

    /// `make`, with `whileRegistering` run once the counting handlers are in place and before
    /// the sources are made (a test sends its signal there).
    static func make(
        _ signals: [Int32], queue: DispatchQueue, whileRegistering: () -> Void,
        handle: @escaping @Sendable (Int32, Int) -> Void
    ) -> [any DispatchSourceSignal] {
        // Only over the default: libdispatch installs its handler once per process, and a second
        // set of sources for a signal must not replace it with one that only counts.
        let counting = signals.filter { number in
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return false }
            return csys_count_signal(number) == 0
        }
        whileRegistering()
        let registered = DispatchSemaphore(value: 0)
        let sources = signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handle(number, max(1, Int(source.data))) }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source
        }
        let deadline = DispatchTime.now() + registrationSeconds
        for _ in sources { _ = registered.wait(timeout: deadline) }
        for number in counting {
            // libdispatch has put its handler in place of the counting one; what that counted
            // came before it, and nothing counts it from now on.
            let early = Int(csys_take_counted_signal(number))
            if early > 0 { queue.async { handle(number, early) } }
        }
        return sources
    }
}
