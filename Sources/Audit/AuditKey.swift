import Digest
import Foundation
import Support

/// The secret that links a keyed audit chain: each line's link is HMAC-SHA-256 under it of the
/// previous link followed by the line itself, so whoever can write where the lines are stored (a
/// shared database) but does not hold the key can neither edit a line nor chain new ones onto an
/// edit. Keyed lines name the key by `id` (a tag of a fixed text, which says nothing of the key),
/// so a verifier given another key says so instead of reporting every line as edited.
public struct AuditKey: Sendable, CustomStringConvertible {
    private let bytes: [UInt8]
    /// 16 hex digits naming the key in each line it links (`"key"`).
    public let id: String

    /// The fewest bytes a key holds: HMAC-SHA-256's own output size.
    public static let minimumBytes = 32

    /// A key of `bytes`; throws `SentinelError(.invalidInput)` when there are fewer than `minimumBytes`.
    public init(bytes: [UInt8]) throws {
        guard bytes.count >= Self.minimumBytes else {
            throw SentinelError(.invalidInput, "an audit key needs at least \(Self.minimumBytes) bytes, not \(bytes.count)")
        }
        self.bytes = bytes
        id = String(HMACSHA256.hex(Array("sentinel audit key id".utf8), key: bytes).prefix(16))
    }

    /// The key written as `fileText` wrote it: hex digits (at least 64), surrounding white space ignored.
    public init(hex text: String) throws {
        let digits = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard let bytes = Hex.decode(digits) else {
            throw SentinelError(.invalidInput, "not an audit key: one line of hex digits (openssl rand -hex 32)")
        }
        try self.init(bytes: bytes)
    }

    /// A new random key of `minimumBytes` bytes.
    public static func generate() throws -> AuditKey {
        try AuditKey(bytes: SecureRandom.bytes(minimumBytes))
    }

    /// The key as a key file holds it: lowercase hex and a newline.
    public var fileText: String { Hex.lowercase(bytes) + "\n" }

    /// The link of `line`, whose `prev` is `previous` (hex): HMAC-SHA-256(key, previous ‖ line), hex.
    public func link(previous: String, line: some Collection<UInt8>) -> String {
        HMACSHA256.hex(Array(previous.utf8) + Array(line), key: bytes)
    }

    /// A name only holders of the key can compute for `text` used as `purpose`: HMAC-SHA-256(key,
    /// NUL ‖ purpose ‖ NUL ‖ text), hex. A link's input begins with a hex digit, never NUL, so no
    /// name is ever a link. The fleet keys its heal locks with it (`HealLock`): a database login
    /// without the key cannot take a lock that a worker will want.
    public func derivedName(_ purpose: String, _ text: String) -> String {
        HMACSHA256.hex([0] + Array(purpose.utf8) + [0] + Array(text.utf8), key: bytes)
    }

    /// Names the key by its id, never its bytes.
    public var description: String { "audit key \(id)" }
}
