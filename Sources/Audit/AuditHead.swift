import Digest
import Foundation
import Support

/// Where an audit log ends: the sequence number and SHA-256 of its last line.
///
/// A hash chain proves the lines agree with each other, not that the last ones are still there
/// or that the chain was not recomputed from scratch. So every append also writes the head to an
/// anchor beside the log (`audit.jsonl.head`, through the one output primitive), `verify` checks
/// the log against it, and the operator can record a head out of band (`audit verify` prints it)
/// and check a later log against that (`--expect-head`).
public struct AuditHead: Sendable, Hashable, CustomStringConvertible {
    /// The last line's `seq`.
    public var sequence: Int
    /// The last line's link (hex): the SHA-256 of the line without its newline, or in a keyed
    /// chain the key's HMAC of it (`AuditKey.link`).
    public var hash: String

    /// The anchor's name: the log's path with this suffix.
    public static let anchorSuffix = ".head"

    /// A head; see the properties.
    public init(sequence: Int, hash: String) {
        self.sequence = sequence
        self.hash = hash
    }

    /// Parses `SEQ:SHA256` (what `description` prints); nil when it is not one.
    public init?(parsing text: String) {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":")
        guard parts.count == 2, let sequence = Int(parts[0]), sequence >= 1, parts[1].count == 64,
            parts[1].allSatisfy({ $0.isHexDigit && !$0.isUppercase })
        else { return nil }
        self.init(sequence: sequence, hash: String(parts[1]))
    }

    /// `SEQ:SHA256`.
    public var description: String { "\(sequence):\(hash)" }

    /// The anchor of the log at `log`, or nil when there is none. Throws `.invalidInput` when it
    /// exists but is not a head.
    static func read(anchorOf log: String) throws -> AuditHead? {
        let path = log + anchorSuffix
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data = try BoundedFile.read(path, limit: 4096, followLinks: false)
        guard let head = AuditHead(parsing: String(decoding: data, as: UTF8.self)) else {
            throw SentinelError(.invalidInput, "\(path): not an audit head (SEQ:SHA256)")
        }
        return head
    }

    /// Writes this head as the anchor of the log at `log`.
    func write(anchorOf log: String) throws {
        try PreparedOutputFile(path: log + Self.anchorSuffix).write(description + "\n", mode: 0o600)
    }
}
