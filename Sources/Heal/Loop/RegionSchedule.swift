import Foundation

/// The order an actor's proposals are judged in, with a time budget per region of the code (a
/// suspicious line, ``Proposal/region``): proposals go in their ranked order, but a region that
/// has used its budget waits until every other region has had as much, then all budgets double.
/// Without it one line with many variants (a long expression, a slow test) could spend the whole
/// heal before the next line's first variant is tried. Proposals without a region are never
/// deferred.
struct RegionSchedule {
    /// Proposals not yet handed out, in ranked order.
    private(set) var pending: [Proposal]
    /// Seconds each region has used.
    private(set) var spent: [String: Double] = [:]
    /// Seconds a region may use before it waits; doubles when every pending region has used it.
    private(set) var budget: Double

    /// A schedule of `proposals` (ranked), each region allowed `budget` seconds per pass.
    init(_ proposals: [Proposal], budget: Double) {
        pending = proposals
        self.budget = max(0.001, budget)
    }

    var isEmpty: Bool { pending.isEmpty }

    /// The next `count` proposals, in ranked order, from regions still within the budget.
    mutating func next(_ count: Int) -> [Proposal] {
        guard !pending.isEmpty else { return [] }
        while !pending.contains(where: isWithinBudget) { budget *= 2 }
        var chosen: [Proposal] = []
        var rest: [Proposal] = []
        for proposal in pending {
            if chosen.count < count, isWithinBudget(proposal) { chosen.append(proposal) } else { rest.append(proposal) }
        }
        pending = rest
        return chosen
    }

    /// Records that judging `proposals` took `seconds` (shared among them).
    mutating func charge(_ proposals: [Proposal], seconds: Double) {
        guard !proposals.isEmpty else { return }
        let share = seconds / Double(proposals.count)
        for region in proposals.compactMap(\.region) { spent[region, default: 0] += share }
    }

    private func isWithinBudget(_ proposal: Proposal) -> Bool {
        guard let region = proposal.region else { return true }
        return spent[region, default: 0] < budget
    }
}
