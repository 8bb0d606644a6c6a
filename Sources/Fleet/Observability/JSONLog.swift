import Foundation
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How much a log line matters.
public enum LogLevel: String, Sendable {
    /// Normal operation: a job claimed, a run finished.
    case info
    /// Something went wrong but was handled: a retry, a lease taken over.
    case warning
    /// Something failed: a job given up, a store unreachable.
    case error
}

/// A log field's value, typed so numbers stay numbers in the JSON.
public enum LogValue: Sendable, Hashable {
    /// Text; redacted before it is written.
    case string(String)
    /// A whole number.
    case int(Int64)
    /// A number; written as `null` when not finite (JSON has no NaN or infinity).
    case double(Double)
    /// A flag.
    case bool(Bool)
}

/// One named field of a log line, e.g. `LogField("job", .string(id))`.
public struct LogField: Sendable, Hashable {
    /// The key; `ts`, `level` and `event` are the line's own.
    public let key: String
    /// The value.
    public let value: LogValue

    /// The field `key` with `value`.
    public init(_ key: String, _ value: LogValue) {
        self.key = key
        self.value = value
    }
}

/// The fleet's structured log: one JSON object per line, `{"ts":…,"level":…,"event":…,…fields}`,
/// to a descriptor (standard error by default) or, for tests, to a closure. Every string in a
/// line goes through the redactor first, so a credential quoted by a job's output never reaches
/// the log. Lines are written whole, under a lock, so threads logging at once never interleave.
public struct JSONLog: Sendable {
    private let sink: @Sendable (String) -> Void
    private let redactor: Redactor
    private let clock: @Sendable () -> Date

    /// Lines written to `fd` (standard error by default), strings redacted by `redactor`, stamped with `clock`.
    public init(fd: Int32 = 2, redactor: Redactor = .process, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.init(redactor: redactor, clock: clock) { line in
            let bytes = Array(line.utf8)
            // One lock for every descriptor log in the process: two logs on standard error must
            // not interleave either. A failed write is dropped: logging must not fail the job.
            Self.descriptorLock.withLock { _ in _ = bytes.withUnsafeBytes { writeAll(fd, $0) } }
        }
    }

    /// Lines handed to `sink` (each ending in a newline), e.g. collected by a test.
    public init(
        redactor: Redactor = .process, clock: @escaping @Sendable () -> Date = { Date() }, sink: @escaping @Sendable (String) -> Void
    ) {
        let lock = Mutex<Void>(())
        self.sink = { line in lock.withLock { _ in sink(line) } }
        self.redactor = redactor
        self.clock = clock
    }

    private static let descriptorLock = Mutex<Void>(())

    /// Writes an `info` line for `event` (e.g. `job.claimed`).
    public func info(_ event: String, _ fields: [LogField] = []) {
        log(.info, event, fields)
    }

    /// Writes a `warning` line for `event`.
    public func warning(_ event: String, _ fields: [LogField] = []) {
        log(.warning, event, fields)
    }

    /// Writes an `error` line for `event`.
    public func error(_ event: String, _ fields: [LogField] = []) {
        log(.error, event, fields)
    }

    /// Writes one line: `ts`, `level`, `event`, then `fields` in order.
    public func log(_ level: LogLevel, _ event: String, _ fields: [LogField] = []) {
        sink(line(level, event, fields))
    }

    /// The line `log` writes, newline included.
    func line(_ level: LogLevel, _ event: String, _ fields: [LogField]) -> String {
        var text = "{\"ts\":\"\(Self.timestamp(clock()))\",\"level\":\"\(level.rawValue)\",\"event\":\(quoted(event))"
        for field in fields {
            // Not a precondition: a clash is a bug, but a log line must never crash a worker.
            let key = ["ts", "level", "event"].contains(field.key) ? "field." + field.key : field.key
            text += ",\(quoted(key)):"
            switch field.value {
            case .string(let value): text += quoted(value)
            case .int(let value): text += String(value)
            case .double(let value): text += value.isFinite ? "\(value)" : "null"
            case .bool(let value): text += value ? "true" : "false"
            }
        }
        return text + "}\n"
    }

    /// `text` redacted, escaped and in double quotes.
    private func quoted(_ text: String) -> String {
        "\"" + Self.escape(redactor.redact(text)) + "\""
    }

    /// `text` escaped for a JSON string: quote and backslash, control characters as `\u00XX`, and
    /// U+2028/U+2029 too (JavaScript reads them as line ends).
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0..<0x20, 0x7F, 0x2028, 0x2029:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `date` as RFC 3339 in UTC with milliseconds, e.g. `2025-01-31T09:05:07.042Z`.
    static func timestamp(_ date: Date) -> String { UTCTimestamp.string(date) }
}
