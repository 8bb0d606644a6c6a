import Foundation
import Git
import Sandbox
import Support
import TestSupport
import ScanCore
import Testing

@testable import Heal
@testable import LLM
@testable import Signals

@Suite("Manifest bumps")
struct ManifestBumpTests {
    @Test(
        "only the version text changes; operator, extras, markers, comments and spacing stay",
        arguments: [
            ("requirements.txt", "pyyaml==5.3.1\n", "pyyaml==5.4\n"),
            (
                "requirements.txt", "# deps\nPyYAML == 5.3.1   # parsing\nrequests==2.31.0\n",
                "# deps\nPyYAML == 5.4   # parsing\nrequests==2.31.0\n"
            ),
            (
                "requirements.txt", "PyYAML[libyaml]==5.3.1 ; python_version >= \"3.8\"\n",
                "PyYAML[libyaml]==5.4 ; python_version >= \"3.8\"\n"
            ),
            ("requirements.txt", "pyyaml~=5.3.1\n", "pyyaml~=5.4\n"),
            ("requirements.txt", "pyyaml~=5.3.0\n", "pyyaml~=5.4\n"),
            ("requirements.in", "pyyaml>=5.3.1,<6\n", "pyyaml>=5.4,<6\n"),
            (
                "pyproject.toml", "dependencies = [\n  \"pyyaml==5.3.1\",\n  \"other==5.3.1\",\n]\n",
                "dependencies = [\n  \"pyyaml==5.4\",\n  \"other==5.3.1\",\n]\n"
            ),
            ("pyproject.toml", "[tool.poetry.dependencies]\npyyaml = \"5.3.1\"\n", "[tool.poetry.dependencies]\npyyaml = \"5.4\"\n"),
            ("Pipfile", "[packages]\npyyaml = \"==5.3.1\"\n", "[packages]\npyyaml = \"==5.4\"\n"),
        ])
    func rewrites(path: String, before: String, after: String) throws {
        let result = try #require(ManifestBump.bump(before, path: path, package: "PyYAML", from: "5.3.1", to: "5.4"))
        #expect(result.text == after)
        #expect(result.notes.isEmpty)
    }

    @Test("versions that only contain the installed one, and other packages, are left alone")
    func wholeVersionsOnly() {
        #expect(ManifestBump.bump("pyyaml==5.3.10\n", path: "requirements.txt", package: "pyyaml", from: "5.3.1", to: "5.4") == nil)
        #expect(ManifestBump.bump("pyyamlx==5.3.1\n", path: "requirements.txt", package: "pyyaml", from: "5.3.1", to: "5.4") == nil)
        #expect(ManifestBump.bump("# pyyaml==5.3.1\n", path: "requirements.txt", package: "pyyaml", from: "5.3.1", to: "5.4") == nil)
    }

    @Test("hashes it cannot recompute are kept and flagged")
    func hashes() throws {
        let text = "pyyaml==5.3.1 \\\n    --hash=sha256:aaaa \\\n    --hash=sha256:bbbb\nsix==1.16.0\n"
        let result = try #require(ManifestBump.bump(text, path: "requirements.txt", package: "pyyaml", from: "5.3.1", to: "5.4"))
        #expect(result.text == text.replacingOccurrences(of: "pyyaml==5.3.1", with: "pyyaml==5.4"))
        #expect(result.notes.count == 1)
        #expect(result.notes[0].hasPrefix("requirements.txt:1: the --hash values of pyyaml pin 5.3.1 and were not recomputed"))
    }

