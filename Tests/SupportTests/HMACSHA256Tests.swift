import Digest
import Testing

@Suite struct HMACSHA256Tests {
    /// RFC 4231 test cases 1, 2 and 6 (a key longer than a block is hashed first), and an empty
    /// message under a one-byte key (`openssl dgst -sha256 -mac HMAC`).
    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), "Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (
            [UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        ([0], "", "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"),
    ])
    func rfc4231(key: [UInt8], message: String, code: String) {
        #expect(SHA256.hexString(HMACSHA256.code(for: Array(message.utf8), key: key)) == code)
        #expect(HMACSHA256.hex(Array(message.utf8), key: key) == code)
    }

    @Test("a code is valid for its message and key only; a shorter or longer one is not")
    func validity() {
        let key = [UInt8](repeating: 7, count: 32)
        let message = Array("remembered fix".utf8)
        let code = HMACSHA256.code(for: message, key: key)
        #expect(HMACSHA256.isValid(code, for: message, key: key))
        #expect(!HMACSHA256.isValid(code, for: Array("remembered fix!".utf8), key: key))
        #expect(!HMACSHA256.isValid(code, for: message, key: [UInt8](repeating: 8, count: 32)))
        var flipped = code
        flipped[31] ^= 1
        #expect(!HMACSHA256.isValid(flipped, for: message, key: key))
        #expect(!HMACSHA256.isValid(code.dropLast(), for: message, key: key))
        #expect(!HMACSHA256.isValid(code + [0], for: message, key: key))
        #expect(!HMACSHA256.isValid([], for: message, key: key))
    }

    @Test("random bytes: as many as asked, and two draws differ")
    func secureRandom() throws {
        let first = try SecureRandom.bytes(32)
        #expect(first.count == 32)
        #expect(try SecureRandom.bytes(32) != first)
        #expect(try SecureRandom.bytes(0).isEmpty)
    }
}
