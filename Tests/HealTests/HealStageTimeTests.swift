import Testing

@testable import Heal

/// Where a heal's time went: each stage summed over its runs, in the order stages first ran,
/// and printed on one line of the summary.
@Suite struct HealStageTimeTests {
    @Test func stagesSumInFirstRunOrderAndCount() {
        var clock = HealStageClock()
        let start = HealStageClock.now()
        clock.spent("baseline", since: start)
        clock.spent("templates verifying", since: start)
        clock.spent("templates proposing", since: start)
        clock.spent("templates verifying", since: start)
        #expect(clock.stages.map(\.stage) == ["baseline", "templates verifying", "templates proposing"])
        #expect(clock.stages.map(\.count) == [1, 2, 1])
        #expect(clock.stages.allSatisfy { $0.milliseconds >= 0 })
    }

    @Test func summaryLineNamesEachStageWithSecondsAndRepeats() {
        let text = HealSummary.stageText([
            HealStageTime(stage: "baseline", milliseconds: 312),
            HealStageTime(stage: "trace", milliseconds: 1049),
            HealStageTime(stage: "templates verifying", milliseconds: 2150, count: 3),
        ])
        #expect(text == "baseline 0.3 s, trace 1.0 s, templates verifying 2.1 s (3×)")
    }
}
