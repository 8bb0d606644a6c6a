import Synchronization

/// Which egress denials become a log line. A payload can make thousands of refused requests a
/// second, and a line for each flooded the caller's stderr (31,771 lines in 10 s). The first
/// `perDestination` denials of each `host:port` are printed as they happen, at most `total` in
/// all; at the end `summary()` counts the rest: one line for each of the `summaryDestinations`
/// destinations with the most, one more for all the others. Only the log is cut: every decision
/// is still recorded (`--status-json`'s `egress`).
public final class EgressDenialLog: Sendable {
    /// Denials printed per destination.
    public let perDestination: Int
    /// Denials printed per run.
    public let total: Int
    /// Destinations named in the summary.
    public let summaryDestinations: Int
    /// Destinations counted by name; denials to any further one are counted together.
    static let trackedDestinations = 10_000

    private struct Counts {
        var printed = 0
        var unprinted = 0
    }

    private struct State {
        var printed = 0
        var destinations: [String: Counts] = [:]
        var untracked = 0
    }

    private let state = Mutex(State())

    /// A log with the given bounds (the defaults suit `sentinel sandbox run`).
    public init(perDestination: Int = 5, total: Int = 50, summaryDestinations: Int = 10) {
        self.perDestination = perDestination
        self.total = total
        self.summaryDestinations = summaryDestinations
    }

    /// The line to print now for `record` (its `denialLine`), or nil when it is only counted.
    /// Safe from any thread.
    public func line(for record: EgressRecord) -> String? {
        let destination = record.destination
        let printed = state.withLock { state -> Bool in
            guard state.destinations[destination] != nil || state.destinations.count < Self.trackedDestinations else {
                state.untracked += 1
                return false
            }
            var counts = state.destinations[destination, default: Counts()]
            defer { state.destinations[destination] = counts }
            guard counts.printed < perDestination, state.printed < total else {
                counts.unprinted += 1
                return false
            }
            counts.printed += 1
            state.printed += 1
            return true
        }
        return printed ? record.denialLine : nil
    }

    /// Lines counting the denials `line(for:)` did not print; empty when it printed them all.
    public func summary() -> [String] {
        let (destinations, untracked) = state.withLock { ($0.destinations, $0.untracked) }
        let unprinted = destinations.filter { $0.value.unprinted > 0 }
            .sorted { ($0.value.unprinted, $1.key) > ($1.value.unprinted, $0.key) }
        var lines = unprinted.prefix(summaryDestinations).map {
            "sentinel: egress denied: \($0.value.unprinted) more requests to \($0.key) not shown"
        }
        let others = unprinted.dropFirst(summaryDestinations).reduce(untracked) { $0 + $1.value.unprinted }
        if others > 0 { lines.append("sentinel: egress denied: \(others) more requests to other destinations not shown") }
        return lines
    }
}
