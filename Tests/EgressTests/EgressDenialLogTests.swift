import Testing

@testable import Egress

/// A payload hammering refused destinations gets a few lines per destination and per run, and
/// the summary accounts for every denial that was not printed.
struct EgressDenialLogTests {
    private func denial(_ host: String, _ port: Int = 443) -> EgressRecord {
        EgressRecord(host: host, port: port, allowed: false, rule: "no rule matches", protocol: .connect)
    }

    @Test func theFirstFewPerDestinationArePrintedAndTheRestCounted() {
        let log = EgressDenialLog(perDestination: 3, total: 50)
        let lines =
            (0..<1000).compactMap { _ in log.line(for: denial("a.example")) }
            + (0..<2).compactMap { _ in log.line(for: denial("b.example", 80)) }
        #expect(
            lines == Array(repeating: "sentinel: egress denied: a.example:443 (no rule matches)", count: 3)
                + Array(repeating: "sentinel: egress denied: b.example:80 (no rule matches)", count: 2))
        #expect(log.summary() == ["sentinel: egress denied: 997 more requests to a.example:443 not shown"])
    }

    @Test func nothingIsSummarisedWhenEveryDenialWasPrinted() {
        let log = EgressDenialLog()
        #expect(log.line(for: denial("::1", 80)) == "sentinel: egress denied: [::1]:80 (no rule matches)")
        #expect(log.summary().isEmpty)
    }

    /// Many destinations: the run's total bounds the printed lines, the summary names the
    /// destinations with most unprinted denials and folds the rest into one line.
    @Test func manyDestinationsStayBounded() {
        let log = EgressDenialLog(perDestination: 2, total: 10, summaryDestinations: 3)
        var printed = 0
        for host in 0..<100 {
            for _ in 0..<(host == 99 ? 50 : 4) where log.line(for: denial("h\(host).example")) != nil { printed += 1 }
        }
        #expect(printed == 10)
        let summary = log.summary()
        #expect(summary.count == 4)
        #expect(summary.first == "sentinel: egress denied: 50 more requests to h99.example:443 not shown")
        let counted = summary.compactMap { Int($0.split(separator: " ")[3]) }.reduce(0, +)
        #expect(printed + counted == 99 * 4 + 50)
        #expect(summary.last?.hasSuffix("more requests to other destinations not shown") == true)
    }

    /// Denials to more destinations than are counted by name still add up.
    @Test func untrackedDestinationsAreCountedTogether() {
        let log = EgressDenialLog(perDestination: 1, total: 1, summaryDestinations: 1)
        let destinations = EgressDenialLog.trackedDestinations + 5
        for host in 0..<destinations { _ = log.line(for: denial("h\(host).example")) }
        let counted = log.summary().compactMap { Int($0.split(separator: " ")[3]) }.reduce(0, +)
        #expect(counted == destinations - 1)
    }
}
