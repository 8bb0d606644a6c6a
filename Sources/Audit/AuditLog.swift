#if canImport(Glibc)
    import Glibc
#endif
import Digest
import Foundation
import Support

/// One decision or event to record. `inputs` maps names to SHA-256 digests of what the decision
/// was made from (the candidate's patch, the policy file), so the log proves which inputs were
/// used without holding them.
public struct AuditEntry: Sendable, Hashable, Codable {
    /// `observation`, `decision`, `approval`, `denial`, `application`, `push`, `rate-limit`, ...
    public var event: String
    /// Who acted: `sentinel heal`, a user name, `controller`.
    public var actor: String
    /// The autonomy level in force (`observer`, `proposer`, `actor`), when one is.
    public var level: String?
    /// The policy rule that decided, when one did.
    public var rule: String?
    /// Name → SHA-256 hex of each input.
    public var inputs: [String: String]
    /// Free-form details (never secrets: known secrets are redacted before writing).
    public var details: [String: String]

    /// An entry; see the properties.
    public init(
        event: String, actor: String, level: String? = nil, rule: String? = nil, inputs: [String: String] = [:],
        details: [String: String] = [:]
    ) {
        self.event = event
        self.actor = actor
        self.level = level
        self.rule = rule
        self.inputs = inputs
        self.details = details
    }
}

/// An append-only JSON-lines log in which every line holds the SHA-256 of the line before it
/// (`prev`; the first holds 64 zeros) and its own sequence number, so that any edit, deletion,
/// reordering breaks the chain where it happened (`AuditVerifier`); the head each append anchors
/// beside the log (`AuditHead`) shows truncation and a recomputed chain. Appends take an
/// exclusive `flock` on the file (writers in other processes wait), refuse to extend a log whose
/// last line is incomplete, and are flushed with `fsync` before they return.
public struct AuditLog: Sendable {
    /// The log file.
    public let path: String
    /// Replaces every secret it knows by `<redacted>` wherever it would appear in an entry.
    public var redactor: Redactor

    /// The `prev` of the first line.
    public static let genesis = String(repeating: "0", count: 64)

    /// A log at `path`; `secrets` (and well-known token shapes) are never written.
    public init(path: String, secrets: [String] = []) {
        self.init(path: path, redactor: Redactor(secrets: secrets))
    }

    /// A log at `path` that writes every line through `redactor`.
    public init(path: String, redactor: Redactor) {
        self.path = path
        self.redactor = redactor
    }

    /// Appends `entry` at `date` and returns the line written (without its newline).
    @discardableResult
    public func append(_ entry: AuditEntry, at date: Date = Date()) throws -> String {
        let file = try AppendOnlyFile(path: path)
        let fd = file.fd
        guard case .success = retryingOnInterrupt({ flock(fd, LOCK_EX) }) else {
            throw SentinelError(.io, "\(path): cannot lock the audit log: \(Errno.current)", errno: .current)
        }
        let last = try Self.lastLine(fd: fd, path: path)
        var sequence = 1
        var previous = Self.genesis
        if let last {
            guard let data = last.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let number = object["seq"] as? Int
            else { throw SentinelError(.invalidInput, "\(path): the last line is not an audit entry; run sentinel audit verify") }
            sequence = number + 1
            previous = SHA256.hex(Array(last.utf8))
        }
        let line = redactor.redact(try Self.encode(entry, sequence: sequence, previous: previous, date: date))
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        try file.append(bytes)
        guard fsync(fd) == 0 else { throw SentinelError(.io, "\(path): fsync failed: \(Errno.current)", errno: .current) }
        // Still under the lock: the anchor always names the line just written.
        try AuditHead(sequence: sequence, hash: SHA256.hex(Array(line.utf8))).write(anchorOf: path)
        return line
    }

    /// The line `entry` becomes as number `sequence` after a line whose link is `previous`: the
    /// one format of every audit chain (this file, and the fleet's in its database). `key` is the
    /// id of the key a keyed chain links the line with (`AuditKey`); the file's lines have none.
    /// `chain` names the chain of a database holding several (the fleet's, one per writer), so
    /// that a line cannot be moved to another; the file's lines have none.
    public static func encode(
        _ entry: AuditEntry, sequence: Int, previous: String, date: Date, key: String? = nil, chain: String? = nil
    ) throws -> String {
        struct Line: Encodable {
            var seq: Int
            var time: String
            var entry: AuditEntry
            var prev: String
            var key: String?
            var chain: String?
            enum CodingKeys: String, CodingKey { case seq, time, event, actor, level, rule, inputs, details, prev, key, chain }
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(seq, forKey: .seq)
                try c.encode(time, forKey: .time)
                try c.encode(entry.event, forKey: .event)
                try c.encode(entry.actor, forKey: .actor)
                try c.encodeIfPresent(entry.level, forKey: .level)
                try c.encodeIfPresent(entry.rule, forKey: .rule)
                try c.encode(entry.inputs, forKey: .inputs)
                try c.encode(entry.details, forKey: .details)
                try c.encode(prev, forKey: .prev)
                try c.encodeIfPresent(key, forKey: .key)
                try c.encodeIfPresent(chain, forKey: .chain)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(
            Line(seq: sequence, time: UTCTimestamp.string(date), entry: entry, prev: previous, key: key, chain: chain))
        return String(decoding: data, as: UTF8.self)
    }

    /// The last line of the open log (nil when empty). A last line without its newline is a
    /// crash in the middle of an append: refused, for `audit verify` to report.
    static func lastLine(fd: Int32, path: String) throws -> String? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SentinelError(.io, "\(path): cannot stat: \(Errno.current)") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SentinelError(.invalidInput, "\(path): not a regular file") }
        let size = Int(info.st_size)
        guard size > 0 else { return nil }
        var window = 4096
        while true {
            let start = max(0, size - window)
            var buffer = [UInt8](repeating: 0, count: size - start)
            let read = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
            guard read == buffer.count else { throw SentinelError(.io, "\(path): cannot read: \(Errno.current)") }
            guard buffer.last == 0x0A else {
                throw SentinelError(
                    .invalidInput, "\(path): the last line is incomplete (a crash during an append?); run sentinel audit verify")
            }
            let body = buffer.dropLast()
            if let newline = body.lastIndex(of: 0x0A) {
                return String(decoding: body[(newline + 1)...], as: UTF8.self)
            }
            if start == 0 { return String(decoding: body, as: UTF8.self) }
            window *= 4
        }
    }
}
