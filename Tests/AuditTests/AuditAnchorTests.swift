import Audit
import Digest
import Foundation
import Support
import Testing

/// A hash chain alone cannot see its own end cut off or the whole chain recomputed: the head
/// (sequence number and SHA-256 of the last line) is anchored outside the log, and `verify`
/// checks the log against it.
@Suite("Audit log anchor")
struct AuditAnchorTests {
    typealias Scratch = AuditLogTests.Scratch

    @Test("deleting the last lines is detected")
    func truncation() throws {
        let scratch = try Scratch()
        try AuditLogTests.fill(scratch)
        try scratch.write(Array(try scratch.lines().prefix(3)))
        let result = try AuditVerifier.verify(path: scratch.log)
        #expect(!result.intact)
        #expect(result.broken?.reason.contains("truncated") == true, "\(String(describing: result.broken))")
    }

    @Test("emptying the log is detected")
    func emptied() throws {
        let scratch = try Scratch()
        try AuditLogTests.fill(scratch)
        try "".write(toFile: scratch.log, atomically: false, encoding: .utf8)
        #expect(try !AuditVerifier.verify(path: scratch.log).intact)
    }

    @Test("a rewrite with a recomputed chain is detected")
    func recomputedChain() throws {
        let scratch = try Scratch()
        try AuditLogTests.fill(scratch)
        // The forger rewrites every line's details and recomputes seq/prev so the chain holds.
        var previous = AuditLog.genesis
        var forged: [String] = []
        for line in try scratch.lines() {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            object["details"] = ["n": "forged"]
            object["prev"] = previous
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            let text = String(decoding: data, as: UTF8.self)
            forged.append(text)
            previous = SHA256.hex(Array(text.utf8))
        }
        try scratch.write(forged)
        let result = try AuditVerifier.verify(path: scratch.log)
        #expect(!result.intact)
        #expect(result.broken?.reason.contains("rewritten") == true, "\(String(describing: result.broken))")
    }

    @Test("an intact log matches its anchor, and verify reports the head")
    func intact() throws {
        let scratch = try Scratch()
        try AuditLogTests.fill(scratch)
        let result = try AuditVerifier.verify(path: scratch.log)
        #expect(result.intact)
        let last = try #require(try scratch.lines().last)
        #expect(result.head == AuditHead(sequence: 5, hash: SHA256.hex(Array(last.utf8))))
        #expect(result.anchored)
    }

    @Test("a head recorded out of band catches a rewrite of log and anchor together")
    func outOfBandHead() throws {
        let scratch = try Scratch()
        try AuditLogTests.fill(scratch, count: 2)
        let recorded = try #require(try AuditVerifier.verify(path: scratch.log).head)
        try AuditLogTests.fill(scratch, count: 1)
        #expect(try AuditVerifier.verify(path: scratch.log, expecting: recorded).intact, "a later head still contains it")
        // The whole directory rewritten: a fresh log and anchor of three other entries.
        try FileManager.default.removeItem(atPath: scratch.log)
        try FileManager.default.removeItem(atPath: scratch.log + AuditHead.anchorSuffix)
        try AuditLog(path: scratch.log).append(AuditEntry(event: "forged", actor: "x"))
        try AuditLog(path: scratch.log).append(AuditEntry(event: "forged", actor: "x"))
        try AuditLog(path: scratch.log).append(AuditEntry(event: "forged", actor: "x"))
        #expect(try AuditVerifier.verify(path: scratch.log).intact, "log and anchor agree")
        let result = try AuditVerifier.verify(path: scratch.log, expecting: recorded)
        #expect(result.broken?.reason.contains("recorded head") == true, "\(String(describing: result.broken))")
    }
}
