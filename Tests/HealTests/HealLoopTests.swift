import Digest
import Foundation
import Git
import Sandbox
import Store
import Support
import Synchronization
import TestSupport
import ScanCore
import Testing

@testable import Heal
@testable import LLM
@testable import Signals

/// An actor that proposes fixed edits, for the loop's own tests.
struct ScriptedActor: HealActor {
    let kind: ActorKind
    /// Per round: the proposals (path → new content).
    let rounds: [[(String, [String: String])]]

    func applies(to signal: Signal) -> Bool { true }

    func propose(_ context: ActorContext, round: Int) throws -> [Proposal] {
        guard round <= rounds.count else { return [] }
        return rounds[round - 1].map { description, edits in
            Proposal(
                actor: kind,
                changes: edits.map { FileChange(path: $0.key, before: context.workspace.read($0.key), after: $0.value) },
                description: description, strategy: description)
        }
    }
}

@Suite(
    "Heal loop", .serialized,
    .enabled(if: TestHost.canSandbox, "verifies candidates in the sandbox: needs root and user namespaces"))
struct HealLoopTests {
    static let buggy = ScratchProject.buggyMean
    static let fixedCalc = "def mean(xs):\n    return sum(xs) / len(xs)\n\n\ndef first(xs):\n    return xs[0]\n"
    static let breaksFirst = "def mean(xs):\n    return sum(xs) / len(xs)\n\n\ndef first(xs):\n    return xs[-1]\n"

    static func signal() -> Signal {
        Signal(
            kind: .testFailure, source: "pytest", message: "1 failing test: tests/test_calc.py::test_mean",
            locations: [Signal.Location(file: "tests/test_calc.py", line: 7)],
            failingTests: ["tests/test_calc.py::test_mean"], exceptionType: "AssertionError")
    }

    static func request(
        _ project: ScratchProject, actors: [any HealActor], maxAttempts: Int = 20, repositoryID: String? = nil
    ) throws -> HealRequest {
        HealRequest(
            repository: project.path, signals: [signal()], verify: "python3 -m pytest -q",
            profile: try ProfileStore.standard(syntax: .yaml).resolve("fix-verify"), actors: actors, maxAttempts: maxAttempts,
            maxSeconds: 300, jobs: 2, repositoryID: repositoryID)
    }

    static func memory() throws -> (HealMemory, String) {
        let directory = try ScratchDirectory.make(prefix: "heal-memory")
        return (try HealMemory(path: directory + "/heal.sqlite"), directory)
    }

