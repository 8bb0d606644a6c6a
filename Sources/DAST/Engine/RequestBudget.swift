import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How many requests a scan may send, how fast and for how long. Every request takes a slot
/// first; when the count or the deadline is reached, `acquire` throws and the scan reports what
/// it has, marked as cut short.
public final class RequestBudget: Sendable {
    /// Why no more requests are sent.
    public enum Exhausted: Error, Sendable, Equatable {
        /// The request budget (`--max-requests`) is spent.
        case requests(Int)
        /// The scan's time (`--max-duration`) is up.
        case duration(Double)
        /// One proof's share (`WebScanOptions.maxRequestsPerProof`) is spent: that proof ends,
        /// the scan goes on.
        case share(Int)
    }

    /// Most requests in all.
    public let maxRequests: Int
    /// Requests per second at most (0: no limit).
    public let ratePerSecond: Double
    /// Seconds the scan may run.
    public let maxDuration: Double
    private let started: UInt64
    private let state = Mutex<(sent: Int, nextSlot: UInt64, share: (end: Int, size: Int)?)>((0, 0, nil))

    /// A budget starting now.
    public init(maxRequests: Int, ratePerSecond: Double, maxDuration: Double) {
        self.maxRequests = maxRequests
        self.ratePerSecond = ratePerSecond
        self.maxDuration = maxDuration
        self.started = DispatchTime.now().uptimeNanoseconds
    }

    /// Requests taken so far.
    public var sent: Int { state.withLock { $0.sent } }

    /// Seconds since the budget was made.
    public var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }

    /// Holds every request back for `seconds` from now (a target that asked the scan to slow
    /// down: 429, `Retry-After`); the requests after it keep the rate limit's spacing.
    public func pause(seconds: Double) {
        let until = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        state.withLock { $0.nextSlot = max($0.nextSlot, until) }
    }

    /// From now on, at most `count` more requests until the share is lifted (nil): one proof's.
    public func share(_ count: Int?) {
        state.withLock { state in state.share = count.map { (state.sent + max(0, $0), max(0, $0)) } }
    }

    /// Seconds left before the deadline (never negative).
    public var remaining: Double { max(0, maxDuration - elapsed) }

    /// Takes one request slot, waiting for the rate limit's next slot. Throws `Exhausted`.
    public func acquire() throws(Exhausted) {
        let now = DispatchTime.now().uptimeNanoseconds
        if elapsed >= maxDuration { throw .duration(maxDuration) }
        let interval = ratePerSecond > 0 ? UInt64(1e9 / ratePerSecond) : 0
        var share: Int?
        let slot: UInt64? = state.withLock { state in
            if let limit = state.share, state.sent >= limit.end {
                share = limit.size
                return nil
            }
            guard state.sent < maxRequests else { return nil }
            state.sent += 1
            let slot = max(now, state.nextSlot)
            state.nextSlot = slot + interval
            return slot
        }
        if let share { throw .share(share) }
        guard let slot else { throw .requests(maxRequests) }
        if slot > now {
            let wait = slot - now
            var time = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
            var left = timespec()
            while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
        }
    }
}
