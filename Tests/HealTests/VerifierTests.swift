import Foundation
import Git
import Sandbox
import Support
import TestSupport
import ScanCore
import Testing

@testable import Heal

/// A small Python project written to a temporary directory for one test.
final class ScratchProject {
    let path: String

    init(_ files: [String: String]) throws {
        path = try ScratchDirectory.make(prefix: "heal-project")
        for (name, content) in files {
            let file = path + "/" + name
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try content.write(toFile: file, atomically: false, encoding: .utf8)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The mean of a list, off by one in the divisor; one test fails, two pass.
    static let buggyMean: [String: String] = [
        "calc.py": "def mean(xs):\n    return sum(xs) / (len(xs) - 1)\n\n\ndef first(xs):\n    return xs[0]\n",
        "tests/test_calc.py": """
        import sys, os
        sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
        from calc import mean, first


        def test_mean():
            assert mean([2, 4]) == 3


        def test_first():
            assert first([1]) == 1


        def test_first_of_two():
            assert first([5, 6]) == 5

        """,
    ]
}

@Suite("Verifier", .enabled(if: TestHost.canSandbox, "runs the project's tests in the sandbox: needs root and user namespaces"))
struct VerifierTests {
    static func verifier(_ command: String = "python3 -m pytest -q") throws -> Verifier {
        Verifier(profile: try ProfileStore.standard(syntax: .yaml).resolve("fix-verify"), command: command)
    }

    @Test("the baseline fails one test; the fixed tree passes all three, and the snapshot is untouched")
    func baselineAndCandidate() throws {
        let project = try ScratchProject(ScratchProject.buggyMean)
        let workspace = try HealWorkspace(repository: project.path)
        #expect(workspace.files == ["calc.py", "tests/test_calc.py"])
        let verifier = try Self.verifier()
        let (baseline, _) = try verifier.run(tree: workspace.snapshot)
        #expect(!baseline.succeeded)
        #expect(baseline.exitCode == 1)
        #expect(baseline.tests?.failed == ["tests/test_calc.py::test_mean"])
        #expect(baseline.passedTests == ["tests/test_calc.py::test_first", "tests/test_calc.py::test_first_of_two"])

        let before = try #require(workspace.read("calc.py"))
        let fixed = before.replacingOccurrences(of: "(len(xs) - 1)", with: "len(xs)")
        let tree = try workspace.tree(applying: [FileChange(path: "calc.py", before: before, after: fixed)])
        defer { workspace.remove(tree) }
        let (candidate, _) = try verifier.run(tree: tree)
        #expect(candidate.succeeded)
        #expect(candidate.tests?.counts["passed"] == 3)
        #expect(workspace.read("calc.py") == before)
        #expect(try String(contentsOfFile: project.path + "/calc.py", encoding: .utf8) == before)
    }

    @Test("what the tests write stays in the sandbox's overlay")
    func writesAreDiscarded() throws {
        let project = try ScratchProject(["a.txt": "original\n"])
        let workspace = try HealWorkspace(repository: project.path)
        let verifier = try Self.verifier("echo changed > a.txt && rm -f a.txt; touch new.txt; cat a.txt 2>/dev/null; true")
        let (run, _) = try verifier.run(tree: workspace.snapshot)
        #expect(run.succeeded)
        #expect(workspace.read("a.txt") == "original\n")
        #expect(!FileManager.default.fileExists(atPath: workspace.snapshot + "/new.txt"))
    }

    @Test("the network is closed and the time limit holds")
    func limits() throws {
        let project = try ScratchProject(["x.py": ""])
        let workspace = try HealWorkspace(repository: project.path)
        let offline = try Self.verifier(
            "python3 -c \"import urllib.request; urllib.request.urlopen('http://127.0.0.1:9', timeout=5)\"")
        let (network, _) = try offline.run(tree: workspace.snapshot)
        #expect(!network.succeeded)
        let (slow, _) = try Self.verifier("sleep 60").run(tree: workspace.snapshot, timeout: 2)
        #expect(slow.reason == .timeout)
        #expect(slow.exitCode == 124)
    }
}