    @Test("refused and failing proposals become lessons; the verified one is the candidate, run twice")
    func lessonsThenCandidate() throws {
        let project = try ScratchProject(Self.buggy)
        let (memory, directory) = try Self.memory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let actor = ScriptedActor(
            kind: .logicRepair,
            rounds: [
                [
                    ("edit the test", ["tests/test_calc.py": "def test_mean():\n    pass\n"]),
                    ("break first", ["calc.py": Self.breaksFirst]),
                ],
                [("no change that helps", ["calc.py": Self.buggy["calc.py"]! + "\n# nothing\n"])],
                [("the fix", ["calc.py": Self.fixedCalc])],
            ])
        let outcome = try HealLoop(memory: memory).run(try Self.request(project, actors: [actor]))
        let candidate = try #require(outcome.candidate)
        #expect(candidate.description == "the fix")
        #expect(candidate.verifications.count == 2)
        #expect(candidate.verifications.allSatisfy { $0.succeeded })
        #expect(candidate.patch.contains("-    return sum(xs) / (len(xs) - 1)\n+    return sum(xs) / len(xs)"))
        #expect(outcome.stopReason == .verified)
        let byDescription = Dictionary(uniqueKeysWithValues: outcome.attempts.map { ($0.description, $0) })
        #expect(outcome.attempts.map(\.verdict).sorted { $0.rawValue < $1.rawValue } == [.failed, .failed, .rejected, .verified])
        #expect(outcome.attempts.last?.description == "the fix")
        #expect(byDescription["edit the test"]?.verdict == .rejected)
        #expect(byDescription["edit the test"]?.lesson?.summary == "refused: edits test file tests/test_calc.py")
        let broken = try #require(byDescription["break first"]?.lesson)
        #expect(broken.newlyFailing == ["tests/test_calc.py::test_first_of_two"])
        #expect(broken.summary.hasPrefix("breaks previously passing tests"))
        let useless = try #require(byDescription["no change that helps"]?.lesson)
        #expect(useless.stillFailing == ["tests/test_calc.py::test_mean"])
        #expect(useless.expectedActual.contains("assert 6.0 == 3"))
        #expect(candidate.confidence.value > 0 && candidate.confidence.value <= 1)
        // The one line the fix adds is executed by the tests (a traced run of the patched tree).
        #expect(candidate.coverage == ChangeCoverage(covered: 1, total: 1, uncovered: []))
        // The repository is untouched.
        #expect(try String(contentsOfFile: project.path + "/calc.py", encoding: .utf8) == Self.buggy["calc.py"])
        // Memory keeps every judged attempt; the verified one comes first for a similar signal.
        #expect(try memory.list().count == 4)
        var similar = Self.signal()
        similar.failingTests = ["tests/test_calc.py::test_other"]
        similar.topFrames = []
        let recalled = try memory.similar(to: similar, repository: RepositoryIdentity.local(project.path))
        #expect(recalled.first?.verified == true)
        let rate = try memory.successRate(of: .logicRepair)
        #expect(rate.verified == 1 && rate.total == 3)
    }

