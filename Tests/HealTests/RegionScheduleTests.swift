import Testing

@testable import Heal

@Suite("Region schedule")
struct RegionScheduleTests {
    static func proposal(_ name: String, region: String?) -> Proposal {
        var proposal = Proposal(actor: .logicRepair, changes: [], description: name, score: 1, strategy: "t")
        proposal.region = region
        return proposal
    }

    @Test("a region over its budget waits for the others; then the budget doubles; no region, no wait")
    func order() {
        let ranked =
            (1...5).map { Self.proposal("a\($0)", region: "m.py:1") } + [Self.proposal("b1", region: "m.py:2")]
            + [Self.proposal("free", region: nil)]
        var schedule = RegionSchedule(ranked, budget: 1)
        let first = schedule.next(2)
        #expect(first.map(\.description) == ["a1", "a2"])
        schedule.charge(first, seconds: 2)
        // m.py:1 has used its second: the next line's candidate and the unregioned one go first.
        let second = schedule.next(2)
        #expect(second.map(\.description) == ["b1", "free"])
        schedule.charge(second, seconds: 0.5)
        #expect(schedule.next(2).map(\.description) == ["a3", "a4"])
        #expect(schedule.budget == 4)
        #expect(schedule.next(2).map(\.description) == ["a5"])
        #expect(schedule.isEmpty && schedule.next(2).isEmpty)
    }
}
