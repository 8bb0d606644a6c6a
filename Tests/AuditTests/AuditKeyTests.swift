import Audit
import Digest
import Support
import Testing

/// The key of a keyed chain: read back as written, refused when short or not hex, and never shown.
@Suite("Audit key")
struct AuditKeyTests {
    @Test("a key file's text reads back as the same key; the id and links depend on the key")
    func roundTrip() throws {
        let key = try AuditKey.generate()
        let again = try AuditKey(hex: "  " + key.fileText.uppercased() + "\n")
        #expect(key.fileText.count == 65 && again.id == key.id && key.id.count == 16)
        #expect(
            key.link(previous: AuditLog.genesis, line: Array("{}".utf8)) == again.link(previous: AuditLog.genesis, line: Array("{}".utf8)))
        let other = try AuditKey.generate()
        #expect(other.id != key.id)
        #expect(
            other.link(previous: AuditLog.genesis, line: Array("{}".utf8)) != key.link(previous: AuditLog.genesis, line: Array("{}".utf8)))
        #expect("\(key)" == "audit key \(key.id)")
    }

    @Test("the link is HMAC-SHA-256 of the previous link followed by the line")
    func linkDefinition() throws {
        let bytes = [UInt8](repeating: 7, count: 32)
        let key = try AuditKey(bytes: bytes)
        #expect(key.link(previous: "ab", line: Array("cd".utf8)) == HMACSHA256.hex(Array("abcd".utf8), key: bytes))
    }

    @Test(
        "short keys and text that is not one run of hex digits are refused",
        arguments: [
            (String(repeating: "ab", count: 31), "an audit key needs at least 32 bytes, not 31"),
            (String(repeating: "a", count: 65), "not an audit key: one line of hex digits (openssl rand -hex 32)"),
            (String(repeating: "zz", count: 32), "not an audit key: one line of hex digits (openssl rand -hex 32)"),
            (String(repeating: "ab", count: 32) + "\nab", "not an audit key: one line of hex digits (openssl rand -hex 32)"),
        ])
    func refused(text: String, message: String) {
        #expect(throws: SentinelError(.invalidInput, message)) { try AuditKey(hex: text) }
    }
}
