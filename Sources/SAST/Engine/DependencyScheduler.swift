import Foundation

/// Hands out a project's files to the scanning threads so that a file starts after every module it
/// imports has final summaries whenever such a file is left: its analysis is then final too and it
/// needs no second round. A fixed dependency order is not enough with several threads: the next
/// file in order often imports the module the other thread is still analysing (Django's
/// `contrib/admin/options.py` then took a 50 ms second round). When no file is ready (import
/// cycles, or everything left waits for work in progress) the earliest in dependency order goes.
final class DependencyScheduler: @unchecked Sendable {
    private let lock = NSLock()
    /// Position of each file in the dependency order.
    private let rank: [Int]
    private let order: [Int]
    /// Per file, the project modules it imports that are not final yet.
    private var waiting: [Int]
    /// Module → the files that import it.
    private let importers: [String: [Int]]
    private var ready: [Int] = []
    private var taken: [Bool]
    /// Where the search for the earliest untaken file in `order` resumes.
    private var cursor = 0

    /// `order`: the files' indices, dependencies first; `imports`: the project modules each file
    /// imports; `module`: each file's module name (nil when it has none).
    init(order: [Int], imports: [Set<String>], module: [String?]) {
        self.order = order
        var rank = [Int](repeating: 0, count: imports.count)
        for (position, file) in order.enumerated() { rank[file] = position }
        self.rank = rank
        let known = Set(module.compactMap { $0 })
        var importers: [String: [Int]] = [:]
        var waiting = [Int](repeating: 0, count: imports.count)
        for (file, modules) in imports.enumerated() {
            for imported in modules where known.contains(imported) && imported != module[file] {
                importers[imported, default: []].append(file)
                waiting[file] += 1
            }
        }
        self.importers = importers
        self.waiting = waiting
        self.taken = [Bool](repeating: false, count: imports.count)
        ready = order.filter { waiting[$0] == 0 }
    }

    /// The next file to scan: the earliest ready one, else the earliest left.
    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        while let best = ready.indices.min(by: { rank[ready[$0]] < rank[ready[$1]] }) {
            let file = ready.remove(at: best)
            if !taken[file] {
                taken[file] = true
                return file
            }
        }
        while cursor < order.count, taken[order[cursor]] { cursor += 1 }
        guard cursor < order.count else { return nil }
        taken[order[cursor]] = true
        return order[cursor]
    }

    /// Records that `module`'s summaries are final: the files waiting only for it become ready.
    func final(_ module: String) {
        lock.lock()
        defer { lock.unlock() }
        for file in importers[module] ?? [] {
            waiting[file] -= 1
            if waiting[file] == 0, !taken[file] { ready.append(file) }
        }
    }
}
