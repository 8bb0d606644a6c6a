import Foundation
import Synchronization

/// Runs `body(0..<count)` on at most `concurrency` threads: the scan's requests in flight at once.
enum ParallelLoop {
    static func run(_ count: Int, concurrency: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let next = Atomic<Int>(0)
        let workers = max(1, min(concurrency, count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            Thread.detachNewThread {
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < count else { break }
                    body(index)
                }
                group.leave()
            }
        }
        group.wait()
    }
}