    /// A heal of the buggy project (with `extra` files) whose fix the scripted actor proposes;
    /// each pytest session tells a loopback server which calc.py it ran against (the paths it
    /// asked for, in order: `/` and the file's SHA-256).
    static func healCountingSessions(extra: [String: String]) throws -> (HealOutcome, [String]) {
        let server = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(status: 200, body: Array("ok".utf8)) }
        defer { server.stop() }
        var files = Self.buggy.merging(extra) { _, added in added }
        files["conftest.py"] =
            "import hashlib, urllib.request\n"
            + "def pytest_sessionstart(session):\n"
            + "    digest = hashlib.sha256(open('calc.py', 'rb').read()).hexdigest()\n"
            + "    urllib.request.urlopen('\(server.baseURL)/' + digest).read()\n"
        let project = try ScratchProject(files)
        var request = try Self.request(
            project, actors: [ScriptedActor(kind: .logicRepair, rounds: [[("fix", ["calc.py": Self.fixedCalc])]])])
        request.profile.network.mode = .proxy
        request.profile.network.allow = ["127.0.0.1:\(server.port)"]
        let outcome = try HealLoop(memory: nil).run(request)
        return (outcome, server.requests.map(\.path))
    }

    @Test("the unchanged tree runs once: its traced run is the baseline and fault localisation's spectrum")
    func baselineIsTheTracedRun() throws {
        let (outcome, requests) = try Self.healCountingSessions(extra: [:])
        #expect(outcome.stopReason == .verified)
        #expect(outcome.notes.allSatisfy { !$0.contains("coverage tracing unavailable") }, "\(outcome.notes)")
        let unchanged = "/" + SHA256.hex(Self.buggy["calc.py"]!)
        #expect(requests.filter { $0 == unchanged }.count == 1, "\(requests)")
        #expect(requests.count > 1, "no candidate was run")
    }

    @Test("a test that fails only under the tracer: the untraced run is the baseline, and that test must keep passing")
    func traceOnlyFailureKeepsTheUntracedBaseline() throws {
        let (outcome, requests) = try Self.healCountingSessions(extra: [
            "tests/test_untraced.py": "import sys\n\n\ndef test_untraced():\n    assert sys.gettrace() is None\n"
        ])
        #expect(outcome.stopReason == .verified)
        #expect(
            outcome.baseline?.passedTests.contains("tests/test_untraced.py::test_untraced") == true,
            "\(String(describing: outcome.baseline?.tests))")
        let unchanged = "/" + SHA256.hex(Self.buggy["calc.py"]!)
        // Traced (its spectrum), then untraced (the baseline): not the traced one as the baseline.
        #expect(requests.filter { $0 == unchanged }.count == 2, "\(requests)")
    }

    @Test("a candidate that passes once and then fails is flaky, not verified")
    func flaky() throws {
        // The verify command asks a loopback server whether to pass: fail (baseline), pass (the
        // candidate's first run), fail (its re-run), then pass for ever.
        let answers = Mutex(["fail", "pass", "fail"])
        let server = try LoopbackHTTPServer { _ in
            let answer = answers.withLock { $0.isEmpty ? "pass" : $0.removeFirst() }
            return LoopbackHTTPServer.Response(status: 200, body: Array(answer.utf8))
        }
        defer { server.stop() }
        var profile = try ProfileStore.standard(syntax: .yaml).resolve("fix-verify")
        profile.network.mode = .proxy
        profile.network.allow = ["127.0.0.1:\(server.port)"]
        let project = try ScratchProject(["calc.py": "x = 1\n"])
        let verify =
            "python3 -c \"import sys, urllib.request; "
            + "sys.exit(urllib.request.urlopen('\(server.baseURL)/').read() != b'pass')\""
        let signal = Signal(kind: .testFailure, source: "pytest", message: "flaky", exceptionType: "AssertionError")
        let actor = ScriptedActor(kind: .logicRepair, rounds: [[("one", ["calc.py": "x = 2\n"])]])
        let request = HealRequest(
            repository: project.path, signals: [signal], verify: verify, profile: profile, actors: [actor],
            maxAttempts: 5, maxSeconds: 300, jobs: 1)
        let outcome = try HealLoop(memory: nil).run(request)
        #expect(outcome.candidate == nil)
        #expect(outcome.attempts.map(\.verdict) == [.flaky])
        #expect(outcome.attempts.first?.verifications.map(\.exitCode) == [0, 1])
        #expect(outcome.attempts.first?.lesson?.summary.hasPrefix("flaky: passed once, then") == true)
        #expect(server.requests.count == 3)
    }

    @Test("the attempt budget stops the loop and the outcome says so")
    func maxAttempts() throws {
        let project = try ScratchProject(Self.buggy)
        let useless = (1...5).map { ("useless \($0)", ["calc.py": Self.buggy["calc.py"]! + "\n# \($0)\n"]) }
        let actor = ScriptedActor(kind: .logicRepair, rounds: [useless + [("the fix", ["calc.py": Self.fixedCalc])]])
        let outcome = try HealLoop(memory: nil).run(try Self.request(project, actors: [actor], maxAttempts: 3))
        #expect(outcome.candidate == nil)
        #expect(outcome.attempts.count == 3)
        #expect(outcome.stopReason == .maxAttempts)
    }

    @Test("an actor with nothing left ends the loop: exhausted")
    func exhausted() throws {
        let project = try ScratchProject(Self.buggy)
        let outcome = try HealLoop(memory: nil).run(try Self.request(project, actors: [ScriptedActor(kind: .llmPatch, rounds: [])]))
        #expect(outcome.candidate == nil)
        #expect(outcome.stopReason == .exhausted)
    }

    @Test("a signal that does not reproduce is reported, not healed")
    func notReproduced() throws {
        var files = Self.buggy
        files["calc.py"] = Self.fixedCalc
        let project = try ScratchProject(files)
        let actor = ScriptedActor(kind: .logicRepair, rounds: [[("x", ["calc.py": Self.fixedCalc + "\n"])]])
        let outcome = try HealLoop(memory: nil).run(try Self.request(project, actors: [actor]))
        #expect(outcome.candidate == nil)
        #expect(outcome.stopReason == .notReproduced)
        #expect(outcome.attempts.isEmpty)
    }

    /// A traceback raised inside the standard library (a JSON file that is not JSON).
    static func jsonSignal() -> Signal {
        let decoder = "/usr/lib/python3.11/json/decoder.py"
        return Signal(
            kind: .exception, source: "traceback", message: "JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
            locations: [Signal.Location(file: decoder, line: 355, function: "raw_decode")],
            exceptionType: "json.decoder.JSONDecodeError", topFrames: [decoder + ":raw_decode"])
    }

    @Test("an exception the verify command never raises is not healed by a patch that makes it pass")
    func unrelatedPassIsNoFix() throws {
        // The tests fail for another reason (calc's mean); fixing that makes the command pass,
        // which says nothing about the JSONDecodeError.
        let project = try ScratchProject(Self.buggy)
        let actor = ScriptedActor(kind: .logicRepair, rounds: [[("fix mean instead", ["calc.py": Self.fixedCalc])]])
        var request = try Self.request(project, actors: [actor])
        request.signals = [Self.jsonSignal()]
        let outcome = try HealLoop(memory: nil).run(request)
        #expect(outcome.candidate == nil)
        #expect(outcome.stopReason == .notReproduced)
        #expect(outcome.notes.contains { $0.contains("does not raise json.decoder.JSONDecodeError") }, "\(outcome.notes)")
        #expect(outcome.attempts.isEmpty)
    }

    @Test("an exception still raised fails the candidate even when the command exits 0")
    func exceptionMustBeGone() throws {
        let load = "import json\n\n\ndef settings():\n    with open('settings.json') as f:\n        return json.load(f)\n"
        let project = try ScratchProject([
            "app.py": load + "\n\nprint(settings())\n", "settings.json": "",
        ])
        let swallowed =
            "import json, traceback\n\n\ndef settings():\n    try:\n        with open('settings.json') as f:\n"
            + "            return json.load(f)\n    except ValueError:\n        traceback.print_exc()\n        return {}\n"
            + "\n\nprint(settings())\n"
        let fixed =
            "import json\n\n\ndef settings():\n    with open('settings.json') as f:\n        text = f.read()\n"
            + "    return json.loads(text) if text.strip() else {}\n\n\nprint(settings())\n"
        let actor = ScriptedActor(
            kind: .logicRepair, rounds: [[("print and go on", ["app.py": swallowed])], [("read empty as {}", ["app.py": fixed])]])
        var request = try Self.request(project, actors: [actor])
        request.signals = [Self.jsonSignal()]
        request.verify = "python3 app.py"
        let outcome = try HealLoop(memory: nil).run(request)
        #expect(outcome.candidate?.description == "read empty as {}")
        let first = try #require(outcome.attempts.first)
        #expect(first.verdict != .verified)
        #expect(first.lesson?.summary == "the verify command still raises json.decoder.JSONDecodeError")
    }

    @Test("a test helper named like code is refused: the traced baseline shows only the tests load it")
    func tamperedHelperIsRefused() throws {
        // checks/expected.py computes what the tests expect; a patch that makes it ask the buggy
        // code would pass every test.
        let test = """
            import os, sys
            sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            from calc import mean
            import expected


            def test_mean():
                assert mean([2, 4]) == expected.mean([2, 4])


            def test_expected_alone():
                assert expected.mean([3]) == 3
            """
        let project = try ScratchProject([
            "calc.py": Self.buggy["calc.py"]!, "checks/test_calc.py": test,
            "checks/expected.py": "def mean(xs):\n    return sum(xs) / len(xs)\n",
        ])
        let tampered = "import calc\n\n\ndef mean(xs):\n    return calc.mean(xs) if len(xs) > 1 else sum(xs) / len(xs)\n"
        let actor = ScriptedActor(
            kind: .logicRepair,
            rounds: [[("expect what the code says", ["checks/expected.py": tampered])], [("the fix", ["calc.py": Self.fixedCalc])]])
        var request = try Self.request(project, actors: [actor])
        request.signals = [
            Signal(
                kind: .testFailure, source: "pytest", message: "1 failing test: checks/test_calc.py::test_mean",
                failingTests: ["checks/test_calc.py::test_mean"], exceptionType: "AssertionError")
        ]
        request.verify = "python3 -m pytest -q checks"
        let outcome = try HealLoop(memory: nil).run(request)
        #expect(outcome.candidate?.description == "the fix")
        let first = try #require(outcome.attempts.first)
        #expect(first.verdict == .rejected)
        #expect(first.lesson?.summary == "refused: edits checks/expected.py, which only the tests load (their own code or data)")
    }

    @Test("a fix memory verified is replayed first the next time the signal comes")
    func memoryReplaysAVerifiedFixFirst() throws {
        let (memory, directory) = try Self.memory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ScratchProject(Self.buggy)
        let learner = ScriptedActor(
            kind: .logicRepair, rounds: [[("break first", ["calc.py": Self.breaksFirst])], [("the fix", ["calc.py": Self.fixedCalc])]])
        let origin = "https://example.com/calc"
        #expect(try HealLoop(memory: memory).run(try Self.request(first, actors: [learner], repositoryID: origin)).candidate != nil)
        // The same bug again in another checkout of the repository, and an actor with nothing to
        // say: memory alone fixes it.
        let again = try ScratchProject(Self.buggy)
        let outcome = try HealLoop(memory: memory).run(
            try Self.request(again, actors: [ScriptedActor(kind: .logicRepair, rounds: [])], repositoryID: origin))
        let candidate = try #require(outcome.candidate)
        #expect(candidate.description.hasPrefix("remembered fix #") && candidate.description.hasSuffix(": the fix"))
        #expect(outcome.attempts.count == 1 && outcome.attempts.first?.verdict == .verified)
    }

    @Test("a fix learnt on another repository is not offered: memory replays only what this repository learnt")
    func memoryKeepsToItsRepository() throws {
        let (memory, directory) = try Self.memory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ScratchProject(Self.buggy)
        let learner = ScriptedActor(kind: .logicRepair, rounds: [[("the fix", ["calc.py": Self.fixedCalc])]])
        #expect(try HealLoop(memory: memory).run(try Self.request(first, actors: [learner])).candidate != nil)
        // The same rule, the same signal, in another repository: nothing it learnt is offered there.
        let another = try ScratchProject(Self.buggy)
        let outcome = try HealLoop(memory: memory).run(
            try Self.request(another, actors: [ScriptedActor(kind: .logicRepair, rounds: [])]))
        #expect(outcome.memory.isEmpty)
        #expect(outcome.candidate == nil && outcome.attempts.isEmpty)
    }

    @Test(
        "a remembered fix that adds a file, or changes one the signal is not in, is refused before it is applied",
        arguments: ["extra_module.py", "tools/release.py"])
    func replayChangesOnlyTheSignalsFiles(planted: String) throws {
        let (memory, directory) = try Self.memory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var files = Self.buggy
        files["tools/release.py"] = "VERSION = '1'\n"
        let project = try ScratchProject(files)
        // Verified once, with the planted change riding along (nothing the tests see refuses it).
        let learner = ScriptedActor(
            kind: .logicRepair, rounds: [[("the fix", ["calc.py": Self.fixedCalc, planted: "import os  # planted\n"])]])
        let learnt = try HealLoop(memory: memory).run(try Self.request(project, actors: [learner]))
        #expect(learnt.candidate?.patch.contains("b/\(planted)") == true)
        let outcome = try HealLoop(memory: memory).run(
            try Self.request(project, actors: [ScriptedActor(kind: .logicRepair, rounds: [])]))
        #expect(outcome.memory.first?.verified == true)
        #expect(outcome.candidate == nil && outcome.attempts.isEmpty)
        // (A startup file such as sitecustomize.py is refused before it ever runs: RegressionGuard.)
        let why = planted == "extra_module.py" ? "it adds extra_module.py" : "it changes tools/release.py, which the signal is not in"
        #expect(outcome.notes.contains("memory: remembered fix #1 not replayed: \(why)"), "\(outcome.notes)")
    }

    @Test("a candidate that failed on this signal in an earlier heal is not judged again")
    func memorySkipsKnownFailures() throws {
        let (memory, directory) = try Self.memory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let wrong = ScriptedActor(kind: .logicRepair, rounds: [[("break first", ["calc.py": Self.breaksFirst])]])
        let first = try ScratchProject(Self.buggy)
        let origin = "https://example.com/calc"
        #expect(try HealLoop(memory: memory).run(try Self.request(first, actors: [wrong], repositoryID: origin)).candidate == nil)
        let both = ScriptedActor(
            kind: .logicRepair,
            rounds: [[("break first", ["calc.py": Self.breaksFirst]), ("the fix", ["calc.py": Self.fixedCalc])]])
        let again = try ScratchProject(Self.buggy)
        let outcome = try HealLoop(memory: memory).run(try Self.request(again, actors: [both], repositoryID: origin))
        #expect(outcome.candidate?.description == "the fix")
        #expect(outcome.attempts.map(\.description) == ["the fix"])
        #expect(outcome.notes.contains("memory: 1 candidate that failed on this signal in an earlier heal not tried again"))
    }

    @Test("a verify command that hangs on the unchanged tree stops at the baseline's budget and says so")
    func hangingBaselineStops() throws {
        let project = try ScratchProject(Self.buggy)
        let actor = ScriptedActor(kind: .logicRepair, rounds: [[("the fix", ["calc.py": Self.fixedCalc])]])
        var request = try Self.request(project, actors: [actor])
        request.verify = "sleep 600"
        request.maxSeconds = 120
        let outcome = try HealLoop(memory: nil).run(request)
        #expect(outcome.stopReason == .baselineTimeout)
        #expect(outcome.attempts.isEmpty)
        // A quarter of 120 s is 30 s.
        #expect(outcome.notes.contains { $0.hasPrefix("the verify command did not finish on the unchanged repository within 30 s") })
    }

    /// Thirty template proposals that do not fix anything (each a different harmless comment).
    static func uselessTemplates() -> ScriptedActor {
        let variants = (1...30).map { n in ("comment \(n)", ["calc.py": Self.buggy["calc.py"]! + "\n# note \(n)\n"]) }
        return ScriptedActor(kind: .logicRepair, rounds: [variants])
    }

    static let modelFix =
        "calc.py\n<<<<<<< SEARCH\n    return sum(xs) / (len(xs) - 1)\n=======\n    return sum(xs) / len(xs)\n>>>>>>> REPLACE\n"

    @Test("a configured model is asked after a short template budget, not after the templates give up")
    func modelIsAskedEarly() throws {
        let provider = try FakeLLMProvider([FakeLLMProvider.completion(Self.modelFix)])
        let model = LLMActor(proposer: LLMProposer(client: LLMClient(configuration: provider.configuration())))
        let project = try ScratchProject(Self.buggy)
        let request = try Self.request(project, actors: [Self.uselessTemplates(), model], maxAttempts: 100)
        let outcome = try HealLoop(memory: nil).run(request)
        #expect(outcome.candidate?.actor == .llmPatch)
        let asked = try #require(outcome.attempts.first { $0.actor == .llmPatch })
        // 8 template attempts, then at most one more batch (2 jobs × 2) before the model's turn.
        #expect(asked.number <= 13, "attempt \(asked.number)")
        #expect(provider.requests.count == 1)
    }

    @Test("a model that missed gets its next turn after the next template budget, not after the templates give up")
    func modelTurnsInterleave() throws {
        let miss =
            "calc.py\n<<<<<<< SEARCH\n    return sum(xs) / (len(xs) - 1)\n=======\n    return sum(xs) / (len(xs) - 2)\n>>>>>>> REPLACE\n"
        let provider = try FakeLLMProvider([FakeLLMProvider.completion(miss), FakeLLMProvider.completion(Self.modelFix)])
        let model = LLMActor(proposer: LLMProposer(client: LLMClient(configuration: provider.configuration())))
        let project = try ScratchProject(Self.buggy)
        let outcome = try HealLoop(memory: nil).run(try Self.request(project, actors: [Self.uselessTemplates(), model], maxAttempts: 100))
        #expect(outcome.candidate?.actor == .llmPatch)
        let asked = outcome.attempts.filter { $0.actor == .llmPatch }.map(\.number)
        #expect(asked.count == 2)
        // Two template budgets of 8 (each overrun by at most a batch of 4), not all 30 templates first.
        #expect((asked.last ?? 99) <= 28, "model attempts \(asked)")
        #expect(provider.requests.count == 2)
    }

    @Test("a model reply equal to a template's queued proposal is judged at once, and only once")
    func modelReplyQueuedByTemplate() throws {
        let provider = try FakeLLMProvider([FakeLLMProvider.completion(Self.modelFix)])
        let model = LLMActor(proposer: LLMProposer(client: LLMClient(configuration: provider.configuration())))
        let useless = (1...29).map { n in ("comment \(n)", ["calc.py": Self.buggy["calc.py"]! + "\n# note \(n)\n"]) }
        let templates = ScriptedActor(kind: .logicRepair, rounds: [useless + [("the fix, last", ["calc.py": Self.fixedCalc])]])
        let project = try ScratchProject(Self.buggy)
        let outcome = try HealLoop(memory: nil).run(try Self.request(project, actors: [templates, model], maxAttempts: 100))
        #expect(outcome.candidate?.actor == .llmPatch)
        #expect(outcome.attempts.count <= 13, "\(outcome.attempts.count) attempts")
        #expect(!outcome.attempts.contains { $0.description == "the fix, last" })
    }

    @Test("a model reply that repeats an earlier patch is a lesson and the model is asked again")
    func repeatedReplyIsALesson() throws {
        // The first reply makes the template's proposal again.
        let same =
            "calc.py\n<<<<<<< SEARCH\ndef first(xs):\n    return xs[0]\n=======\ndef first(xs):\n    return xs[0]\n\n# note 1\n>>>>>>> REPLACE\n"
        let provider = try FakeLLMProvider([FakeLLMProvider.completion(same), FakeLLMProvider.completion(Self.modelFix)])
        let model = LLMActor(proposer: LLMProposer(client: LLMClient(configuration: provider.configuration())))
        let project = try ScratchProject(Self.buggy)
        let templates = ScriptedActor(
            kind: .logicRepair, rounds: [[("comment 1", ["calc.py": Self.buggy["calc.py"]! + "\n# note 1\n"])]])
        let outcome = try HealLoop(memory: nil).run(try Self.request(project, actors: [templates, model]))
        #expect(outcome.candidate?.actor == .llmPatch)
        let lessons = outcome.attempts.compactMap(\.lesson?.summary)
        #expect(lessons.contains("refused: the same patch as an earlier attempt; propose a different change"), "\(lessons)")
        #expect(provider.requests.count == 2)
    }

    @Test("a second heal on the same signal finds it locked; a lock left by a dead process is taken over")
    func lock() throws {
        let (memory, directory) = try Self.memory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fingerprint = Self.signal().fingerprint
        try memory.acquireLock(fingerprint, pid: 1)  // init is always alive
        let project = try ScratchProject(Self.buggy)
        do {
            _ = try HealLoop(memory: memory).run(try Self.request(project, actors: []))
            Issue.record("a locked signal was healed")
        } catch let error as SentinelError {
            #expect(error.code == .healBusy)
            #expect(error.exitStatus == 1)
            #expect(error.message.contains("another heal (pid 1"))
        }
        memory.releaseLock(fingerprint, pid: 1)
        // A pid that cannot exist (beyond pid_max) holds it: stale, taken over.
        try memory.acquireLock(fingerprint, pid: 4_999_999)
        try memory.acquireLock(fingerprint)
        memory.releaseLock(fingerprint)
    }
}

