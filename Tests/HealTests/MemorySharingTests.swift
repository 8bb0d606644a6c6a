import Foundation
@testable import Heal
@testable import Signals
import Support
import Testing

/// What a fleet's workers share of heal memory: every attempt leaves one memory with a key that is
/// the same everywhere, and enters another once, its MAC checked and its prose through that
/// memory's redactor.
@Suite("Heal memory sharing")
struct MemorySharingTests {
    @Test("attempts leave one memory and enter another once; a secret in their prose does not")
    func roundTrip() throws {
        let directory = try ScratchDirectory.make(prefix: "heal-sharing")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = try HealMemory(path: directory + "/a.sqlite")
        let target = try HealMemory(path: directory + "/b.sqlite", redactor: Redactor(secrets: ["hunter2-long-secret"]))
        let signal = Signal(kind: .finding, source: "sarif", message: "m", ruleId: "python.yaml-load")
        for (number, verdict) in [(1, Verdict.failed), (2, .verified)] {
            let attempt = Attempt(
                number: number, actor: .ruleFix, description: "uses hunter2-long-secret", strategy: "fix-template",
                patchHash: "h\(number)", patch: "p\(number)", size: 1, verdict: verdict, lesson: nil, verifications: [], rescan: nil,
                notes: [])
            try source.record(attempt, for: signal, repository: "https://example.com/app")
        }
        let exported = try source.attempts(after: 0)
        #expect(exported.map(\.attempt.verdict) == [.failed, .verified])
        #expect(try source.attempts(after: exported[0].rowID).count == 1)
        #expect(try exported[0].attempt.key() == (try source.attempts(after: 0)[0].attempt.key()))
        let key = try MemoryKey.random()
        let shared = try exported.map { try $0.attempt.signed(with: key).encoded() }
        // On the wire the verdict is its word, as before it was typed.
        #expect(shared[0].contains(#""verdict":"failed""#))
        #expect(try target.importShared(shared, key: key) == SharedImport(added: 2, dropped: 0))
        #expect(try target.importShared(shared, key: key) == SharedImport(added: 0, dropped: 0))
        #expect(try target.importShared(shared, key: try MemoryKey.random()) == SharedImport(added: 0, dropped: 2))
        let remembered = try target.similar(to: signal, repository: "https://example.com/app")
        #expect(remembered.first?.verdict == .verified && remembered.first?.patch == "p2")
        #expect(remembered.allSatisfy { !$0.description.contains("hunter2-long-secret") })
    }
}
