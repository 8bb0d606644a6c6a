import Foundation
import Store
import Support
import Testing

/// Cron expressions (issue 58): the five standard fields with lists, ranges, steps, names and
/// macros, Vixie day-of-month OR day-of-week, and the next run in a zone across DST changes
/// (Europe/Paris and America/New_York in 2026), 29 February and refusals of malformed expressions.
@Suite("Cron expressions and their next run")
struct CronExpressionTests {
    static func time(_ text: String) throws -> Date { try Date.ISO8601FormatStyle().parse(text) }

    /// The runs after `start`, in order.
    static func runs(_ expression: String, zone: String = "UTC", after start: String, count: Int) throws -> [String] {
        let schedule = try CronSchedule(expression: CronExpression(expression), timeZone: zone)
        var date = try time(start)
        var runs: [String] = []
        for _ in 0..<count {
            date = try #require(schedule.next(after: date))
            runs.append(date.formatted(.iso8601))
        }
        return runs
    }

    @Test("*/15, lists, ranges with steps, and a time strictly after the one given")
    func stepsAndLists() throws {
        #expect(
            try Self.runs("*/15 * * * *", after: "2026-11-28T10:07:30Z", count: 4) == [
                "2026-11-28T10:15:00Z", "2026-11-28T10:30:00Z", "2026-11-28T10:45:00Z", "2026-11-28T11:00:00Z",
            ])
        #expect(try Self.runs("*/15 * * * *", after: "2026-11-28T10:15:00Z", count: 1) == ["2026-11-28T10:30:00Z"])
        #expect(
            try Self.runs("5,50 8-18/5 * * *", after: "2026-11-28T09:00:00Z", count: 4) == [
                "2026-11-28T13:05:00Z", "2026-11-28T13:50:00Z", "2026-11-28T18:05:00Z", "2026-11-28T18:50:00Z",
            ])
        // `5/20`: from 5 to the end of the field.
        #expect(
            try Self.runs("5/20 0 * * *", after: "2026-11-28T00:00:00Z", count: 3) == [
                "2026-11-28T00:05:00Z", "2026-11-28T00:25:00Z", "2026-11-28T00:45:00Z",
            ])
    }

    @Test("month and day names, any case; 7 and 0 are Sunday; macros")
    func namesAndMacros() throws {
        #expect(
            try Self.runs("0 9 * JAN-MAR mon-fri", after: "2026-11-28T00:00:00Z", count: 3) == [
                "2027-01-01T09:00:00Z", "2027-01-04T09:00:00Z", "2027-01-05T09:00:00Z",
            ])
        #expect(try Self.runs("0 0 * * 7", after: "2026-11-28T00:00:00Z", count: 1) == ["2026-11-29T00:00:00Z"])
        #expect(try Self.runs("0 0 * * SUN", after: "2026-11-28T00:00:00Z", count: 1) == ["2026-11-29T00:00:00Z"])
        #expect(try Self.runs("@weekly", after: "2026-11-28T00:00:00Z", count: 2) == ["2026-11-29T00:00:00Z", "2026-12-06T00:00:00Z"])
        #expect(try Self.runs("@daily", after: "2026-11-28T00:00:00Z", count: 1) == ["2026-11-29T00:00:00Z"])
        #expect(try Self.runs("@midnight", after: "2026-11-28T23:59:59Z", count: 1) == ["2026-11-29T00:00:00Z"])
        #expect(try Self.runs("@hourly", after: "2026-11-28T10:00:00Z", count: 1) == ["2026-11-28T11:00:00Z"])
        #expect(try Self.runs("@monthly", after: "2026-11-28T00:00:00Z", count: 2) == ["2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z"])
        #expect(try Self.runs("@yearly", after: "2026-11-28T00:00:00Z", count: 1) == ["2027-01-01T00:00:00Z"])
        #expect(try Self.runs("@annually", after: "2026-11-28T00:00:00Z", count: 1) == ["2027-01-01T00:00:00Z"])
        #expect(
            try Self.runs("0 12 1 feb,Aug *", after: "2026-11-28T00:00:00Z", count: 2) == ["2027-02-01T12:00:00Z", "2027-08-01T12:00:00Z"])
    }

    @Test("day of month OR day of week when both are restricted (Vixie, POSIX); AND when either starts with *")
    func vixieDaySemantics() throws {
        // Friday the 4th, 11th, then Sunday the 13th, then Friday the 18th.
        #expect(
            try Self.runs("0 0 13 * 5", after: "2026-11-28T00:00:00Z", count: 4) == [
                "2026-12-04T00:00:00Z", "2026-12-11T00:00:00Z", "2026-12-13T00:00:00Z", "2026-12-18T00:00:00Z",
            ])
        // `*/2` starts with `*`: odd days that are also Mondays.
        #expect(try Self.runs("0 0 */2 * 1", after: "2026-11-28T00:00:00Z", count: 1) == ["2026-12-07T00:00:00Z"])
        #expect(try Self.runs("0 0 1 * *", after: "2026-11-28T00:00:00Z", count: 1) == ["2026-12-01T00:00:00Z"])
    }

    @Test("29 February: the next leap year; a day no month named has is refused")
    func leapDay() throws {
        #expect(try Self.runs("0 0 29 2 *", after: "2026-01-01T00:00:00Z", count: 2) == ["2028-02-29T00:00:00Z", "2032-02-29T00:00:00Z"])
        // 2100 is no leap year: from 2096 the next is 2104.
        #expect(try Self.runs("0 0 29 2 *", after: "2096-03-01T00:00:00Z", count: 1) == ["2104-02-29T00:00:00Z"])
        #expect(throws: SentinelError.self) { try CronExpression("0 0 30 2 *") }
        #expect(throws: SentinelError.self) { try CronExpression("0 0 31 4,6 *") }
    }

    @Test("Europe/Paris, spring forward: 02:30 is skipped and runs once at 03:00 CEST; */15 in the gap runs once")
    func parisSpringForward() throws {
        #expect(
            try Self.runs("30 2 * * *", zone: "Europe/Paris", after: "2026-03-28T12:00:00Z", count: 2) == [
                "2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z",
            ])
        #expect(
            try Self.runs("*/15 2 * * *", zone: "Europe/Paris", after: "2026-03-29T00:00:00Z", count: 2) == [
                "2026-03-29T01:00:00Z", "2026-03-30T00:00:00Z",
            ])
        // 03:00 itself, which exists, is the same instant: once, not twice.
        #expect(
            try Self.runs("0,30 2,3 * * *", zone: "Europe/Paris", after: "2026-03-29T00:00:00Z", count: 2) == [
                "2026-03-29T01:00:00Z", "2026-03-29T01:30:00Z",
            ])
    }

    @Test("Europe/Paris, fall back: 02:30 happens twice and runs once, at the first")
    func parisFallBack() throws {
        #expect(
            try Self.runs("30 2 * * *", zone: "Europe/Paris", after: "2026-10-24T12:00:00Z", count: 2) == [
                "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z",
            ])
        // Half way through the repeated hour (02:40 CET, the second pass): 02:30 has run; the next is tomorrow's.
        #expect(try Self.runs("30 2 * * *", zone: "Europe/Paris", after: "2026-10-25T01:40:00Z", count: 1) == ["2026-10-26T01:30:00Z"])
    }

    @Test("America/New_York: the spring-forward gap and the repeated hour; hourly runs skip the second 01:00")
    func newYork() throws {
        #expect(
            try Self.runs("30 2 * * *", zone: "America/New_York", after: "2026-03-07T12:00:00Z", count: 2) == [
                "2026-03-08T07:00:00Z", "2026-03-09T06:30:00Z",
            ])
        #expect(
            try Self.runs("30 1 * * *", zone: "America/New_York", after: "2026-10-31T12:00:00Z", count: 2) == [
                "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z",
            ])
        #expect(
            try Self.runs("0 * * * *", zone: "America/New_York", after: "2026-11-01T04:30:00Z", count: 3) == [
                "2026-11-01T05:00:00Z", "2026-11-01T07:00:00Z", "2026-11-01T08:00:00Z",
            ])
        // In summer the zone is four hours behind UTC, in winter five.
        #expect(try Self.runs("0 9 * * *", zone: "America/New_York", after: "2026-07-01T00:00:00Z", count: 1) == ["2026-07-01T13:00:00Z"])
        #expect(try Self.runs("0 9 * * *", zone: "America/New_York", after: "2026-12-01T00:00:00Z", count: 1) == ["2026-12-01T14:00:00Z"])
    }

    @Test(
        "malformed expressions and zones are refused in one line",
        arguments: [
            "60 * * * *", "* 24 * * *", "* * 0 * *", "* * * 13 *", "* * * * 8", "* * * *", "* * * * * *", "*/0 * * * *",
            "5-1 * * * *", "@reboot", "a b c d e", "1,,2 * * * *", "1/2/3 * * * *", "-1 * * * *", "* * * FOO *", "",
            String(repeating: "1,", count: 200) + "1 * * * *", "*/60 * * * *",
        ])
    func refused(_ text: String) {
        #expect(throws: SentinelError.self) { try CronExpression(text) }
    }

    @Test("an unknown time zone is refused")
    func unknownZone() throws {
        #expect(throws: SentinelError.self) { try CronSchedule(expression: CronExpression("@daily"), timeZone: "Mars/Olympus_Mons") }
        #expect(try CronSchedule(expression: CronExpression("@daily"), timeZone: "Europe/Paris").timeZone == "Europe/Paris")
    }
}
