import CCrypto
import Support

/// SHA-256 (FIPS 180-4) computed by libcrypto (OpenSSL's EVP interface): fingerprints and the
/// audit chain rest on the implementation the rest of the system already trusts and tunes.
///
/// One-shot: `SHA256.hash(bytes)` / `SHA256.hex(bytes)`. Incremental:
/// ```
/// var hasher = SHA256()
/// hasher.update(chunk1); hasher.update(chunk2)
/// let digest = hasher.finalize()
/// ```
/// A hasher is a value: a copy taken mid-message goes on independently of the original.
public struct SHA256: Sendable {
    /// Length of a digest in bytes.
    public static let digestSize = 32
    /// Length of a block in bytes.
    public static let blockSize = 64

    private var context = DigestContext()

    /// A hasher with no input yet.
    public init() {}

    /// Feeds `bytes` into the hash.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(UnsafeRawBufferPointer(buffer))
        }
        if handled == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// Feeds the UTF-8 bytes of `text` into the hash.
    public mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Feeds raw memory into the hash.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        makeContextUnique()
        context.update(base, count: buffer.count)
    }

    /// Returns the 32-byte digest of everything fed so far. The hasher should not be reused
    /// (if it is, it starts a new message).
    public mutating func finalize() -> [UInt8] {
        makeContextUnique()
        return context.finalize()
    }

    /// Copy-on-write: libcrypto's context is one mutable C object, shared by copies until one changes.
    private mutating func makeContextUnique() {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
    }

    /// The digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let digest = bytes.withContiguousStorageIfAvailable { DigestContext.oneShot(UnsafeRawBufferPointer($0)) }
        return digest ?? Array(bytes).withUnsafeBytes { DigestContext.oneShot($0) }
    }

    /// The digest of the UTF-8 bytes of `text`.
    public static func hash(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { DigestContext.oneShot(UnsafeRawBufferPointer($0)) }
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        hexString(hash(bytes))
    }

    /// The digest of the UTF-8 bytes of `text` as 64 lowercase hex digits.
    public static func hex(_ text: String) -> String {
        hexString(hash(text))
    }

    /// Lowercase hex of any bytes (e.g. a digest from `finalize()`).
    public static func hexString(_ bytes: some Sequence<UInt8>) -> String {
        Hex.lowercase(bytes)
    }
}
