import Foundation
import Support

/// A standard five-field cron expression (`minute hour day-of-month month day-of-week`), read by
/// hand with bounds: lists, ranges, steps (`*/15`, `1-30/5`, `5/10`), month and day names
/// (`JAN`, `mon-fri`), 0 or 7 for Sunday, and the macros `@yearly`, `@annually`, `@monthly`,
/// `@weekly`, `@daily`, `@midnight`, `@hourly`. Day-of-month and day-of-week combine as Vixie cron
/// and POSIX say: when both are restricted (neither starts with `*`), a day matching either runs.
public struct CronExpression: Sendable, Hashable, CustomStringConvertible {
    /// The text as given.
    public let text: String
    let minutes: Set<Int>
    let hours: Set<Int>
    let days: Set<Int>
    let months: Set<Int>
    /// 0 (Sunday) to 6; a 7 is read as 0.
    let weekdays: Set<Int>
    let daysRestricted: Bool
    let weekdaysRestricted: Bool

    /// The text as given.
    public var description: String { text }

    private static let macros = [
        "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
        "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
    ]
    private static let monthNames = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
    private static let dayNames = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]

    /// Reads `text`; a malformed expression is an `.invalidInput` error naming the field.
    public init(_ text: String) throws {
        guard text.utf8.count <= 200 else { throw SentinelError(.invalidInput, "cron expression: longer than 200 bytes") }
        self.text = text
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var expanded = trimmed
        if trimmed.hasPrefix("@") {
            guard let macro = Self.macros[trimmed.lowercased()] else {
                throw SentinelError(
                    .invalidInput,
                    "cron expression '\(DisplayText.escaped(trimmed))': unknown macro (use @yearly, @monthly, @weekly, @daily or @hourly)")
            }
            expanded = macro
        }
        let fields = expanded.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count == 5 else {
            throw SentinelError(
                .invalidInput,
                "cron expression '\(DisplayText.escaped(trimmed))': \(fields.count) fields, expected 5 (minute hour day month weekday)")
        }
        minutes = try Self.field(fields[0], name: "minute", range: 0...59, names: [])
        hours = try Self.field(fields[1], name: "hour", range: 0...23, names: [])
        days = try Self.field(fields[2], name: "day of month", range: 1...31, names: [])
        months = try Self.field(fields[3], name: "month", range: 1...12, names: Self.monthNames, firstName: 1)
        weekdays = Set(try Self.field(fields[4], name: "day of week", range: 0...7, names: Self.dayNames).map { $0 % 7 })
        daysRestricted = !fields[2].hasPrefix("*")
        weekdaysRestricted = !fields[4].hasPrefix("*")
        // A day that no month has (30 February alone) would never run: refused now, not silently.
        if !weekdaysRestricted || !daysRestricted {
            let longest = months.map { UTCTimestamp.daysIn(month: $0, leap: true) }.max() ?? 31
            if daysRestricted, days.allSatisfy({ $0 > longest }) {
                throw SentinelError(.invalidInput, "cron expression '\(DisplayText.escaped(trimmed))': no month named has that day")
            }
        }
    }

    /// One field: `*`, or a comma list of `N`, `A-B`, each with an optional `/STEP`.
    private static func field(_ text: String, name: String, range: ClosedRange<Int>, names: [String], firstName: Int = 0) throws -> Set<Int>
    {
        func bad(_ why: String) -> SentinelError {
            SentinelError(.invalidInput, "cron expression: \(name) field '\(DisplayText.escaped(text))': \(why)")
        }
        func value(_ token: Substring) throws -> Int {
            if let number = Int(token), token.allSatisfy(\.isASCII) {
                guard range.contains(number) else { throw bad("\(number) is outside \(range.lowerBound)-\(range.upperBound)") }
                return number
            }
            guard let index = names.firstIndex(of: token.uppercased()) else {
                throw bad("'\(DisplayText.escaped(String(token)))' is not a value")
            }
            return index + firstName
        }
        var result = Set<Int>()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !item.isEmpty else { throw bad("an empty list item") }
            let parts = item.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw bad("more than one step") }
            var step = 1
            if parts.count == 2 {
                guard let parsed = Int(parts[1]), parsed >= 1, parsed <= range.upperBound else {
                    throw bad("step '\(parts[1])' is not 1 to \(range.upperBound)")
                }
                step = parsed
            }
            let span = parts[0]
            var low: Int
            var high: Int
            if span == "*" {
                (low, high) = (range.lowerBound, range.upperBound)
            } else if let dash = span.firstIndex(of: "-") {
                low = try value(span[..<dash])
                high = try value(span[span.index(after: dash)...])
                guard low <= high else { throw bad("the range \(low)-\(high) runs backwards") }
            } else {
                low = try value(span)
                // `5/10`: from 5 to the end in steps of 10, as Vixie cron reads it.
                high = parts.count == 2 ? range.upperBound : low
            }
            result.formUnion(stride(from: low, through: high, by: step))
        }
        return result
    }

    /// True when the civil date (year, month 1-12, day 1-31) is one the expression runs on.
    func runs(year: Int, month: Int, day: Int) -> Bool {
        guard months.contains(month) else { return false }
        let weekday = Self.weekday(Self.daysFromCivil(year, month, day))
        let dayMatch = days.contains(day)
        let weekdayMatch = weekdays.contains(weekday)
        if daysRestricted && weekdaysRestricted { return dayMatch || weekdayMatch }
        return dayMatch && weekdayMatch
    }

    /// The first instant strictly after `date` at which the expression runs, its fields read as
    /// the wall clock of `zone`; nil when none comes within eight years (a 29 February that falls
    /// only on a given weekday may be seven years off).
    ///
    /// DST: a wall time the clocks skip (02:30 on a spring-forward night) runs once, at the first
    /// instant after the gap; a wall time that occurs twice (01:30 on a fall-back night) runs once,
    /// at its first occurrence.
    public func next(after date: Date, in zone: TimeZone) -> Date? {
        let after = Int64(date.timeIntervalSince1970.rounded(.down))
        // Start from the wall-clock minute of `after`, a day earlier to be safe across offsets.
        let startLocal = after + Int64(zone.secondsFromGMT(for: date)) - 86_400
        var day = Self.floorDiv(startLocal, 86_400)
        let sortedHours = hours.sorted()
        let sortedMinutes = minutes.sorted()
        for _ in 0..<(8 * 366 + 2) {
            let (year, month, dayOfMonth) = Self.civil(fromDays: day)
            if runs(year: year, month: month, day: dayOfMonth) {
                for hour in sortedHours {
                    for minute in sortedMinutes {
                        let wall = day * 86_400 + Int64(hour * 3600 + minute * 60)
                        if let instant = Self.instant(ofWall: wall, in: zone), instant > after {
                            return Date(timeIntervalSince1970: Double(instant))
                        }
                    }
                }
            }
            day += 1
        }
        return nil
    }

    /// The instant whose wall clock in `zone` reads `wall` (seconds of a civil time as if it were
    /// UTC): the earlier of two in a repeated hour; in a skipped one, the first instant after the gap.
    static func instant(ofWall wall: Int64, in zone: TimeZone) -> Int64? {
        func offset(_ instant: Int64) -> Int64 { Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))) }
        // No zone's offset changes more than once within a day either side, nor by more than a day.
        let candidates = Set([offset(wall - 86_400), offset(wall), offset(wall + 86_400), offset(wall - 43_200), offset(wall + 43_200)])
        let valid = candidates.map { wall - $0 }.filter { offset($0) == wall - $0 }
        if let earliest = valid.min() { return earliest }
        // A gap: the offset after the change is the larger. Binary search the change between the
        // instant read with the later offset and the one read with the earlier.
        guard let before = candidates.min(), let later = candidates.max(), later > before else { return nil }
        var low = wall - later  // still on the earlier offset
        var high = wall - before  // already on the later one
        guard offset(high) != offset(low) else { return nil }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if offset(middle) == offset(low) { low = middle } else { high = middle }
        }
        return high
    }

    // MARK: Civil calendar (proleptic Gregorian, Howard Hinnant's algorithms)

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// Days since 1970-01-01 of a civil date.
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day count since 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// 0 (Sunday) to 6 of a day count since 1970-01-01 (a Thursday).
    static func weekday(_ days: Int64) -> Int { Int(((days % 7) + 11) % 7) }
}

/// A cron schedule: the expression and the zone whose wall clock it is read in.
public struct CronSchedule: Sendable, Hashable {
    /// The expression.
    public var expression: CronExpression
    /// An IANA zone name (`Europe/Paris`), `UTC` by default.
    public var timeZone: String

    /// A schedule; an unknown zone is an `.invalidInput` error.
    public init(expression: CronExpression, timeZone: String = "UTC") throws {
        guard timeZone.utf8.count <= 64, TimeZone(identifier: timeZone) != nil else {
            throw SentinelError(.invalidInput, "time zone '\(DisplayText.escaped(timeZone))': not a known zone (e.g. Europe/Paris, UTC)")
        }
        self.expression = expression
        self.timeZone = timeZone
    }

    /// The first run strictly after `date`.
    public func next(after date: Date) -> Date? {
        guard let zone = TimeZone(identifier: timeZone) else { return nil }
        return expression.next(after: date, in: zone)
    }
}
