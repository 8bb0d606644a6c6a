import Digest
import Foundation
import Support

extension SharedAttempt {
    /// What the MAC covers: a version tag, then every field but `mac` in a fixed order, each as
    /// absent (0) or present (1, its UTF-8 length as 8 bytes big-endian, its bytes). Lengths make
    /// it unambiguous: no two different attempts encode alike, whatever their text holds.
    var authenticatedBytes: [UInt8] {
        var bytes = Array("sentinel shared heal memory v1\0".utf8)
        let fields: [String?] = [
            fingerprint, kind, signalMessage, exceptionType, topFrame, ruleId, package, actor, strategy, description, patchHash,
            patch, verdict.rawValue, lesson, created, changeKey, repository,
        ]
        for field in fields {
            guard let field else {
                bytes.append(0)
                continue
            }
            let text = Array(field.utf8)
            bytes.append(1)
            withUnsafeBytes(of: UInt64(text.count).bigEndian) { bytes += $0 }
            bytes += text
        }
        return bytes
    }

    /// This attempt with its MAC under `key`.
    public func signed(with key: MemoryKey) -> SharedAttempt {
        var signed = self
        signed.mac = Hex.lowercase(key.code(for: authenticatedBytes))
        return signed
    }

    /// Whether `mac` is this attempt's MAC under `key` (compared in constant time).
    public func isAuthentic(under key: MemoryKey) -> Bool {
        guard let mac, let code = MemoryKey.bytes(ofHex: mac) else { return false }
        return key.isValid(code, for: authenticatedBytes)
    }
}

/// What taking in a batch of shared records came to.
public struct SharedImport: Sendable, Hashable {
    /// Records new to this memory, added.
    public var added: Int
    /// Records dropped unused: not a record, no MAC, or one this worker's key does not verify.
    public var dropped: Int

    /// `added` taken in, `dropped` not.
    public init(added: Int, dropped: Int) {
        self.added = added
        self.dropped = dropped
    }
}

extension HealMemory {
    /// Takes in shared records (the JSON of ``SharedAttempt``s, as a fleet database holds them)
    /// whose MAC `key` verifies; the others are counted as dropped and never stored or used.
    public func importShared(_ records: [String], key: MemoryKey) throws -> SharedImport {
        let decoder = JSONDecoder()
        let authentic = records.compactMap { text in
            (try? decoder.decode(SharedAttempt.self, from: Data(text.utf8))).flatMap { $0.isAuthentic(under: key) ? $0 : nil }
        }
        return SharedImport(added: try importAttempts(authentic), dropped: records.count - authentic.count)
    }
}
