#if canImport(Glibc)
    import Glibc
#endif
import CLICore
import Dispatch
import Synchronization
import Testing

/// The fleet worker's and scheduler's stop signals (CI run of e1e2e866: a worker that had logged
/// `worker.started` dropped the SIGTERM it was stopped with, and ran past the test's 300 s).
/// SIGUSR2 stands in for SIGTERM: nothing else in this process takes it.
@Suite("Stop signals")
struct StopSignalsTests {
    @Test("a signal sent as soon as the sources are returned is counted, every time")
    func countedFromTheStart() {
        for round in 0..<10 {
            let counted = Mutex(0)
            let arrived = DispatchSemaphore(value: 0)
            let sources = StopSignals.observe([SIGUSR2]) { count in
                counted.withLock { $0 = count }
                arrived.signal()
            }
            kill(getpid(), SIGUSR2)
            // Delivery takes microseconds; 30 s is the headroom of a loaded machine.
            let delivered = arrived.wait(timeout: .now() + 30) == .success
            #expect(delivered, "round \(round): the signal was lost")
            #expect(counted.withLock { $0 } == 1)
            for source in sources { source.cancel() }
            if !delivered { return }
        }
    }
}
