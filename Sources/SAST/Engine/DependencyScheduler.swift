import Foundation

/// Hands out a project's files to the scanning threads so that the results never depend on which
/// thread was faster.
///
/// The files are ranked dependencies first (``dependenciesFirst(_:)``). In the first
/// round a file reads the summaries of the modules it imports that rank before it, and only those
/// (``ProjectAccess``); it starts once all of them are done, so it always reads the same summaries.
/// The modules it imports that rank after it (import cycles) stay hidden until the second round.
/// A file that is ready goes before one still waiting; of the ready files, the one that heads the
/// costliest chain of files waiting on each other goes first (then the earliest ranked), so that
/// a long chain does not start last and leave the other threads idle at the end. The order only
/// decides when a file runs, never what it reads. With none ready, a thread waits.
final class DependencyScheduler: @unchecked Sendable {
    private let condition = NSCondition()
    /// Position of each file in the dependency order.
    private let rank: [Int]
    /// Per file, the cost of the costliest chain of files that starts with it and waits on it.
    private let chain: [Int]
    /// Per file, how many of the files it waits for are not done yet.
    private var waiting: [Int]
    /// Per file, the files that wait for it.
    private let dependents: [[Int]]
    private var ready: [Int]
    /// Per file, whether ``done(_:)`` was called for it.
    private var finished: [Bool]
    private var handedOut = 0

    /// `rank`: each file's position in the dependency order; `waitFor`: per file, the files (ranked
    /// before it) whose results it reads; `cost`: per file, an estimate of its scanning time (its
    /// size; nil: all alike).
    init(rank: [Int], waitFor: [[Int]], cost: [Int]? = nil) {
        self.rank = rank
        var dependents = [[Int]](repeating: [], count: rank.count)
        for (file, list) in waitFor.enumerated() {
            for other in Set(list) where other != file { dependents[other].append(file) }
        }
        self.dependents = dependents
        // Latest ranked first: a file waits only for files ranked before it.
        var chain = cost ?? [Int](repeating: 1, count: rank.count)
        for file in rank.indices.sorted(by: { rank[$0] > rank[$1] }) {
            chain[file] += dependents[file].map { chain[$0] }.max() ?? 0
        }
        self.chain = chain
        let waiting = waitFor.enumerated().map { file, list in Set(list).subtracting([file]).count }
        self.waiting = waiting
        ready = rank.indices.filter { waiting[$0] == 0 }
        finished = [Bool](repeating: false, count: rank.count)
    }

    /// The next file to scan, the ready one heading the costliest chain (then the earliest
    /// ranked); waits while none is ready and some are still being scanned. Nil once every file
    /// was handed out.
    func next() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let best = ready.indices.min(by: { (-chain[ready[$0]], rank[ready[$0]]) < (-chain[ready[$1]], rank[ready[$1]]) }) {
                handedOut += 1
                return ready.remove(at: best)
            }
            if handedOut == rank.count { return nil }
            condition.wait()
        }
    }

    /// Records that `file` is done (what others read of it is out, or it was left out): the files
    /// waiting only for it become ready. Once per file; a second call changes nothing.
    func done(_ file: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard !finished[file] else { return }
        finished[file] = true
        for dependent in dependents[file] {
            waiting[dependent] -= 1
            if waiting[dependent] == 0 { ready.append(dependent) }
        }
        condition.broadcast()
    }

    /// The files ordered so that, outside import cycles, each comes after those it imports (a
    /// depth-first post-order from each file in turn). `imports`: per file, the files it imports.
    static func dependenciesFirst(_ imports: [Set<Int>]) -> [Int] {
        var order: [Int] = []
        var visited = [Bool](repeating: false, count: imports.count)
        // Imports sorted: a set's order changes from run to run, and the order decides which
        // modules of a cycle each file reads.
        for root in imports.indices where !visited[root] {
            visited[root] = true
            var stack: [(Int, [Int])] = [(root, imports[root].sorted())]
            while !stack.isEmpty {
                if let next = stack[stack.count - 1].1.popLast() {
                    guard !visited[next] else { continue }
                    visited[next] = true
                    stack.append((next, imports[next].sorted()))
                } else {
                    order.append(stack.removeLast().0)
                }
            }
        }
        return order
    }
}
