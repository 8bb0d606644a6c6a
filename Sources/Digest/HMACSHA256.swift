import CCrypto
import Support

/// HMAC-SHA-256 (RFC 2104, FIPS 198-1) computed by libcrypto's one-shot `HMAC`: a tag only the
/// holder of the key can make, where SHA-256 alone lets anyone recompute a chain.
public enum HMACSHA256 {
    /// Length of a tag in bytes.
    public static let tagSize = 32

    /// The tag of `message` under `key`.
    public static func tag(_ message: some Collection<UInt8>, key: [UInt8]) -> [UInt8] {
        let bytes = Array(message)
        var tag = [UInt8](repeating: 0, count: tagSize)
        var size: UInt32 = 0
        // An empty array may have no address; libcrypto reads nothing of a zero-length buffer.
        let placeholder: [UInt8] = [0]
        let made = key.withUnsafeBufferPointer { keyBuffer in
            bytes.withUnsafeBufferPointer { messageBuffer in
                placeholder.withUnsafeBufferPointer { empty in
                    HMAC(
                        EVP_sha256(), keyBuffer.baseAddress ?? UnsafePointer(empty.baseAddress), Int32(keyBuffer.count),
                        messageBuffer.baseAddress ?? empty.baseAddress, messageBuffer.count, &tag, &size)
                }
            }
        }
        // As for SHA-256: a failure is memory running out or a broken library, not an input error.
        precondition(made != nil && size == UInt32(tagSize), "HMAC failed")
        return tag
    }

    /// The tag of `message` under `key` as 64 lowercase hex digits.
    public static func hex(_ message: some Collection<UInt8>, key: [UInt8]) -> String {
        Hex.lowercase(tag(message, key: key))
    }
}
