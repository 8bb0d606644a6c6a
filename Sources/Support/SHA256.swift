/// SHA-256 (FIPS 180-4) in pure Swift, so fingerprints and the audit chain need no crypto
/// package (swift-crypto doubles the cold build here).
///
/// One-shot: `SHA256.hash(bytes)` / `SHA256.hex(bytes)`. Incremental:
/// ```
/// var hasher = SHA256()
/// hasher.update(chunk1); hasher.update(chunk2)
/// let digest = hasher.finalize()
/// ```
public struct SHA256: Sendable {
    /// Length of a digest in bytes.
    public static let digestSize = 32
    /// Length of a block in bytes.
    public static let blockSize = 64

    private var h0: UInt32 = 0x6a09_e667, h1: UInt32 = 0xbb67_ae85
    private var h2: UInt32 = 0x3c6e_f372, h3: UInt32 = 0xa54f_f53a
    private var h4: UInt32 = 0x510e_527f, h5: UInt32 = 0x9b05_688c
    private var h6: UInt32 = 0x1f83_d9ab, h7: UInt32 = 0x5be0_cd19
    /// Bytes of an incomplete block waiting for more input (always < 64).
    private var pending: [UInt8] = []
    /// Total message length in bytes so far.
    private var length: UInt64 = 0

    /// A hasher with no input yet.
    public init() {
        pending.reserveCapacity(SHA256.blockSize)
    }

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
        guard buffer.count > 0, let base = buffer.baseAddress else { return }
        length &+= UInt64(buffer.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(SHA256.blockSize - pending.count, buffer.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            offset = take
            guard pending.count == SHA256.blockSize else { return }
            let block = pending
            block.withUnsafeBytes { compress($0.baseAddress!) }
            pending.removeAll(keepingCapacity: true)
        }
        while buffer.count - offset >= SHA256.blockSize {
            compress(base + offset)
            offset += SHA256.blockSize
        }
        if offset < buffer.count {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: buffer.count - offset))
        }
    }

    /// Pads the message and returns the 32-byte digest. The hasher should not be reused.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % SHA256.blockSize != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        tail.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                compress(raw.baseAddress! + offset)
                offset += SHA256.blockSize
            }
        }
        pending.removeAll()
        var digest: [UInt8] = []
        digest.reserveCapacity(SHA256.digestSize)
        for word in [h0, h1, h2, h3, h4, h5, h6, h7] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// The digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of the UTF-8 bytes of `text`.
    public static func hash(_ text: String) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(text)
        return hasher.finalize()
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
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Compression

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// Processes one 64-byte block starting at `block`.
    private mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 {
                let p = block + i * 4
                w[i] =
                    UInt32(p.load(as: UInt8.self)) << 24
                    | UInt32(p.load(fromByteOffset: 1, as: UInt8.self)) << 16
                    | UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) << 8
                    | UInt32(p.load(fromByteOffset: 3, as: UInt8.self))
            }
            for i in 16..<64 {
                let x = w[i - 15]
                let y = w[i - 2]
                let s0 = SHA256.rotr(x, 7) ^ SHA256.rotr(x, 18) ^ (x >> 3)
                let s1 = SHA256.rotr(y, 17) ^ SHA256.rotr(y, 19) ^ (y >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var a = h0
            var b = h1
            var c = h2
            var d = h3
            var e = h4
            var f = h5
            var g = h6
            var h = h7
            SHA256.k.withUnsafeBufferPointer { k in
                for i in 0..<64 {
                    let s1 = SHA256.rotr(e, 6) ^ SHA256.rotr(e, 11) ^ SHA256.rotr(e, 25)
                    let ch = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ ch &+ k[i] &+ w[i]
                    let s0 = SHA256.rotr(a, 2) ^ SHA256.rotr(a, 13) ^ SHA256.rotr(a, 22)
                    let maj = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ maj
                    h = g
                    g = f
                    f = e
                    e = d &+ t1
                    d = c
                    c = b
                    b = a
                    a = t1 &+ t2
                }
            }
            h0 &+= a
            h1 &+= b
            h2 &+= c
            h3 &+= d
            h4 &+= e
            h5 &+= f
            h6 &+= g
            h7 &+= h
        }
    }
}
