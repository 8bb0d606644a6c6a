import Foundation
import Sandbox
import Support
import TestSupport
import Testing

@testable import Heal
@testable import Signals

/// Candidates are run on the tests that failed before the whole command runs (`TestSelection`):
/// what each attempt ran, in the sandbox, with pytest.
@Suite(
    "Heal screens candidates on the failing tests", .serialized,
    .enabled(if: TestHost.canSandbox, "verifies candidates in the sandbox: needs root and user namespaces"))
struct HealScreenTests {
    static let failing = "tests/test_calc.py::test_mean"

    /// The request, and the project it heals (removed when released: keep it until the heal ends):
    /// the buggy mean with `tests` as its test file (nil: the usual one), its signal naming `failing`.
    static func request(
        verify: String = "python3 -m pytest -q", tests: String? = nil, failing: [String] = [Self.failing],
        rounds: [[(String, [String: String])]]
    ) throws -> (HealRequest, ScratchProject) {
        var files = HealLoopTests.buggy
        if let tests { files["tests/test_calc.py"] = tests }
        let project = try ScratchProject(files)
        let signal = Signal(
            kind: .testFailure, source: "pytest", message: "\(failing.count) failing", failingTests: failing,
            exceptionType: "AssertionError")
        let request = HealRequest(
            repository: project.path, signals: [signal], verify: verify,
            profile: try ProfileStore.standard(syntax: .yaml).resolve("fix-verify"),
            actors: [ScriptedActor(kind: .logicRepair, rounds: rounds)], maxAttempts: 10, maxSeconds: 300, jobs: 1)
        return (request, project)
    }

    /// The head of a test file that imports the buggy mean.
    static let importsMean =
        "import sys, os, time, pytest\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n"
        + "from calc import mean\n\n\n"

    static let useless = ("no change that helps", ["calc.py": HealLoopTests.buggy["calc.py"]! + "\n# nothing\n"])
    static let fix = ("the fix", ["calc.py": HealLoopTests.fixedCalc])

    @Test("a candidate that still fails runs only the failing test; the fix runs it, then the whole command twice")
    func screenThenWhole() throws {
        let (request, project) = try Self.request(rounds: [[Self.useless], [Self.fix]])
        let outcome = try withExtendedLifetime(project) { try HealLoop(memory: nil).run(request) }
        let candidate = try #require(outcome.candidate)
        #expect(candidate.description == "the fix")
        let byDescription = Dictionary(uniqueKeysWithValues: outcome.attempts.map { ($0.description, $0) })

        let failed = try #require(byDescription["no change that helps"])
        #expect(failed.verdict == .failed)
        let screen = try #require(failed.verifications.first)
        #expect(failed.verifications.count == 1)
        #expect(screen.selectedTests == [Self.failing])
        #expect(screen.tests?.failed == [Self.failing])
        #expect(screen.tests?.passed == [])
        // The lesson is the one a whole run's failure teaches.
        #expect(failed.lesson?.stillFailing == [Self.failing])
        #expect(failed.lesson?.expectedActual.contains("assert 6.0 == 3") == true)

        let verified = try #require(byDescription["the fix"])
        #expect(verified.verifications.map { $0.selectedTests != nil } == [true, false, false])
        #expect(verified.verifications.first?.tests?.passed == [Self.failing])
        // The candidate is judged by its whole runs, where every test ran and passed.
        #expect(candidate.verifications.count == 2)
        #expect(candidate.verifications.allSatisfy { $0.selectedTests == nil && $0.succeeded })
        #expect(candidate.verifications.allSatisfy { $0.passedTests.count == 3 })
        #expect(outcome.notes.allSatisfy { !$0.contains("not screened") }, "\(outcome.notes)")
    }

    @Test("the screen runs the quickest failing test of the traced baseline first and stops at the first still failing")
    func quickestFirstStopsAtFirst() throws {
        // Two failing tests; the one pytest collects first is the slower (it sleeps).
        let slow = "tests/test_calc.py::test_a_slow"
        let quick = "tests/test_calc.py::test_b_quick"
        let (request, project) = try Self.request(
            tests: Self.importsMean + "def test_a_slow():\n    time.sleep(1)\n    assert mean([2, 4]) == 3\n\n\n"
                + "def test_b_quick():\n    assert mean([1, 3]) == 2\n",
            failing: [slow, quick], rounds: [[Self.useless]])
        let outcome = try withExtendedLifetime(project) { try HealLoop(memory: nil).run(request) }
        let screen = try #require(outcome.attempts.first?.verifications.first)
        #expect(outcome.attempts.first?.verifications.count == 1)
        #expect(screen.selectedTests == [quick, slow])
        #expect(screen.tests?.failed == [quick])
        #expect(screen.tests?.passed == [])
    }

