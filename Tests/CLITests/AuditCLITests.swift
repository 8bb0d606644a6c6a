import Digest
import Foundation
import Support
import Testing

/// `sentinel audit verify`: exit 0 intact, 1 broken (naming the line), 2 no log.
@Suite("audit CLI")
struct AuditCLITests {
    @Test("intact, broken and missing logs")
    func verify() throws {
        let root = try HealCLITests.Scratch.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let genesis = String(repeating: "0", count: 64)
        let first = #"{"actor":"a","details":{},"event":"observation","inputs":{},"prev":"\#(genesis)","seq":1,"time":"t"}"#
        try (first + "\n").write(toFile: root + "/audit.jsonl", atomically: false, encoding: .utf8)
        let intact = try CLI.run(["audit", "verify", "--log", root + "/audit.jsonl"])
        #expect(intact.status == 0)
        let head = "1:" + SHA256.hex(Array(first.utf8))
        #expect(
            intact.stdout == "audit log intact: 1 entries (\(root)/audit.jsonl)\nhead: \(head)\n"
                + "note: no anchor (\(root)/audit.jsonl.head): truncation and rewrites are not detectable until the next append\n")

        // A head recorded out of band: the log must still hold it.
        #expect(try CLI.run(["audit", "verify", "--log", root + "/audit.jsonl", "--expect-head", head]).status == 0)
        let other = "2:" + String(repeating: "a", count: 64)
        let rewritten = try CLI.run(["audit", "verify", "--log", root + "/audit.jsonl", "--expect-head", other])
        #expect(rewritten.status == 1)
        #expect(rewritten.stdout.hasPrefix("\(root)/audit.jsonl:2: truncated: the recorded head \(other)"), "\(rewritten.stdout)")
        let bad = try CLI.run(["audit", "verify", "--log", root + "/audit.jsonl", "--expect-head", "x"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("Error: The value 'x' is invalid for '--expect-head <head>'\n"))

        try (first.replacingOccurrences(of: "observation", with: "approval") + "\n" + first + "\n").write(
            toFile: root + "/audit.jsonl", atomically: false, encoding: .utf8)
        let broken = try CLI.run(["audit", "verify", "--log", root + "/audit.jsonl"])
        #expect(broken.status == 1)
        #expect(broken.stdout.hasPrefix("\(root)/audit.jsonl:2: prev does not match the SHA-256 of line 1"))

        let missing = try CLI.run(["audit", "verify", "--log", root + "/none.jsonl"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("sentinel: \(root)/none.jsonl: cannot open"))
    }
}
