#if canImport(Glibc)
    import Glibc
#endif
import Dispatch

/// Stop signals (SIGTERM, SIGINT) for a long-running command, counted and handled on a dispatch
/// queue of their own: the fleet's worker and scheduler drain on the first and give up on the
/// second.
///
/// A dispatch signal source takes its signal only once libdispatch has registered it, on one
/// of its own threads some time after `resume()`; until then the signal has the disposition set
/// here (ignored), and one sent then was lost: a worker that had logged `worker.started` could
/// drop the SIGTERM it was stopped with and run on. So the sources are returned only once
/// every one is registered, and a signal sent after this returns is always counted.
public enum StopSignals {
    /// How long ``observe(_:_:)`` waits for libdispatch to register its sources before going on
    /// without the guarantee (never seen: registration takes microseconds).
    static let registrationSeconds = 30.0

    /// Counts `signals` (SIGTERM and SIGINT unless told) and calls `handle` with the count so far
    /// on a serial queue; keep the returned sources alive for as long as they should be taken.
    /// Two signals delivered together are counted as two.
    public static func observe(
        _ signals: [Int32] = [SIGTERM, SIGINT], _ handle: @escaping @Sendable (Int) -> Void
    ) -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "sentinel.stop-signals")
        let counter = Counter()
        let registered = DispatchSemaphore(value: 0)
        let sources = signals.map { number in
            // Not the default action (an exit without cleanup) while the source is not yet
            // registered. Only over the default: libdispatch installs its handler once per
            // process, and ignoring the signal over it would lose the signal for good.
            var current = sigaction()
            if sigaction(number, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil {
                signal(number, SIG_IGN)
            }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handle(counter.next(by: max(1, Int(source.data)))) }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source
        }
        let deadline = DispatchTime.now() + registrationSeconds
        for _ in sources { _ = registered.wait(timeout: deadline) }
        return sources
    }

    /// Signals received so far (touched only on the sources' serial queue).
    private final class Counter: @unchecked Sendable {
        private var count = 0
        func next(by received: Int) -> Int {
            count += received
            return count
        }
    }
}
