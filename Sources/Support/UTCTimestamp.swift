import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// RFC 3339 timestamps in UTC (`2025-01-31T09:05:07.042Z`), written with `gmtime_r`: one
/// formatter for logs, audit lines and stored rows. Making an `ISO8601DateFormatter` for each
/// line cost a fleet worker a tenth of its time per job.
public enum UTCTimestamp {
    /// `date` as RFC 3339 in UTC, with milliseconds (`.042Z`) unless `milliseconds` is false (`Z`).
    public static func string(_ date: Date, milliseconds: Bool = true) -> String {
        // To the nearest millisecond: -0.001 s is -1.0000000000000002 ms in binary.
        let total = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(total.quotientAndRemainder(dividingBy: 1000).quotient)
        var remainder = total % 1000
        if remainder < 0 {  // Before 1970: floor, not truncation.
            remainder += 1000
            seconds -= 1
        }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text = ""
        text.reserveCapacity(24)
        func append(_ value: Int, _ width: Int) {
            let digits = String(value)
            if digits.count < width { text += String(repeating: "0", count: width - digits.count) }
            text += digits
        }
        append(Int(parts.tm_year) + 1900, 4)
        text += "-"
        append(Int(parts.tm_mon) + 1, 2)
        text += "-"
        append(Int(parts.tm_mday), 2)
        text += "T"
        append(Int(parts.tm_hour), 2)
        text += ":"
        append(Int(parts.tm_min), 2)
        text += ":"
        append(Int(parts.tm_sec), 2)
        if milliseconds {
            text += "."
            append(Int(remainder), 3)
        }
        return text + "Z"
    }
}

extension UTCTimestamp {
    /// The instant `YYYY-MM-DDTHH:MM:SS` names in UTC (the first 19 bytes of `text`; what follows
    /// is not read), read with `timegm`; nil unless every field is digits in its range (a 30th of
    /// February is nil, not the 2nd of March). Creating an ICU date formatter to read one key cost
    /// a scan 2 % of its CPU.
    public static func date(secondsPrefixOf text: String) -> Date? {
        let bytes = Array(text.utf8.prefix(19))
        guard bytes.count == 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, leap: isLeap(year: year)),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// The days of `month` (1-12) in a year that is a leap year when `leap` (the Gregorian
    /// calendar's, as UTC timestamps and cron schedules count them).
    public static func daysIn(month: Int, leap: Bool) -> Int {
        switch month {
        case 2: leap ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Whether `year` is a Gregorian leap year.
    public static func isLeap(year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }
}
