import Testing

@testable import SAST

/// The order files of a project are handed to the scanning threads, and when.
@Suite("Dependency scheduler")
struct DependencySchedulerTests {
    @Test("a file whose earlier imports are done goes before an earlier one still waiting")
    func readyFirst() {
        // Ranks: models 0, app 1, utils 2; app waits for models.
        let scheduler = DependencyScheduler(rank: [1, 0, 2], waitFor: [[1], [], []])
        #expect(scheduler.next() == 1)
        // models is still being analysed: utils is ready, app is not.
        #expect(scheduler.next() == 2)
        scheduler.done(1)
        #expect(scheduler.next() == 0)
        #expect(scheduler.next() == nil)
    }

    @Test("a thread with nothing ready waits for the file it needs")
    func waitsForWorkInProgress() async {
        let scheduler = DependencyScheduler(rank: [0, 1], waitFor: [[], [0]])
        #expect(scheduler.next() == 0)
        let second = Task.detached { scheduler.next() }
        try? await Task.sleep(for: .milliseconds(50))
        scheduler.done(0)
        #expect(await second.value == 1)
        #expect(scheduler.next() == nil)
    }

    @Test("a file never waits for itself")
    func selfImport() {
        let scheduler = DependencyScheduler(rank: [0], waitFor: [[0]])
        #expect(scheduler.next() == 0)
        #expect(scheduler.next() == nil)
    }
}
