import Synchronization

/// The work one file's analysis has done, in units, against its budget (issue 77: a budget per
/// file in work, not wall time, so that a file's result does not depend on the machine's load).
///
/// One unit is one step of a loop whose count a file controls: a pattern node compared with a
/// code node, a statement executed or an expression evaluated by the taint analysis, a
/// function analysed for its summary. The same file and rules always cost the same units.
/// Past the budget, ``isExhausted`` turns true and the charged loops return at their next
/// step (a flag they check, not an error thrown through them); the engine then reports the file
/// with ``ParserBoundFinding/workBudget(file:budget:phase:)``.
///
/// One meter serves one file's scan on one thread. The count is an atomic only so that the type
/// is safely `Sendable`; it is read and written with relaxed plain loads and stores (no
/// read-modify-write instruction at every node), which is exact on one thread.
public final class WorkMeter: Sendable {
    /// The units after which the file's analysis stops.
    public let budget: Int
    private let used: Atomic<Int>

    /// A meter that has spent `used` units of `budget` (`Int.max`: unbounded).
    public init(budget: Int = .max, used: Int = 0) {
        self.budget = budget
        self.used = Atomic(used)
    }

    /// The units spent so far.
    public var units: Int { used.load(ordering: .relaxed) }

    /// Whether more than the budget has been spent: the analysis is to stop.
    @inline(__always) public var isExhausted: Bool { used.load(ordering: .relaxed) > budget }

    /// Spends `units`; returns whether the budget still holds (false: stop).
    @inline(__always) @discardableResult
    public func charge(_ units: Int = 1) -> Bool {
        let now = used.load(ordering: .relaxed) &+ units
        used.store(now, ordering: .relaxed)
        return now <= budget
    }
}
