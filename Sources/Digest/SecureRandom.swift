import CCrypto
import Support

/// Random bytes for keys, from libcrypto's generator (seeded and reseeded from the kernel's
/// `getrandom`), never from a generator a caller could seed.
public enum SecureRandom {
    /// `count` random bytes. Throws `SentinelError(.io)` when the generator has no entropy to give.
    public static func bytes(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count == 0 || RAND_bytes(&bytes, Int32(count)) == 1 else {
            throw SentinelError(.io, "RAND_bytes: libcrypto's generator gave no random bytes")
        }
        return bytes
    }
}
