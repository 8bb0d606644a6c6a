import CCrypto

/// Owns one libcrypto `EVP_MD_CTX` set up for SHA-256. Only `SHA256` uses it, and only after
/// making it unique (copy-on-write), so no two threads ever touch one context.
final class DigestContext: @unchecked Sendable {
    private let context: OpaquePointer

    /// SHA-256 fetched once: OpenSSL 3 otherwise looks the algorithm up on every init. An `EVP_MD`
    /// is immutable once fetched and safe to share between threads.
    private nonisolated(unsafe) static let algorithm: OpaquePointer = EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256()

    init() {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        self.context = context
        Self.check(EVP_DigestInit_ex(context, Self.algorithm, nil), "EVP_DigestInit_ex")
    }

    private init(copying other: DigestContext) {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        self.context = context
        Self.check(EVP_MD_CTX_copy_ex(context, other.context), "EVP_MD_CTX_copy_ex")
    }

    deinit { EVP_MD_CTX_free(context) }

    /// An independent context in the same state.
    func copy() -> DigestContext { DigestContext(copying: self) }

    func update(_ bytes: UnsafeRawPointer, count: Int) {
        Self.check(EVP_DigestUpdate(context, bytes, count), "EVP_DigestUpdate")
    }

    /// The digest; the context is set up again for a new message.
    func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: SHA256.digestSize)
        var size: UInt32 = 0
        Self.check(EVP_DigestFinal_ex(context, &digest, &size), "EVP_DigestFinal_ex")
        Self.check(EVP_DigestInit_ex(context, Self.algorithm, nil), "EVP_DigestInit_ex")
        return digest
    }

    /// The digest of one buffer, without keeping a context.
    static func oneShot(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: SHA256.digestSize)
        var size: UInt32 = 0
        // An empty buffer may have no address: libcrypto reads nothing when the count is 0.
        check(EVP_Digest(bytes.baseAddress, bytes.count, &digest, &size, algorithm, nil), "EVP_Digest")
        return digest
    }

    /// libcrypto's SHA-256 fails only when memory runs out or the library is broken: neither is
    /// an input error a caller could handle, and the public API stays non-throwing.
    private static func check(_ status: Int32, _ call: StaticString) {
        precondition(status == 1, "\(call) failed")
    }
}
