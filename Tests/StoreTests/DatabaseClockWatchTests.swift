import Synchronization
import Testing

@testable import Store

/// The reaper's watch of the database's clock (issue 81), on readings the test writes: a forward
/// step is the database's clock moving further than the boot clock between two readings.
@Suite struct DatabaseClockWatchTests {
    @Test("the first reading finds no step; time passing alike on both clocks is none either")
    func noStep() {
        let watch = DatabaseClockWatch()
        #expect(watch.observe(database: 1000, boot: 50, term: { 3 }) == .init(step: nil, holdBack: 0))
        #expect(watch.observe(database: 1010, boot: 60, term: { 3 }) == .init(step: nil, holdBack: 0))
        // A reading's own delay and the clocks' drift are under the tolerance.
        #expect(watch.observe(database: 1110.9, boot: 160, term: { 3 }).step == nil)
    }

    @Test("a step forward holds back leases that ended less than the step ago, for one term, then ends")
    func stepForwardHoldsForOneTerm() {
        let steps = Mutex<[Double]>([])
        let watch = DatabaseClockWatch { step, _ in steps.withLock { $0.append(step) } }
        _ = watch.observe(database: 1000, boot: 50, term: { 3 })
        let stepped = watch.observe(database: 4601, boot: 51, term: { 3 })
        #expect(stepped == .init(step: 3600, holdBack: 3600))
        #expect(watch.observe(database: 4603, boot: 53, term: { 3 }) == .init(step: nil, holdBack: 3600))
        // A term after the step the living workers have renewed on the new clock.
        #expect(watch.observe(database: 4605, boot: 55, term: { 3 }) == .init(step: nil, holdBack: 0))
        #expect(steps.withLock { $0 } == [3600])
    }

    @Test("the term is asked only when a step is found; two steps within a term add up")
    func stepsAddUp() {
        let asked = Mutex(0)
        let watch = DatabaseClockWatch()
        let term: () -> Double = {
            asked.withLock { $0 += 1 }
            return 10
        }
        _ = watch.observe(database: 0, boot: 0, term: term)
        _ = watch.observe(database: 5, boot: 5, term: term)
        #expect(asked.withLock { $0 } == 0)
        #expect(watch.observe(database: 106, boot: 6, term: term).holdBack == 100)
        #expect(watch.observe(database: 157, boot: 7, term: term).holdBack == 150)
        #expect(asked.withLock { $0 } == 2)
    }

    @Test("a step back is not a forward step (the lease cut handles it)")
    func stepBackIsNotHeld() {
        let watch = DatabaseClockWatch()
        _ = watch.observe(database: 5000, boot: 50, term: { 3 })
        #expect(watch.observe(database: 1401, boot: 51, term: { 3 }) == .init(step: nil, holdBack: 0))
    }
}