    @Test("lockfiles: the package's own block, hashes flagged")
    func lockfiles() throws {
        let poetry = "[[package]]\nname = \"six\"\nversion = \"5.3.1\"\n\n[[package]]\nname = \"PyYAML\"\nversion = \"5.3.1\"\nfiles = []\n"
        let bumped = try #require(ManifestBump.bump(poetry, path: "poetry.lock", package: "pyyaml", from: "5.3.1", to: "5.4"))
        #expect(
            bumped.text
                == poetry.replacingOccurrences(of: "name = \"PyYAML\"\nversion = \"5.3.1\"", with: "name = \"PyYAML\"\nversion = \"5.4\""))
        #expect(bumped.notes.first?.contains("not recomputed") == true)
        let pipfile = "{\n  \"default\": {\n    \"pyyaml\": {\n      \"hashes\": [],\n      \"version\": \"==5.3.1\"\n    }\n  }\n}\n"
        let locked = try #require(ManifestBump.bump(pipfile, path: "Pipfile.lock", package: "pyyaml", from: "5.3.1", to: "5.4"))
        #expect(locked.text.contains("\"version\": \"==5.4\""))
    }

    @Test("the smallest fixed version at or above the installed one comes first")
    func targets() {
        #expect(
            DependencyBumpActor.targets(installed: "1.0.1", fixed: ["2.0.0", "1.0.2", "0.9.5", "1.1.0"]) == ["1.0.2", "1.1.0", "2.0.0"])
        #expect(DependencyBumpActor.targets(installed: "5.3.1", fixed: ["5.4", "5.4b1"]) == ["5.4b1", "5.4"])
        #expect(DependencyBumpActor.targets(installed: "not a version", fixed: ["1"]).isEmpty)
    }
}

@Suite("Regression guard")
struct RegressionGuardTests {
    static let source = "def area(w, h):\n    if w < 0:\n        raise ValueError(w)\n    return w * h\n"

    @Test(
        "weakening the checks is refused before anything runs",
        arguments: [
            (FileChange(path: "tests/test_a.py", before: "x", after: "y"), "edits test file tests/test_a.py"),
            (FileChange(path: "conftest.py", before: nil, after: "import pytest\n"), "edits test file conftest.py"),
            (
                FileChange(
                    path: "shapes.py", before: source,
                    after: source.replacingOccurrences(of: "    if w < 0:\n        raise ValueError(w)\n    return w * h", with: "    pass")
                ), "empties function area in shapes.py"
            ),
            (FileChange(path: "shapes.py", before: source, after: "x = 1\n"), "deletes function area in shapes.py"),
            (
                FileChange(path: "shapes.py", before: source, after: source.replacingOccurrences(of: "return w * h", with: "return (w *")),
                "shapes.py does not parse"
            ),
            (
                FileChange(
                    path: "shapes.py", before: source,
                    after: "import pytest\n"
                        + source.replacingOccurrences(of: "    return w * h", with: "    pytest.skip('x')\n    return w * h")),
                "adds `pytest.skip` to shapes.py"
            ),
        ])
    func refusals(change: FileChange, reason: String) {
        let refusal = RegressionGuard.refusal([change])
        #expect(refusal?.hasPrefix(reason) == true, "\(refusal ?? "nil")")
    }

    @Test("a JavaScript or TypeScript file left unparseable is refused; one that parses passes (issue 60)")
    func javaScriptMustParse() {
        let before = "const x = eval(input);\n"
        let broken = FileChange(path: "src/app.ts", before: before, after: "const x = (input;\n")
        #expect(RegressionGuard.refusal([broken])?.hasPrefix("src/app.ts does not parse: src/app.ts:1:") == true)
        let fine = FileChange(path: "src/app.ts", before: before, after: "const x: unknown = JSON.parse(input);\n")
        #expect(RegressionGuard.refusal([fine]) == nil)
    }

    @Test("the rule-fix actor takes native Python and JavaScript findings, not another tool's")
    func ruleFixTakesNativeCodeRules() {
        let actor = RuleFixActor(ruleDirectories: [])
        #expect(actor.applies(to: Signal(kind: .finding, source: "sarif", message: "m", ruleId: "python.yaml-load")))
        #expect(actor.applies(to: Signal(kind: .finding, source: "sarif", message: "m", ruleId: "javascript.jwt-none-algorithm")))
        #expect(!actor.applies(to: Signal(kind: .finding, source: "sarif", message: "m", ruleId: "B602")))
    }

