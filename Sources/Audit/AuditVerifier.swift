import Foundation
import Support

/// Checks an audit log's chain from the first line: each line is a JSON object whose `seq` is its
/// line number and whose `prev` is the SHA-256 of the line before it (64 zeros for the first),
/// and the file ends with a newline. The first line that breaks any of this is named.
public enum AuditVerifier {
    /// The first line that breaks the chain.
    public struct Break: Sendable, Hashable {
        /// 1-based line number.
        public var line: Int
        /// What is wrong with it.
        public var reason: String
    }

    /// The outcome of a check.
    public struct Result: Sendable, Hashable {
        /// Lines that chained correctly before the first problem (all of them when intact).
        public var validLines: Int
        /// The first broken line, or nil when the log is intact.
        public var broken: Break?

        /// True when nothing is broken.
        public var intact: Bool { broken == nil }
    }

    /// Verifies the log at `path` (read whole; a missing file is `SentinelError(.invalidInput)`).
    public static func verify(path: String) throws -> Result {
        verify(Array(try BoundedFile.read(path, limit: 1 << 30, followLinks: false)))
    }

    /// Verifies log `bytes`.
    public static func verify(_ bytes: [UInt8]) -> Result {
        var previous = AuditLog.genesis
        var number = 0
        var start = 0
        while start < bytes.count {
            number += 1
            guard let end = bytes[start...].firstIndex(of: 0x0A) else {
                return Result(
                    validLines: number - 1,
                    broken: Break(line: number, reason: "incomplete last line (no newline): truncated by a crash or an edit"))
            }
            let line = Array(bytes[start..<end])
            start = end + 1
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                return Result(validLines: number - 1, broken: Break(line: number, reason: "not a JSON object"))
            }
            guard object["prev"] as? String == previous else {
                return Result(
                    validLines: number - 1,
                    broken: Break(
                        line: number, reason: "prev does not match the SHA-256 of line \(number - 1) (edited, deleted or reordered)"))
            }
            guard object["seq"] as? Int == number else {
                return Result(
                    validLines: number - 1,
                    broken: Break(line: number, reason: "seq is \(object["seq"].map { "\($0)" } ?? "missing"), expected \(number)"))
            }
            previous = SHA256.hex(line)
        }
        return Result(validLines: number, broken: nil)
    }
}
