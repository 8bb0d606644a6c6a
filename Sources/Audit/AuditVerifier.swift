import Digest
import Foundation
import Support

/// Checks an audit log's chain from the first line: each line is a JSON object whose `seq` is its
/// line number and whose `prev` is the link of the line before it (64 zeros for the first), and
/// the file ends with a newline; then that the log ends exactly at its anchored head
/// (`AuditHead`) and holds every head recorded out of band. A line's link is its SHA-256, or in a
/// keyed chain (given its `AuditKey`) the HMAC the key makes of it. The first line that breaks any
/// of this is named.
public enum AuditVerifier {
    /// The first line that breaks the chain.
    public struct Break: Sendable, Hashable {
        /// 1-based line number.
        public var line: Int
        /// What is wrong with it.
        public var reason: String
        /// When the line is linked with another key than the one checked: that key's id.
        public var otherKey: String? = nil
        /// With `otherKey`: how many lines from this one to the end name that key.
        public var otherKeyLines = 0
        /// With `otherKey`: the number of the last line naming it.
        public var otherKeyLastLine = 0

        /// A break at `line` for `reason`.
        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// The outcome of a check.
    public struct Result: Sendable, Hashable {
        /// Lines that chained correctly before the first problem (all of them when intact).
        public var validLines: Int
        /// The first broken line, or nil when the log is intact.
        public var broken: Break?

        /// The log's last line as a head (nil when the log is empty or broken).
        public var head: AuditHead?
        /// Whether an anchor was found and checked (a log written before anchors has none).
        public var anchored = false
        /// In a keyed chain, how many lines at its start were written before it was keyed: the
        /// first keyed line vouches for them (its `prev` is the last one's SHA-256).
        public var unkeyedLines = 0
        /// The hashes of the lines the checkpoints name, by line number.
        var checkpointHashes: [Int: String] = [:]

        /// True when nothing is broken.
        public var intact: Bool { broken == nil }
    }

    /// Verifies the log at `path` (read whole; a missing file is `SentinelError(.invalidInput)`)
    /// against its anchor, and against `expected`, a head recorded earlier, when given.
    public static func verify(path: String, expecting expected: AuditHead? = nil) throws -> Result {
        let anchor = try AuditHead.read(anchorOf: path)
        return verify(
            Array(try BoundedFile.read(path, limit: 1 << 30, followLinks: false)), anchor: anchor,
            anchorName: "the anchor (\(path)\(AuditHead.anchorSuffix))", expecting: expected)
    }

    /// Verifies log `bytes` (lines, each ending in a newline) against `anchor`, the head stored
    /// apart from them (named `anchorName` in a break's reason), and `expected` when given.
    public static func verify(_ bytes: [UInt8], anchor: AuditHead?, anchorName: String, expecting expected: AuditHead? = nil)
        -> Result
    {
        verify(
            bytes, key: nil, anchor: anchor, anchorName: anchorName,
            heads: expected.map { [Checkpoint(head: $0, name: "the recorded head \($0)")] } ?? [])
    }

    /// A head kept apart from the lines (a head file, one recorded by hand) and its name in a
    /// break's reason. The log must still hold its line, with its link.
    public struct Checkpoint: Sendable, Hashable {
        /// The head.
        public var head: AuditHead
        /// What it is, for messages: `the head file /var/lib/sentinel/...`.
        public var name: String

        /// A checkpoint; see the properties.
        public init(head: AuditHead, name: String) {
            self.head = head
            self.name = name
        }
    }

    /// Verifies log `bytes` linked with `key` (SHA-256 alone when nil) against `anchor`, the head
    /// stored with them, which the log must end at, and `heads`, which it must each still hold.
    public static func verify(_ bytes: [UInt8], key: AuditKey?, anchor: AuditHead?, anchorName: String, heads: [Checkpoint]) -> Result {
        var result = verify(bytes, checkpoints: [anchor].compactMap { $0 } + heads.map(\.head), key: key)
        result.anchored = anchor != nil
        guard result.intact else { return result }
        if let anchor, let problem = problem(result, checkpoint: anchor, what: anchorName) {
            return problem
        }
        if let anchor, let head = result.head, head.sequence > anchor.sequence {
            return broken(
                result, line: anchor.sequence + 1,
                "added after the anchored head \(anchor) (an append cut short before its anchor, or lines added by hand)")
        }
        for held in heads {
            if let problem = problem(result, checkpoint: held.head, what: held.name) { return problem }
        }
        return result
    }

    private static func broken(_ result: Result, line: Int, _ reason: String) -> Result {
        var copy = result
        copy.broken = Break(line: line, reason: reason)
        copy.validLines = min(result.validLines, line - 1)
        copy.head = nil
        return copy
    }

