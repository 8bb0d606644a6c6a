import Synchronization
import Testing

@testable import Store

/// The reaper's watch of the database's clock (issue 81), on readings the test writes: a forward
/// step is the database's clock moving further than the boot clock between two readings.
@Suite struct DatabaseClockWatchTests {
    struct Failed: Error {}

    @Test("the first reading finds no step; time passing alike on both clocks is none either")
    func noStep() {
        let watch = DatabaseClockWatch()
        #expect(watch.observe(database: 1000, boot: 50, term: { 3 }) == .init(step: nil, holdBack: 0))
        #expect(watch.observe(database: 1010, boot: 60, term: { 3 }) == .init(step: nil, holdBack: 0))
        // A reading's own delay and the clocks' slewing are under the tolerance.
        #expect(watch.observe(database: 1110.9, boot: 160, term: { 3 }).step == nil)
    }

    @Test("a step forward holds back leases that ended less than the step ago, for one term, then ends")
    func stepForwardHoldsForOneTerm() {
        let steps = Mutex<[Double]>([])
        let watch = DatabaseClockWatch { step, _ in steps.withLock { $0.append(step) } }
        _ = watch.observe(database: 1000, boot: 50, term: { 3 })
        #expect(watch.observe(database: 4601, boot: 51, term: { 3 }) == .init(step: 3600, holdBack: 3600))
        #expect(watch.observe(database: 4603, boot: 53, term: { 3 }) == .init(step: nil, holdBack: 3600))
        #expect(watch.holdBack(at: 53.5) == 3600)
        // A term after the step the living workers have renewed on the new clock.
        #expect(watch.observe(database: 4605, boot: 55, term: { 3 }) == .init(step: nil, holdBack: 0))
        #expect(watch.holdBack(at: 55) == 0)
        #expect(steps.withLock { $0 } == [3600])
    }

    @Test("the term is asked only when a step is found; a second step counts from before the first")
    func secondStepWithinTheHold() {
        let asked = Mutex(0)
        let watch = DatabaseClockWatch()
        let term: () -> Double = {
            asked.withLock { $0 += 1 }
            return 10
        }
        _ = watch.observe(database: 0, boot: 0, term: term)
        _ = watch.observe(database: 5, boot: 5, term: term)
        #expect(asked.withLock { $0 } == 0)
        #expect(watch.observe(database: 106, boot: 6, term: term) == .init(step: 100, holdBack: 100))
        #expect(watch.observe(database: 157, boot: 7, term: term) == .init(step: 50, holdBack: 150))
        #expect(asked.withLock { $0 } == 2)
        // The second step moved the hold's end: a term after it, not after the first.
        #expect(watch.observe(database: 164, boot: 14, term: term).holdBack == 150)
        #expect(watch.observe(database: 168, boot: 18, term: term).holdBack == 0)
    }

    @Test("late readings within a hold neither grow the hold nor extend it")
    func lateReadingsDoNotRatchet() {
        let watch = DatabaseClockWatch()
        _ = watch.observe(database: 1000, boot: 0, term: { 5 })
        #expect(watch.observe(database: 2001, boot: 1, term: { 5 }).holdBack == 1000)
        // Readings whose answer came 0.8 s late (a lower offset), then on time.
        for second in 2...4 {
            let late = watch.observe(database: 2001 + Double(second - 1) - 0.8, boot: Double(second), term: { 5 })
            #expect(late.step == nil && late.holdBack <= 1000)
        }
        // The hold ends a term after the step, as it would have without them.
        #expect(watch.observe(database: 2005.5, boot: 5.5, term: { 5 }).holdBack == 1000)
        #expect(watch.observe(database: 2006.5, boot: 6.5, term: { 5 }).holdBack == 0)
    }

    @Test("a reading whose term cannot be asked records nothing: the next one finds the same step")
    func failedTermIsNotLost() throws {
        let watch = DatabaseClockWatch()
        _ = watch.observe(database: 1000, boot: 50, term: { 3 })
        #expect(throws: Failed.self) { try watch.observe(database: 4601, boot: 51, term: { throw Failed() }) }
        #expect(watch.holdBack(at: 51) == 0)
        #expect(try watch.observe(database: 4602, boot: 52, term: { 3 }) == .init(step: 3600, holdBack: 3600))
    }

    @Test("a step back is not a forward step (the lease cut handles it); a step forward after it is")
    func stepBackThenForward() {
        let watch = DatabaseClockWatch()
        _ = watch.observe(database: 5000, boot: 50, term: { 3 })
        #expect(watch.observe(database: 1401, boot: 51, term: { 3 }) == .init(step: nil, holdBack: 0))
        #expect(watch.observe(database: 5002, boot: 52, term: { 3 }) == .init(step: 3600, holdBack: 3600))
    }
}