    @Test("an ordinary one-line fix passes")
    func ordinaryFix() {
        let change = FileChange(
            path: "shapes.py", before: Self.source, after: Self.source.replacingOccurrences(of: "w < 0", with: "w <= 0"))
        #expect(RegressionGuard.refusal([change]) == nil)
    }
}

@Suite("Reflector and confidence")
struct ReflectorTests {
    static func run(exit: Int32, passed: [String], failed: [String], details: [String] = []) -> Verification {
        var report = PytestReport(output: "")
        report.passed = passed
        report.failed = failed
        report.counts = ["passed": passed.count, "failed": failed.count].filter { $0.value > 0 }
        report.failures = failed.map {
            PytestReport.Failure(test: $0, message: details.first ?? "", details: details, locations: [], exceptionType: "AssertionError")
        }
        return Verification(
            command: "pytest", exitCode: exit, reason: .exited, commandMilliseconds: 100, totalMilliseconds: 110,
            cpuMilliseconds: 90, peakMemoryBytes: nil, tests: report, outputTail: "")
    }

    static let signal = Signal(kind: .testFailure, source: "pytest", message: "m", failingTests: ["t::a"])
    static let baseline = run(exit: 1, passed: ["t::b", "t::c"], failed: ["t::a"], details: ["assert 1 == 2"])

    @Test("a fix that keeps everything passing passes; a regression, a still-failing test or fewer tests fail")
    func judge() {
        #expect(
            Reflector.judge(
                signal: Self.signal, baseline: Self.baseline, run: Self.run(exit: 0, passed: ["t::a", "t::b", "t::c"], failed: []),
                rescan: nil
            ).passed)
        let regressed = Reflector.judge(
            signal: Self.signal, baseline: Self.baseline, run: Self.run(exit: 1, passed: ["t::a", "t::b"], failed: ["t::c"]), rescan: nil)
        #expect(!regressed.passed)
        #expect(regressed.lesson?.newlyFailing == ["t::c"])
        let still = Reflector.judge(
            signal: Self.signal, baseline: Self.baseline,
            run: Self.run(exit: 1, passed: ["t::b", "t::c"], failed: ["t::a"], details: ["assert 3 == 2"]), rescan: nil)
        #expect(still.lesson?.stillFailing == ["t::a"])
        #expect(still.lesson?.expectedActual == ["assert 3 == 2"])
        #expect(still.lesson?.summary == "still failing: t::a (assert 3 == 2)")
        let fewer = Reflector.judge(
            signal: Self.signal, baseline: Self.baseline, run: Self.run(exit: 0, passed: ["t::a", "t::b"], failed: []), rescan: nil)
        #expect(fewer.lesson?.summary.hasPrefix("breaks previously passing tests: t::c") == true)
        let dirty = Rescan(tool: "native", ruleFindingsBefore: 1, ruleFindingsAfter: 1, findingsBefore: 1, findingsAfter: 1)
        let finding = Signal(kind: .finding, source: "sarif", message: "m", ruleId: "python.x")
        let green = Self.run(exit: 0, passed: ["t::a"], failed: [])
        #expect(
            Reflector.judge(signal: finding, baseline: green, run: green, rescan: dirty).lesson?.summary
                == "the native re-scan still reports python.x")
    }

    @Test("confidence grows with evidence and shrinks with patch size; it stays in [0, 1]")
    func confidence() {
        let small = CandidateConfidence.compute(
            actor: .ruleFix, verifiedRuns: 2, ranTests: true, signalGone: true, changedLines: 2, memory: (0, 0))
        let large = CandidateConfidence.compute(
            actor: .ruleFix, verifiedRuns: 2, ranTests: true, signalGone: true, changedLines: 40, memory: (0, 0))
        let llm = CandidateConfidence.compute(
            actor: .llmPatch, verifiedRuns: 2, ranTests: true, signalGone: true, changedLines: 2, memory: (0, 0))
        let proven = CandidateConfidence.compute(
            actor: .ruleFix, verifiedRuns: 2, ranTests: true, signalGone: true, changedLines: 2, memory: (20, 20))
        #expect(small.value == 0.95)
        #expect(large.value < small.value)
        #expect(llm.value < small.value)
        #expect(proven.value > small.value)
        #expect(proven.value <= 1 && large.value >= 0)
        #expect(small.inputs["memory"] == 0)
    }
}