    /// The log must reach `checkpoint` and hold exactly its line there.
    private static func problem(_ result: Result, checkpoint: AuditHead, what: String) -> Result? {
        if result.validLines < checkpoint.sequence {
            return broken(
                result, line: result.validLines + 1,
                "truncated: \(what) names \(checkpoint.sequence) entries, the log holds \(result.validLines)")
        }
        if result.checkpointHashes[checkpoint.sequence] != checkpoint.hash {
            return broken(result, line: checkpoint.sequence, "not the line \(what) names: the log was rewritten")
        }
        return nil
    }

    /// Verifies log `bytes`.
    public static func verify(_ bytes: [UInt8]) -> Result { verify(bytes, checkpoints: []) }

    /// Verifies log `bytes`, keeping the links of the lines `checkpoints` name. With `key`, lines
    /// naming it are linked by its HMAC; lines naming none (SHA-256) only before the first of them.
    static func verify(_ bytes: [UInt8], checkpoints: [AuditHead], key: AuditKey? = nil) -> Result {
        let wanted = Set(checkpoints.map(\.sequence))
        var hashes: [Int: String] = [:]
        var previous = AuditLog.genesis
        var number = 0
        var start = 0
        var unkeyed = 0
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
                        line: number,
                        reason:
                            "prev does not match the \(key == nil ? "SHA-256" : "link") of line \(number - 1) (edited, deleted or reordered)"
                    ))
            }
            guard object["seq"] as? Int == number else {
                return Result(
                    validLines: number - 1,
                    broken: Break(line: number, reason: "seq is \(object["seq"].map { "\($0)" } ?? "missing"), expected \(number)"))
            }
            switch link(of: line, object: object, previous: previous, key: key, keyedSoFar: number - 1 - unkeyed) {
            case .success(let link):
                if key != nil, object["key"] == nil { unkeyed += 1 }
                previous = link
            case .failure(let reason):
                var broken = Break(line: number, reason: reason.message)
                if let key, let other = object["key"] as? String, other != key.id {
                    // Which lines that key wrote, for the report: the rest of the log read for their `key` alone.
                    let later = Self.lines(naming: other, in: bytes, from: start, number: number + 1)
                    broken.otherKeyLines = later.count + 1
                    broken.otherKeyLastLine = max(number, later.last)
                    broken.otherKey = other
                }
                return Result(validLines: number - 1, broken: broken)
            }
            if wanted.contains(number) { hashes[number] = previous }
        }
        if key != nil, number > 0, unkeyed == number {
            return Result(
                validLines: 0,
                broken: Break(
                    line: 1,
                    reason:
                        "no entry is keyed: written before the chain was keyed (the next append vouches for them) or rewritten by someone without the key"
                ))
        }
        var result = Result(validLines: number, broken: nil)
        result.unkeyedLines = unkeyed
        result.head = number > 0 ? AuditHead(sequence: number, hash: previous) : nil
        result.checkpointHashes = hashes
        return result
    }

    /// How many lines of `bytes` from offset `start` (line `number`) on name key `id`, and the
    /// number of the last of them.
    private static func lines(naming id: String, in bytes: [UInt8], from start: Int, number: Int) -> (count: Int, last: Int) {
        var count = 0
        var last = 0
        var line = number
        var offset = start
        while offset < bytes.count {
            let end = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
            if let object = try? JSONSerialization.jsonObject(with: Data(bytes[offset..<end])) as? [String: Any],
                object["key"] as? String == id
            {
                count += 1
                last = line
            }
            line += 1
            offset = end + 1
        }
        return (count, last)
    }

    /// The link of `line` (its JSON `object`, its `prev` checked to be `previous`): SHA-256 without
    /// `key` or for a line written before the chain was keyed (only while no line so far was keyed),
    /// the key's HMAC for a line naming it; another key's line is refused.
    private static func link(of line: [UInt8], object: [String: Any], previous: String, key: AuditKey?, keyedSoFar: Int)
        -> Swift.Result<String, SentinelError>
    {
        guard let key else { return .success(SHA256.hex(line)) }
        switch object["key"] {
        case nil:
            guard keyedSoFar == 0 else {
                return .failure(SentinelError(.invalidInput, "not keyed, after keyed entries: added by someone without the key"))
            }
            return .success(SHA256.hex(line))
        case let id as String where id == key.id:
            return .success(key.link(previous: previous, line: line))
        case let id?:
            return .failure(
                SentinelError(
                    .invalidInput, "linked with another key (id \(id)), not this one (id \(key.id)): not the fleet's key, or forged"))
        }
    }
}
