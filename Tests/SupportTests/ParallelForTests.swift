import Support
import Synchronization
import Testing

/// The one parallel loop (docs/HACKING.md, "One way per job"): every index runs exactly once on
/// either kind of worker, and a map keeps the order of its items.
@Suite struct ParallelForTests {
    /// How many times each index ran.
    static func counts(_ count: Int, threads: Int?, stackSize: Int? = nil) -> [Int] {
        let seen = Mutex([Int](repeating: 0, count: count))
        ParallelFor.run(count, threads: threads, stackSize: stackSize) { i in seen.withLock { $0[i] += 1 } }
        return seen.withLock { $0 }
    }

    @Test(arguments: [nil, 1, 3, 64])
    func everyIndexRunsOnce(threads: Int?) {
        #expect(Self.counts(0, threads: threads).isEmpty)
        #expect(Self.counts(1, threads: threads) == [1])
        #expect(Self.counts(500, threads: threads) == [Int](repeating: 1, count: 500))
        // Threads of their own with a large stack, as the Python parser's.
        #expect(Self.counts(50, threads: threads ?? 2, stackSize: 64 << 20) == [Int](repeating: 1, count: 50))
    }

    @Test(arguments: [nil, 2])
    func mapKeepsTheOrderOfItsItems(threads: Int?) {
        let items = Array(0..<300)
        #expect(ParallelFor.map(items, threads: threads) { $0 * $0 } == items.map { $0 * $0 })
        #expect(ParallelFor.map(["one"], threads: threads) { $0.count } == [3])
        #expect(ParallelFor.map([Int](), threads: threads) { $0 }.isEmpty)
    }
}