@Suite("Heal output")
struct HealOutputTests {
    @Test("--out is replaced whole when it holds a previous heal's files, refused when it holds anything else")
    func replaceOrRefuse() throws {
        let root = try ScratchDirectory.make(prefix: "heal-out")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let signal = Signal(kind: .logError, source: "json-log", message: "boom")
        let outcome = HealOutcome(
            signal: signal, baseline: nil, attempts: [], candidate: nil, stopReason: .exhausted, notes: [],
            totalMilliseconds: 1, verificationMilliseconds: 0, sandboxOverheadMilliseconds: 0, memory: [])
        let request = HealRequest(repository: root, signals: [signal], verify: "true", profile: .minimal, actors: [])
        let evidence = Evidence(outcome: outcome, request: request)
        try HealOutput.write(to: root + "/out", patch: "diff\n", evidence: evidence)
        try HealOutput.write(to: root + "/out", patch: nil, evidence: evidence)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/out") == ["evidence.json"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["out"])
        try "keep".write(toFile: root + "/out/mine.txt", atomically: false, encoding: .utf8)
        #expect(throws: SentinelError.self) { try HealOutput.write(to: root + "/out", patch: nil, evidence: evidence) }
        #expect(FileManager.default.fileExists(atPath: root + "/out/mine.txt"))
    }

    @Test("pip-audit JSON gives one vulnerable-dependency signal per vulnerability")
    func pipAudit() throws {
        let text = """
            {"dependencies": [{"name": "pyyaml", "version": "5.3.1", "vulns": [{"id": "PYSEC-2021-142", "fix_versions": ["5.4"], "aliases": ["CVE-2020-14343"]}]}, {"name": "six", "version": "1.16.0", "vulns": []}]}
            """
        let signals = try SignalReader.read(Data(text.utf8), name: "audit.json")
        #expect(signals.count == 1)
        #expect(signals[0].kind == .vulnerableDependency)
        #expect(signals[0].dependency?.fixedVersions == ["5.4"])
        #expect(signals[0].dependency?.advisories == ["PYSEC-2021-142", "CVE-2020-14343"])
    }
}

@Suite(
    "LLM actor in the loop", .serialized,
    .enabled(if: TestHost.canSandbox, "verifies candidates in the sandbox: needs root and user namespaces"))
struct LLMActorLoopTests {
    @Test("a reply that does not apply becomes a lesson the next round is told; the next reply is verified")
    func lessonsReachTheModel() throws {
        let project = try ScratchProject(ScratchProject.buggyMean)
        let bad = "calc.py\n<<<<<<< SEARCH\nthis text is not in the file\n=======\nx\n>>>>>>> REPLACE\n"
        let good =
            "The mean divides by the count, not one less.\n"
            + "calc.py\n<<<<<<< SEARCH\n    return sum(xs) / (len(xs) - 1)\n=======\n    return sum(xs) / len(xs)\n>>>>>>> REPLACE\n"
        let provider = try FakeLLMProvider([FakeLLMProvider.completion(bad), FakeLLMProvider.completion(good)])
        let actor = LLMActor(proposer: LLMProposer(client: LLMClient(configuration: provider.configuration(key: "sk-test-secret"))))
        let request = HealRequest(
            repository: project.path, signals: [HealLoopTests.signal()], verify: "python3 -m pytest -q",
            profile: try ProfileStore.standard(syntax: .yaml).resolve("fix-verify"), actors: [actor], maxAttempts: 5, maxSeconds: 300,
            jobs: 1)
        let outcome = try HealLoop(memory: nil).run(request)
        let candidate = try #require(outcome.candidate)
        #expect(candidate.actor == .llmPatch)
        // The model's own words travel with the candidate, for the pull request to quote.
        #expect(candidate.rationale == "The mean divides by the count, not one less.")
        #expect(outcome.attempts.map(\.verdict) == [.rejected, .verified])
        #expect(outcome.attempts[0].lesson?.summary.hasPrefix("refused: the model's reply could not be used") == true)
        #expect(provider.requests.count == 2)
        let second = String(decoding: provider.requests[1].body, as: UTF8.self)
        #expect(second.contains("could not be used"))
        #expect(provider.requests[1].headers["authorization"] == "Bearer sk-test-secret")
        let evidence = String(decoding: try Evidence(outcome: outcome, request: request).json(), as: UTF8.self)
        #expect(!evidence.contains("sk-test-secret"))
    }
}

