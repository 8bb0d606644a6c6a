import Foundation
import Store
import Testing

@testable import Heal
@testable import Signals

extension HealLoopTests {
    /// A fix remembered as verified for a similar signal (recalled by embedding, not by
    /// fingerprint, exception and frame) that does not fix this one.
    static let wrongRememberedFix =
        "diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,3 +1,3 @@\n def mean(xs):\n"
        + "-    return sum(xs) / (len(xs) - 1)\n+    return sum(xs) / (len(xs) + 1)\n \n"

    @Test("a fix recalled from a similar signal is only a hint: replayed, it fails verification and is not the candidate")
    func similarRecallIsVerifiedBeforeItCounts() throws {
        let (memory, directory) = try Self.memory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let origin = "https://example.com/calc"
        let signal = Self.signal()
        // A record "verified" on another signal of this repository: the same exception, another
        // test of the same module, so retrieval by similarity finds it and nothing else does.
        let remembered = SharedAttempt(
            fingerprint: "similar-signal", kind: signal.kind.rawValue,
            signalMessage: "1 failing test: tests/test_calc.py::test_mean_of_two",
            exceptionType: "AssertionError", topFrame: "tests/test_calc.py:test_mean_of_two", ruleId: nil, package: nil,
            actor: ActorKind.logicRepair.rawValue, strategy: "off-by-one", description: "change the divisor",
            patchHash: "h", patch: Self.wrongRememberedFix, verdict: .verified, lesson: nil, created: "2026-11-27T00:00:00Z",
            changeKey: nil, repository: origin)
        #expect(try memory.importAttempts([remembered]) == 1)
        #expect(try memory.similar(to: signal, repository: origin).isEmpty)

        let project = try ScratchProject(Self.buggy)
        let outcome = try HealLoop(memory: memory).run(
            try Self.request(project, actors: [ScriptedActor(kind: .logicRepair, rounds: [])], repositoryID: origin))
        let recalled = try #require(outcome.memory.first)
        #expect(
            recalled.fingerprint == "similar-signal" && recalled.verified && (recalled.similarity ?? 0) >= HealMemory.similarityThreshold)
        // Replayed, judged in the sandbox like any candidate, failed: no candidate, a lesson.
        #expect(outcome.candidate == nil)
        let attempt = try #require(outcome.attempts.first, "\(outcome.notes)")
        #expect(outcome.attempts.count == 1 && attempt.description.hasPrefix("remembered fix #1: ") && attempt.verdict == .failed)
        #expect(attempt.lesson != nil)
    }
}
