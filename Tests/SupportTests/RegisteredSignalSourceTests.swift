#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import Dispatch
import Synchronization
import Testing

@testable import Support

/// A signal sent while libdispatch registers its sources (chaos run of db11cefd: a root fleet
/// worker's payload signalled just after it started ignored its SIGTERM, because the stop
/// signals were ignored until the sources were registered). SIGUSR1 stands in for SIGTERM:
/// nothing else in this process takes it, and its default action would end the test process.
@Suite("Registered signal sources")
struct RegisteredSignalSourceTests {
    @Test("a signal sent while the sources register is counted, handed over once they are, and the counting handler is gone")
    func signalWhileRegistering() {
        var before = sigaction()
        #expect(sigaction(SIGUSR1, nil, &before) == 0 && before.__sigaction_handler.sa_handler == nil, "SIGUSR1 is taken already")
        let counted = Mutex<[Int32: Int]>([:])
        let arrived = DispatchSemaphore(value: 0)
        let sources = RegisteredSignalSource.make(
            [SIGUSR1], queue: DispatchQueue(label: "test.registered-signal"),
            whileRegistering: {
                // Twice, to the process (a test thread may block it), before any source exists:
                // both are counted, neither ends the process.
                // Each waited for: two pending at once would be one.
                let deadline = DispatchTime.now().uptimeNanoseconds + 30_000_000_000
                for sent in 1...2 {
                    kill(getpid(), SIGUSR1)
                    while csys_counted_signal(SIGUSR1) < sent, DispatchTime.now().uptimeNanoseconds < deadline { usleep(1000) }
                }
            },
            handle: { number, count in
                counted.withLock { $0[number, default: 0] += count }
                arrived.signal()
            })
        defer { for source in sources { source.cancel() } }
        // Delivery takes microseconds; 30 s is the headroom of a loaded machine.
        #expect(arrived.wait(timeout: .now() + 30) == .success, "the signals sent while registering were lost")
        #expect(counted.withLock { $0 } == [SIGUSR1: 2])
        #expect(csys_counted_signal(SIGUSR1) == 0, "taken once")
        // libdispatch's handler replaced the counting one: a signal now reaches the source.
        #expect(csys_counting_signal(SIGUSR1) == 0)
        kill(getpid(), SIGUSR1)
        #expect(arrived.wait(timeout: .now() + 30) == .success, "a signal after registration was lost")
        #expect(counted.withLock { $0 } == [SIGUSR1: 3])
    }
}
