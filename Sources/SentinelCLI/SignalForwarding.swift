#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Turns the given signals into a callback on a dispatch queue instead of killing the
/// process, until cancelled (then the default dispositions come back).
final class SignalForwarding {
    private let sources: [any DispatchSourceSignal]
    private let signals: [Int32]

    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        let queue = DispatchQueue(label: "sentinel.signals")
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }
}
