import Synchronization

/// The run-wide byte allowance shared by all connections of one proxy.
final class ByteBudget: Sendable {
    private let limit: Int64?
    private let used = Mutex<Int64>(0)

    init(limit: Int64?) { self.limit = limit }

    /// Grants up to `count` bytes; less (possibly 0) once the limit is near.
    func reserve(_ count: Int) -> Int {
        guard let limit else { return count }
        return used.withLock { used in
            let granted = Int(min(Int64(count), max(0, limit - used)))
            used += Int64(granted)
            return granted
        }
    }

    /// Returns bytes granted but not used.
    func refund(_ count: Int) {
        guard limit != nil, count > 0 else { return }
        used.withLock { $0 -= Int64(count) }
    }

    var exhausted: Bool {
        guard let limit else { return false }
        return used.withLock { $0 >= limit }
    }
}
