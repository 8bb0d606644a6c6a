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
