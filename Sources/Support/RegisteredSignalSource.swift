#if canImport(Glibc)
    import Glibc
#endif
import Dispatch

/// Dispatch signal sources that take their signal from the moment they are returned.
///
/// libdispatch registers a signal source (its `sigaction` and `signalfd`) on one of its own
/// threads some time after `resume()`; a signal sent before then has the disposition the process
/// had, and one whose disposition is to be ignored (SIGWINCH by default, or a stop signal set so
/// meanwhile) is lost. A fleet worker that had logged `worker.started` dropped the SIGTERM it was
/// stopped with this way. These sources are returned only once registered.
public enum RegisteredSignalSource {
    /// How long to wait for libdispatch to register the sources before going on without the
    /// guarantee (never seen: registration takes microseconds).
    static let registrationSeconds = 30.0

    /// One source per signal of `signals`, each calling `handle(signal, count)` on `queue` (`count`:
    /// how many arrived since the last call), resumed and registered.
    public static func make(
        _ signals: [Int32], queue: DispatchQueue, handle: @escaping @Sendable (Int32, Int) -> Void
    ) -> [any DispatchSourceSignal] {
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
        return sources
    }
}
