import Audit
import Digest
import Dispatch
import Foundation
import Support
import Testing

@Suite("Audit log")
struct AuditLogTests {
    final class Scratch {
        let root: String
        var log: String { root + "/audit.jsonl" }
        init() throws { root = try ScratchDirectory.make(prefix: "audit") }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        func lines() throws -> [String] {
            try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        func write(_ lines: [String], trailingNewline: Bool = true) throws {
            try (lines.joined(separator: "\n") + (trailingNewline ? "\n" : "")).write(
                toFile: log, atomically: false, encoding: .utf8)
        }
    }

    static func fill(_ scratch: Scratch, count: Int = 5) throws {
        let log = AuditLog(path: scratch.log)
        for index in 1...count {
            try log.append(
                AuditEntry(
                    event: "decision", actor: "controller", level: "observer", rule: "deny .github/**",
                    inputs: ["patch": SHA256.hex("patch \(index)")], details: ["n": "\(index)"]))
        }
    }

    @Test("appended entries chain: seq counts lines, prev is the previous line's SHA-256")
    func chain() throws {
        let scratch = try Scratch()
        try Self.fill(scratch)
        let lines = try scratch.lines()
        #expect(lines.count == 5)
        #expect(lines[0].contains("\"prev\":\"\(AuditLog.genesis)\""))
        #expect(lines[1].contains("\"prev\":\"\(SHA256.hex(Array(lines[0].utf8)))\""))
        #expect(lines[4].contains("\"seq\":5"))
        let result = try AuditVerifier.verify(path: scratch.log)
        #expect(result.intact && result.validLines == 5)
    }

    @Test(
        "every kind of tampering is detected at the first broken line",
        arguments: ["edit", "delete", "reorder", "truncate", "append-forged", "delete-last-edit-prev"])
    func tampering(kind: String) throws {
        let scratch = try Scratch()
        try Self.fill(scratch)
        var lines = try scratch.lines()
        var expected = 0
        switch kind {
        case "edit":
            lines[2] = lines[2].replacingOccurrences(of: "\"n\":\"3\"", with: "\"n\":\"9\"")
            expected = 4
            try scratch.write(lines)
        case "delete":
            lines.remove(at: 1)
            expected = 2
            try scratch.write(lines)
        case "reorder":
            lines.swapAt(2, 3)
            expected = 3
            try scratch.write(lines)
        case "truncate":
            let text = lines.joined(separator: "\n") + "\n"
            try String(text.dropLast(20)).write(toFile: scratch.log, atomically: false, encoding: .utf8)
            expected = 5
        case "append-forged":
            lines.append(#"{"seq":6,"prev":"0000","event":"approval"}"#)
            expected = 6
            try scratch.write(lines)
        default:
            // Removing the last line leaves a valid shorter chain; editing any earlier line does not.
            lines.removeLast()
            lines[0] = lines[0].replacingOccurrences(of: "controller", with: "mallory")
            expected = 2
            try scratch.write(lines)
        }
        let result = try AuditVerifier.verify(path: scratch.log)
        #expect(result.broken?.line == expected, "\(String(describing: result.broken))")
    }

    @Test("an append after a crash mid-line is refused, the torn line is reported")
    func tornLastLine() throws {
        let scratch = try Scratch()
        try Self.fill(scratch, count: 2)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.log))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"seq\":3,\"ev".utf8))
        try handle.close()
        #expect(throws: SentinelError.self) { try AuditLog(path: scratch.log).append(AuditEntry(event: "x", actor: "y")) }
        #expect(try AuditVerifier.verify(path: scratch.log).broken?.line == 3)
    }

    @Test("concurrent appends through separate descriptors interleave whole lines and keep the chain")
    func concurrentAppends() throws {
        let scratch = try Scratch()
        let path = scratch.log
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            let log = AuditLog(path: path)
            for index in 0..<25 {
                _ = try? log.append(AuditEntry(event: "observation", actor: "writer-\(writer)", details: ["i": "\(index)"]))
            }
        }
        let result = try AuditVerifier.verify(path: path)
        #expect(result.intact && result.validLines == 100)
    }

    @Test("known secrets never reach the log")
    func secrets() throws {
        let scratch = try Scratch()
        let token = "ghp_0123456789abcdefTOKEN"
        try AuditLog(path: scratch.log, secrets: [token]).append(
            AuditEntry(event: "push", actor: "publisher", details: ["url": "https://x-access-token:\(token)@github.com/o/r"]))
        let text = try String(contentsOfFile: scratch.log, encoding: .utf8)
        #expect(!text.contains(token))
        #expect(text.contains("<redacted>"))
        #expect(try AuditVerifier.verify(path: scratch.log).intact)
    }

    /// Hostile inputs round 3, finding 2: the log is written as JSON; a secret holding `"` or `\`
    /// is escaped there, and is redacted all the same.
    @Test("a secret with a quote and a backslash is redacted from the written line")
    func escapedSecretIsRedacted() throws {
        let path = NSTemporaryDirectory() + "audit-escaped-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let secret = #"s3cr"et\value-123"#
        _ = try AuditLog(path: path, secrets: [secret]).append(AuditEntry(event: "x", actor: "y", details: ["signal": "saw " + secret]))
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains(Redactor.replacement) && !written.contains("value-123"), "\(written)")
    }
}
