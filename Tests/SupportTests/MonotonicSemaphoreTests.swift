import Foundation
import Support
import Testing

/// The semaphore fleet workers sleep in (issue 81): counts signals, and a timed wait ends by the
/// monotonic clock. (That no step of the wall clock moves it is `FleetClockStepCLITests`', which
/// steps a worker's clock.)
@Suite("MonotonicSemaphore")
struct MonotonicSemaphoreTests {
    @Test("a signal given before the wait is taken at once; one signal wakes one wait")
    func signalsAreCounted() {
        let semaphore = MonotonicSemaphore()
        semaphore.signal()
        semaphore.signal()
        #expect(semaphore.wait(seconds: 60))
        #expect(semaphore.wait(seconds: 60))
        #expect(!semaphore.wait(seconds: 0))
    }

    @Test("a timed wait with no signal ends after its time, by the monotonic clock, and takes nothing")
    func timedWaitEnds() {
        let semaphore = MonotonicSemaphore()
        let started = MonotonicClock.seconds()
        #expect(!semaphore.wait(seconds: 0.2))
        #expect(MonotonicClock.seconds() - started >= 0.2)
        semaphore.signal()
        #expect(semaphore.wait(seconds: 0))
    }

    @Test("a signal from another thread ends a long wait")
    func signalFromAnotherThread() {
        let semaphore = MonotonicSemaphore()
        Thread.detachNewThread {
            usleep(50_000)
            semaphore.signal()
        }
        #expect(semaphore.wait(seconds: 600))
    }

    @Test("a negative, NaN or endless wait is no wait, no wait and a wait for the signal")
    func oddTimes() {
        let semaphore = MonotonicSemaphore()
        #expect(!semaphore.wait(seconds: -5))
        #expect(!semaphore.wait(seconds: .nan))
        Thread.detachNewThread {
            usleep(50_000)
            semaphore.signal()
        }
        #expect(semaphore.wait(seconds: .infinity))
    }
}
