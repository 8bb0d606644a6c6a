import Foundation

/// How long to wait before the next attempt: what `Retry-After` asks for (seconds or an HTTP
/// date), else exponential backoff from `base`; never more than `cap`. No jitter: one healer
/// makes one request at a time, and tests can check the exact delays.
enum LLMRetryDelay {
    static func seconds(attempt: Int, retryAfter: String?, base: Double, cap: Double, now: Date = Date()) -> Double {
        if let asked = retryAfter.flatMap({ parse($0, now: now) }) { return min(max(asked, 0), cap) }
        let exponent = Double(min(max(attempt - 1, 0), 30))
        return min(base * pow(2, exponent), cap)
    }

    /// `Retry-After: 7` or `Retry-After: Wed, 21 Oct 2015 07:28:00 GMT`, as seconds from `now`.
    static func parse(_ value: String, now: Date) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds.isFinite { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text).map { $0.timeIntervalSince(now) }
    }
}
