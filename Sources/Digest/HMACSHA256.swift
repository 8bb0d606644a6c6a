import CCrypto
import Support

/// HMAC-SHA256 (RFC 2104) computed by libcrypto, and its check in constant time: what
/// authenticates records that pass through a store others may write (shared heal memory).
public enum HMACSHA256 {
    /// Length of a code in bytes.
    public static let codeSize = 32

    /// The code of `message` under `key`.
    public static func code(for message: some Collection<UInt8>, key: some Collection<UInt8>) -> [UInt8] {
        // One byte past the end: an empty key or message still has an address (libcrypto reads
        // none of it when the count is 0).
        let key = Array(key) + [0]
        let message = Array(message) + [0]
        var code = [UInt8](repeating: 0, count: codeSize)
        var size: UInt32 = 0
        let produced = HMAC(EVP_sha256(), key, Int32(key.count - 1), message, message.count - 1, &code, &size)
        // Fails only when memory runs out or the library is broken: no input makes it fail.
        precondition(produced != nil && size == UInt32(codeSize), "HMAC failed")
        return code
    }

    /// Whether `code` is the code of `message` under `key`, compared in constant time
    /// (`CRYPTO_memcmp`): how long a wrong code takes says nothing about how much of it was right.
    public static func isValid(_ code: some Collection<UInt8>, for message: some Collection<UInt8>, key: some Collection<UInt8>)
        -> Bool
    {
        let expected = self.code(for: message, key: key)
        let given = Array(code)
        guard given.count == expected.count else { return false }
        return CRYPTO_memcmp(given, expected, expected.count) == 0
    }

    /// The code of `message` under `key` as 64 lowercase hex digits (the fleet audit chain's links).
    public static func hex(_ message: some Collection<UInt8>, key: some Collection<UInt8>) -> String {
        Hex.lowercase(code(for: message, key: key))
    }
}
