#if canImport(Glibc)
    import Glibc
#endif
import Dispatch
import Synchronization

/// Turns stop signals into a stop of the sandbox, handled on a dispatch queue (so a launcher
/// blocked anywhere still reacts), until cancelled (then the default dispositions come back).
///
/// The first signal is forwarded (`forward`); the launcher then has `grace` seconds to end
/// on its own (reporting 128+N) before it exits anyway. A second signal exits at once. Both
/// exits call `abandon` first (kill the sandbox tree, restore the terminal) and end the
/// process with 128+N.
final class SignalForwarding {
    private let sources: [any DispatchSourceSignal]
    private let signals: [Int32]
    /// Signals received so far, or -1 once cancelled.
    private final class Count: Sendable {
        let value = Mutex(0)
    }
    private let received = Count()

    /// The grace after the first signal: `SENTINEL_SIGNAL_GRACE` seconds when set (a test
    /// sets it high to show that a second signal alone ends a stuck launcher), else 3.
    static var defaultGrace: Double {
        getenv("SENTINEL_SIGNAL_GRACE").flatMap { Double(String(cString: $0)) }.map { max(0, $0) } ?? 3
    }

    init(
        signals: [Int32], grace: Double = SignalForwarding.defaultGrace,
        forward: @escaping @Sendable (Int32) -> Void, abandon: @escaping @Sendable (Int32) -> Void
    ) {
        self.signals = signals
        let queue = DispatchQueue(label: "sentinel.signals")
        let received = self.received
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                let count = max(1, Int(source.data))
                let before = received.value.withLock { total -> Int in
                    let before = total
                    if total >= 0 { total += count }
                    return before
                }
                guard before >= 0 else { return }
                if before == 0 {
                    forward(number)
                    guard count == 1 else { Self.exit(number, abandon) }
                    queue.asyncAfter(deadline: .now() + grace) {
                        if received.value.withLock({ $0 }) >= 0 { Self.exit(number, abandon) }
                    }
                } else {
                    Self.exit(number, abandon)
                }
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    private static func exit(_ number: Int32, _ abandon: @Sendable (Int32) -> Void) -> Never {
        abandon(number)
        _exit(128 + number)
    }

    func cancel() {
        received.value.withLock { $0 = -1 }
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }
}
