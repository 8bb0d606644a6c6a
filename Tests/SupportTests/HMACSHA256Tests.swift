import Digest
import Testing

@Suite struct HMACSHA256Tests {
    /// RFC 4231 test cases 1, 2 and 6 (a key longer than SHA-256's block is hashed first).
    @Test(arguments: [
        ([UInt8](repeating: 0x0B, count: 20), "Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (
            [UInt8](repeating: 0xAA, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
    ])
    func rfc4231(key: [UInt8], message: String, tag: String) {
        #expect(HMACSHA256.hex(Array(message.utf8), key: key) == tag)
        #expect(HMACSHA256.tag(Array(message.utf8), key: key).count == HMACSHA256.tagSize)
    }

    @Test("an empty message has a tag, and another key gives another tag")
    func emptyMessageAndKeyDependence() {
        let key = [UInt8](repeating: 1, count: 32)
        #expect(HMACSHA256.hex([UInt8](), key: key) != HMACSHA256.hex([UInt8](), key: [UInt8](repeating: 2, count: 32)))
    }

    @Test("random bytes: the count asked for, and two draws differ")
    func secureRandom() throws {
        let first = try SecureRandom.bytes(32)
        let second = try SecureRandom.bytes(32)
        #expect(first.count == 32 && first != second)
        #expect(try SecureRandom.bytes(0).isEmpty)
    }
}
