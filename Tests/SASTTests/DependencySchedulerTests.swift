import Testing

@testable import SAST

/// The order files of a project are handed to the scanning threads.
@Suite("Dependency scheduler")
struct DependencySchedulerTests {
    @Test("a file whose imports are final goes before an earlier one still waiting")
    func readyFirst() {
        // 0: app imports models; 1: models; 2: utils (imports nothing); order: models, app, utils.
        let scheduler = DependencyScheduler(
            order: [1, 0, 2], imports: [["models"], [], []], module: ["app", "models", "utils"])
        #expect(scheduler.next() == 1)
        // models is still being analysed: utils is ready, app is not.
        #expect(scheduler.next() == 2)
        scheduler.final("models")
        #expect(scheduler.next() == 0)
        #expect(scheduler.next() == nil)
    }

    @Test("with nothing ready (a cycle), the earliest file in dependency order goes")
    func cycleFallsBackToOrder() {
        let scheduler = DependencyScheduler(order: [0, 1], imports: [["b"], ["a"]], module: ["a", "b"])
        #expect(scheduler.next() == 0)
        #expect(scheduler.next() == 1)
        #expect(scheduler.next() == nil)
    }

    @Test("imports outside the project and of the module itself do not wait")
    func foreignImports() {
        let scheduler = DependencyScheduler(order: [0], imports: [["os", "a"]], module: ["a"])
        #expect(scheduler.next() == 0)
    }
}
