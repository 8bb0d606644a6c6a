import Digest
import Foundation
import Support

extension SentinelError.Code {
    /// The key that authenticates shared heal memory is missing, malformed or not private (exit 2).
    public static let memoryKey = SentinelError.Code("memory-key", exitStatus: 2)
}

/// The key that authenticates shared heal memory: 32 bytes only workers hold (their state
/// directory's `memory.key`, or a file the operator names), never submitters, who may write
/// `fleet_memory` rows but so cannot make one a worker accepts. It never shows itself:
/// descriptions say `<redacted>`; `id` tells two keys apart without revealing either.
public struct MemoryKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Bytes in a key.
    public static let size = 32
    private let bytes: [UInt8]

    /// A key of exactly `size` bytes; otherwise `SentinelError(.memoryKey)`.
    public init(bytes: [UInt8]) throws {
        guard bytes.count == Self.size else {
            throw SentinelError(.memoryKey, "a memory key is \(Self.size) bytes, not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// A fresh random key.
    public static func random() throws -> MemoryKey { try MemoryKey(bytes: SecureRandom.bytes(size)) }

    /// The key as its file holds it: 64 lowercase hex digits and a newline.
    var fileText: String { Hex.lowercase(bytes) + "\n" }

    /// The key in a file's text: 64 hex digits, surrounding white space ignored; nil otherwise.
    static func parse(_ text: String) -> MemoryKey? {
        bytes(ofHex: text.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { try? MemoryKey(bytes: $0) }
    }

    /// The bytes `text` spells in hex digits (either case), two per byte; nil for anything else.
    static func bytes(ofHex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// 16 hex digits naming this key (a MAC of a fixed text under it): workers that share a
    /// fleet database show the same id when they hold the same key.
    public var id: String { String(Hex.lowercase(code(for: Array("sentinel memory key id".utf8))).prefix(16)) }

    /// The HMAC-SHA256 of `message` under this key.
    public func code(for message: [UInt8]) -> [UInt8] { HMACSHA256.code(for: message, key: bytes) }

    /// Whether `code` is `message`'s HMAC-SHA256 under this key (compared in constant time).
    public func isValid(_ code: [UInt8], for message: [UInt8]) -> Bool { HMACSHA256.isValid(code, for: message, key: bytes) }

    /// Always `<redacted>`.
    public var description: String { "<redacted>" }
    /// Always `<redacted>`.
    public var debugDescription: String { "<redacted>" }
    /// No children: `dump` and debuggers see nothing inside.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
