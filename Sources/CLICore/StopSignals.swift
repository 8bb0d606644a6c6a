#if canImport(Glibc)
    import Glibc
#endif
import Dispatch
import Support

/// Stop signals (SIGTERM, SIGINT) for a long-running command, counted and handled on a dispatch
/// queue of their own: the fleet's worker and scheduler drain on the first and give up on the
/// second.
public enum StopSignals {
    /// Counts `signals` (SIGTERM and SIGINT unless told) and calls `handle` with the count so far
    /// on a serial queue; keep the returned sources alive for as long as they should be taken.
    /// Two signals delivered together are counted as two. A signal sent after this returns is
    /// always counted, and so is one sent while it registers (``RegisteredSignalSource``).
    public static func observe(
        _ signals: [Int32] = [SIGTERM, SIGINT], _ handle: @escaping @Sendable (Int) -> Void
    ) -> [any DispatchSourceSignal] {
        let counter = Counter()
        return RegisteredSignalSource.make(signals, queue: DispatchQueue(label: "sentinel.stop-signals")) { _, received in
            handle(counter.next(by: received))
        }
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
