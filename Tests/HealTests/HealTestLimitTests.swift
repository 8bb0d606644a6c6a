import Foundation
import Sandbox
import Support
import TestSupport
import Testing

@testable import Heal
@testable import Signals

/// A test that loops forever is a failing test (``TestTimeLimit``), in the sandbox, with pytest:
/// on the unchanged tree it no longer ends the heal, and a candidate that loops costs a test's
/// limit, not the run's wall-clock limit.
@Suite(
    "Heal limits each test's CPU time", .serialized,
    .enabled(if: TestHost.canSandbox, "verifies candidates in the sandbox: needs root and user namespaces"))
struct HealTestLimitTests {
    static let test = "tests/test_power.py::test_"

    static func power(_ body: String) -> String {
        "def power_at_least(x):\n    \"\"\"The least power of two at least x.\"\"\"\n    p = 1\n\(body)    return p\n"
    }

    /// Loops for every x above 1.
    static let looping = power("    while p < x:\n        p = p * 1\n")
    static let fixed = power("    while p < x:\n        p = p * 2\n")

    static let tests = """
        import sys, os
        sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
        from power import power_at_least


        def test_one():
            assert power_at_least(1) == 1


        def test_five():
            assert power_at_least(5) == 8


        def test_thousand():
            assert power_at_least(1000) == 1024

        """

    /// Ends, with the wrong answer for every x above 2.
    static let tripling = power("    while p < x:\n        p = p * 3\n")

    static func request(
        failing: [String], seconds: Double?, maxSeconds: Double, rounds: [[(String, [String: String])]], initial: String = looping
    ) throws -> (HealRequest, ScratchProject) {
        let project = try ScratchProject(["power.py": initial, "tests/test_power.py": tests])
        let signal = Signal(
            kind: .testFailure, source: "pytest", message: "\(failing.count) failing",
            failingTests: failing.map { Self.test + $0 }, exceptionType: "Failed")
        var request = HealRequest(
            repository: project.path, signals: [signal], verify: "python3 -m pytest -q",
            profile: try ProfileStore.standard(syntax: .yaml).resolve("fix-verify"),
            actors: [ScriptedActor(kind: .logicRepair, rounds: rounds)], maxAttempts: 10, maxSeconds: maxSeconds, jobs: 1)
        request.testCPUSeconds = seconds
        return (request, project)
    }

    @Test("tests that loop on the unchanged tree fail there; candidates that loop fail by the limit, and the fix is verified")
    func loopingBaselineIsHealed() throws {
        // Fixes the failing tests, and loops where x is 1.
        let loopsElsewhere = Self.power("    while p < x or x == 1:\n        p = p * 2 if x > 1 else p\n")
        let (request, project) = try Self.request(
            failing: ["five", "thousand"], seconds: 1, maxSeconds: 600,
            rounds: [
                [("still loops", ["power.py": Self.power("    while p < x:\n        p = p + 0\n")])],
                [("loops elsewhere", ["power.py": loopsElsewhere])], [("the fix", ["power.py": Self.fixed])],
            ])
        let outcome = try withExtendedLifetime(project) { try HealLoop(memory: nil).run(request) }
        let baseline = try #require(outcome.baseline)
        #expect(baseline.reason == .exited)
        #expect(Set(baseline.tests?.failing ?? []) == [Self.test + "five", Self.test + "thousand"])
        #expect(baseline.tests?.passed == [Self.test + "one"])
        #expect(baseline.testCPUSeconds == 1)
        #expect(candidateDescription(outcome) == "the fix", "\(outcome.stopReason) \(outcome.notes)")
        let byDescription = Dictionary(uniqueKeysWithValues: outcome.attempts.map { ($0.description, $0) })

        // Rejected by its screen, which the limit ended, not the run's wall clock.
        let still = try #require(byDescription["still loops"])
        #expect(still.verifications.count == 1)
        #expect(still.verifications.first?.reason == .exited)
        #expect(still.verifications.first?.testCPUSeconds == 1)
        #expect(still.verifications.first?.tests?.failures.first?.exceptionType == "Failed")

        // Passes its screen; the whole run fails the test it makes loop.
        let elsewhere = try #require(byDescription["loops elsewhere"])
        #expect(elsewhere.verdict == .failed)
        #expect(elsewhere.verifications.map(\.reason) == [.exited, .exited])
        #expect(elsewhere.lesson?.newlyFailing == [Self.test + "one"])

        let candidate = try #require(outcome.candidate)
        #expect(candidate.verifications.count == 2)
        #expect(candidate.verifications.allSatisfy { $0.succeeded && $0.testCPUSeconds == 1 && $0.passedTests.count == 3 })
    }

    /// The tests fail without looping: two looping ones would spend 20 s of CPU inside the
    /// baseline's 30 s, which a loaded machine does not give (CI run of 52bcc4db).
    @Test("unset, the limit is a sixth of the baseline's budget (at least 10 s), then ten times the slowest test (at least 5 s)")
    func derivedLimits() throws {
        let (request, project) = try Self.request(
            failing: ["five", "thousand"], seconds: nil, maxSeconds: 60, rounds: [[("the fix", ["power.py": Self.fixed])]],
            initial: Self.tripling)
        let outcome = try withExtendedLifetime(project) { try HealLoop(memory: nil).run(request) }
        #expect(outcome.baseline?.reason == .exited)
        #expect(outcome.baseline?.testCPUSeconds == 10)
        #expect(Set(outcome.baseline?.tests?.failing ?? []) == [Self.test + "five", Self.test + "thousand"])
        let candidate = try #require(outcome.candidate, "\(outcome.stopReason) \(outcome.notes)")
        #expect(candidate.verifications.allSatisfy { $0.testCPUSeconds == TestTimeLimit.candidateFloor })
    }

    private func candidateDescription(_ outcome: HealOutcome) -> String? { outcome.candidate?.description }
}