    @Test("test names too long to pass in one variable are not screened: the whole command runs")
    func longNamesAreNotScreened() throws {
        // The repository names its tests: two ids of 40,000 characters each are past the 64 KiB
        // a screen's variable may hold (the kernel refuses a variable past 128 KiB, and with it
        // every screen's start).
        let ids = ["n", "m"].map { "tests/test_calc.py::test_mean[\(String(repeating: $0, count: 40_000))]" }
        let (request, project) = try Self.request(
            tests: Self.importsMean + "@pytest.mark.parametrize('name', ['n' * 40000, 'm' * 40000])\n"
                + "def test_mean(name):\n    assert mean([2, 4]) == 3\n",
            failing: ids, rounds: [[Self.useless], [Self.fix]])
        let outcome = try withExtendedLifetime(project) { try HealLoop(memory: nil).run(request) }
        #expect(Set(outcome.baseline?.tests?.failing ?? []) == Set(ids))
        #expect(outcome.candidate?.description == "the fix")
        #expect(outcome.attempts.allSatisfy { $0.verifications.allSatisfy { $0.selectedTests == nil } })
    }

    @Test("a screened test that passes and then errors at a module fixture's teardown does not reject: the whole run decides")
    func teardownErrorDoesNotReject() throws {
        // The unchanged tree already fails for the finalizer, which pytest blames on the module's
        // last test: test_z in the whole run, test_mean when it runs alone.
        let tests =
            Self.importsMean + "@pytest.fixture(scope='module', autouse=True)\ndef broken():\n    yield\n"
            + "    raise RuntimeError('finalizer')\n\n\ndef test_mean():\n    assert mean([2, 4]) == 3\n\n\n"
            + "def test_z():\n    pass\n"
        let (request, project) = try Self.request(tests: tests, rounds: [[Self.fix]])
        let outcome = try withExtendedLifetime(project) { try HealLoop(memory: nil).run(request) }
        #expect(outcome.candidate?.description == "the fix", "\(outcome.attempts.map { $0.lesson?.summary ?? "" })")
        let runs = outcome.attempts.first?.verifications ?? []
        #expect(runs.map { $0.selectedTests != nil } == [true, false, false])
        #expect(runs.first?.tests?.passed == [Self.failing])
        #expect(runs.first?.tests?.failing.contains(Self.failing) == true)
    }

    @Test("a screened test that fails its own way when run alone does not reject: the whole run decides")
    func orderDependentTestDoesNotReject() throws {
        // test_mean reads what an earlier test left: alone it fails with a KeyError, not the
        // bug's AssertionError.
        let tests =
            Self.importsMean + "STATE = {}\n\n\ndef test_first():\n    STATE['xs'] = [2, 4]\n\n\n"
            + "def test_mean():\n    assert mean(STATE['xs']) == 3\n"
        let (request, project) = try Self.request(tests: tests, rounds: [[Self.useless], [Self.fix]])
        let outcome = try withExtendedLifetime(project) { try HealLoop(memory: nil).run(request) }
        #expect(outcome.candidate?.description == "the fix", "\(outcome.attempts.map { $0.lesson?.summary ?? "" })")
        let byDescription = Dictionary(uniqueKeysWithValues: outcome.attempts.map { ($0.description, $0) })
        // The useless change fails the whole run too; the screen alone did not reject it.
        #expect(byDescription["no change that helps"]?.verifications.map { $0.selectedTests != nil } == [true, false])
        #expect(byDescription["no change that helps"]?.verdict == .failed)
        let fixed = try #require(byDescription["the fix"])
        #expect(fixed.verifications.first?.tests?.failures.first?.exceptionType == "KeyError")
        #expect(outcome.notes.allSatisfy { !$0.contains("not screened") }, "\(outcome.notes)")
        #expect(fixed.verifications.dropFirst().allSatisfy { $0.selectedTests == nil && $0.succeeded })
    }

    @Test("a screen that does not run the failing tests where the whole command does ends screening for the heal")
    func blindScreenStops() throws {
        // A command that does not run pytest when the selection is set: its screens see no test.
        let verify = "if [ -n \"$\(TestSelection.environmentVariable)\" ]; then exit 3; fi; python3 -m pytest -q"
        let (request, project) = try Self.request(verify: verify, rounds: [[Self.useless], [Self.fix]])
        let outcome = try withExtendedLifetime(project) { try HealLoop(memory: nil).run(request) }
        #expect(outcome.candidate?.description == "the fix")
        let byDescription = Dictionary(uniqueKeysWithValues: outcome.attempts.map { ($0.description, $0) })
        let first = try #require(byDescription["no change that helps"])
        #expect(first.verifications.map { $0.selectedTests != nil } == [true, false])
        #expect(first.verifications.first?.exitCode == 3)
        #expect(first.lesson?.stillFailing == [Self.failing])
        let verified = try #require(byDescription["the fix"])
        #expect(verified.verifications.allSatisfy { $0.selectedTests == nil })
        #expect(outcome.notes.contains { $0.contains("not screened on the failing tests first") }, "\(outcome.notes)")
    }
}
