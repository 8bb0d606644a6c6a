import Dispatch
import Synchronization
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

    @Test("of the ready files, the one heading the costliest chain of waiting files goes first")
    func costliestChainFirst() {
        // Ranks: a 0, b 1, c 2, d 3; d waits for c. a and b cost more than c alone, but c and d
        // together cost most: c goes first, then the rest by cost of their chains.
        let scheduler = DependencyScheduler(rank: [0, 1, 2, 3], waitFor: [[], [], [], [2]], cost: [5, 6, 4, 4])
        #expect(scheduler.next() == 2)
        #expect(scheduler.next() == 1)
        scheduler.done(2)
        #expect(scheduler.next() == 0)
        #expect(scheduler.next() == 3)
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

    @Test("many threads: every file once, never before the files it waits for are done")
    func manyThreads() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let count = 200
            let rank = Array(0..<count).shuffled(using: &generator)
            let byRank = rank.indices.sorted { rank[$0] < rank[$1] }
            // Each file waits for up to three files ranked before it.
            let waitFor = rank.indices.map { file in
                (0..<Int.random(in: 0...3, using: &generator)).compactMap { _ -> Int? in
                    rank[file] == 0 ? nil : byRank[Int.random(in: 0..<rank[file], using: &generator)]
                }
            }
            let scheduler = DependencyScheduler(rank: rank, waitFor: waitFor)
            let log = Mutex<(handed: [Int], done: Set<Int>, early: Int)>(([], [], 0))
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                while let file = scheduler.next() {
                    log.withLock { state in
                        if !waitFor[file].allSatisfy(state.done.contains) { state.early += 1 }
                        state.handed.append(file)
                    }
                    log.withLock { $0.done.insert(file) }
                    scheduler.done(file)
                }
            }
            let state = log.withLock { $0 }
            #expect(state.handed.sorted() == Array(0..<count))
            #expect(state.early == 0)
        }
    }
}