extension LLMActorLoopTests {
    @Test("the model sees the localised function whole and where the code calls it")
    func functionAndCallers() throws {
        var files = ScratchProject.buggyMean
        files["calc.py"]! += "\n\ndef report(xs):\n    return 'mean %s' % mean(xs)\n"
        let project = try ScratchProject(files)
        let fix = "calc.py\n<<<<<<< SEARCH\n    return sum(xs) / (len(xs) - 1)\n=======\n    return sum(xs) / len(xs)\n>>>>>>> REPLACE\n"
        let provider = try FakeLLMProvider([FakeLLMProvider.completion(fix)])
        let actor = LLMActor(proposer: LLMProposer(client: LLMClient(configuration: provider.configuration(key: "sk-test"))))
        let request = HealRequest(
            repository: project.path, signals: [HealLoopTests.signal()], verify: "python3 -m pytest -q",
            profile: try ProfileStore.standard(syntax: .yaml).resolve("fix-verify"), actors: [actor], maxAttempts: 2, maxSeconds: 300,
            jobs: 1)
        #expect(try HealLoop(memory: nil).run(request).candidate != nil)
        let body = String(decoding: try #require(provider.requests.first).body, as: UTF8.self)
        #expect(body.contains("### calc.py (lines 1-2)"), "\(body)")
        #expect(body.contains("% mean(xs)"), "\(body)")
    }
}

@Suite("Reply explanation")
struct ReplyExplanationTests {
    @Test("the prose around edit blocks is the explanation; paths, blocks, fences and diffs are not")
    func prose() {
        let blocks = "calc.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
        #expect(ReplyExplanation.text(of: "Start at 2.\n" + blocks) == "Start at 2.")
        #expect(ReplyExplanation.text(of: blocks + "\nThe loop starts one too early.\n") == "The loop starts one too early.")
        #expect(ReplyExplanation.text(of: blocks) == nil)
        #expect(ReplyExplanation.text(of: "```diff\n--- a/calc.py\n+++ b/calc.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n```\n") == nil)
        #expect(ReplyExplanation.text(of: String(repeating: "why ", count: 400))?.count == ReplyExplanation.maximumLength)
    }
}

@Suite("Change coverage")
struct ChangeCoverageTests {
    @Test("added source lines are covered when a test executed them; tests and non-Python files are not measured")
    func measure() throws {
        let patch = try GitPatch.diff([
            FileChange(path: "calc.py", before: "a = 1\nb = 2\n", after: "a = 1\nb = 3\nc = 4\n"),
            FileChange(path: "tests/test_calc.py", before: "x = 1\n", after: "x = 2\n"),
            FileChange(path: "requirements.txt", before: "pyyaml==5.3\n", after: "pyyaml==5.4\n"),
        ])
        let coverage = try #require(ChangeCoverage.measure(patch: patch, executed: [SourceLine(file: "calc.py", line: 2)]))
        #expect(coverage.covered == 1)
        #expect(coverage.total == 2)
        #expect(coverage.uncovered == ["calc.py:3"])
        #expect(coverage.fraction == 0.5)
        let pinOnly = try GitPatch.diff([FileChange(path: "requirements.txt", before: "a==1\n", after: "a==2\n")])
        #expect(ChangeCoverage.measure(patch: pinOnly, executed: []) == nil)
    }
}
