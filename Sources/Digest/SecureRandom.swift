import CCrypto
import Support

/// Bytes from libcrypto's CSPRNG (`RAND_bytes`, seeded by the kernel's `getrandom`): for keys.
public enum SecureRandom {
    /// `count` random bytes. Throws `SentinelError(.io)` when the generator cannot be seeded.
    public static func bytes(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count == 0 || RAND_bytes(&bytes, Int32(count)) == 1 else {
            throw SentinelError(.io, "RAND_bytes: the random generator failed")
        }
        return bytes
    }
}