@Suite("Heal memory")
struct HealMemoryTests {
    @Test("a file that is not a database is reported with exit status 2 and left as it was")
    func corrupt() throws {
        let directory = try ScratchDirectory.make(prefix: "heal-memory")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/heal.sqlite"
        let garbage = Data(repeating: 0x41, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: path))
        do {
            _ = try HealMemory(path: path)
            Issue.record("opened a corrupt memory")
        } catch let error as SentinelError {
            #expect(error.exitStatus == 2)
            #expect(error.message.hasPrefix("\(path): heal memory is damaged or not a database"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test("forget removes a record; unverified attempts never raise an actor's rate")
    func forgetAndPoisoning() throws {
        let directory = try ScratchDirectory.make(prefix: "heal-memory")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let memory = try HealMemory(path: directory + "/heal.sqlite")
        let signal = Signal(kind: .finding, source: "sarif", message: "m", ruleId: "python.yaml-load")
        func attempt(_ verdict: Verdict) -> Attempt {
            Attempt(
                number: 1, actor: .ruleFix, description: "d", strategy: "fix-template", patchHash: "h", patch: "p",
                size: 1, verdict: verdict, lesson: nil, verifications: [], rescan: nil, notes: [])
        }
        #expect(try memory.successShare(of: .ruleFix) == nil, "no history: no share")
        let repository = "https://example.com/app"
        for verdict in [Verdict.failed, .rejected, .flaky] { try memory.record(attempt(verdict), for: signal, repository: repository) }
        #expect(try memory.successRate(of: .ruleFix).verified == 0)
        let id = try memory.record(attempt(.verified), for: signal, repository: repository)
        let rate = try memory.successRate(of: .ruleFix)
        #expect(rate.verified == 1 && rate.total == 3)
        #expect(try memory.successShare(of: .ruleFix) == 1.0 / 3)
        #expect(try memory.similar(to: signal, repository: repository).first?.id == id)
        #expect(try memory.forget(id: id))
        #expect(try !memory.forget(id: id))
        #expect(try memory.successRate(of: .ruleFix).verified == 0)
        #expect(try memory.record(id: id) == nil)
    }
}

/// Hostile inputs round 4, H11, end to end: the campaign's reply adds `.pytest.ini`
/// (`pythonpath = stub`) and a stand-in module, and on 7f222c6 the unchanged bug was proposed as a
/// verified fix. The reply is refused before it runs, with the reason, and no candidate is made.
@Suite(.enabled(if: TestHost.canSandbox, "runs the project's tests in the sandbox: needs root and user namespaces"))
struct StandInModuleTests {
    @Test("a reply that points pytest at a stand-in module through .pytest.ini is refused, not verified")
    func pytestIniStandInIsRefused() throws {
        let project = try ScratchProject([
            "pyproject.toml": "[tool.pytest.ini_options]\npythonpath = [\".\"]\n",
            "calc.py": "def mean(xs):\n    return sum(xs) / (len(xs) - 1)\n",
            "tests/test_calc.py": "from calc import mean\n\n\ndef test_mean():\n    assert mean([2, 4]) == 3\n",
        ])
        let reply = """
            .pytest.ini
            <<<<<<< SEARCH
            =======
            [pytest]
            pythonpath = stub
            >>>>>>> REPLACE

            stub/calc.py
            <<<<<<< SEARCH
            =======
            def mean(xs):
                return sum(xs) / len(xs)
            >>>>>>> REPLACE

            """
        let provider = try FakeLLMProvider([FakeLLMProvider.completion(reply)])
        let model = LLMActor(proposer: LLMProposer(client: LLMClient(configuration: provider.configuration())))
        var request = try HealLoopTests.request(project, actors: [model], maxAttempts: 1)
        request.signals = [
            Signal(
                kind: .testFailure, source: "pytest", message: "1 failing test: tests/test_calc.py::test_mean",
                failingTests: ["tests/test_calc.py::test_mean"], exceptionType: "AssertionError")
        ]
        let outcome = try HealLoop(memory: nil).run(request)
        #expect(outcome.candidate == nil)
        let lessons = outcome.attempts.compactMap(\.lesson?.summary)
        #expect(
            lessons.contains { $0.contains(".pytest.ini") }, "\(lessons)")
    }
}
