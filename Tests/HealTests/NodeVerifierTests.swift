import Foundation
import Git
import Sandbox
import Signals
import TestSupport
import Testing

@testable import Heal

/// Hostile inputs round 4, H12: for a JavaScript project nothing read the test output, so a run
/// that forced its exit status to 0 was verified. The verifier asks Node's runner for a TAP
/// report and judges by it: failures it names, or no report at all, are not verified.
@Suite(
    "Verifier: JavaScript projects",
    .enabled(if: TestHost.canSandbox, "runs the project's tests in the sandbox: needs root and user namespaces"))
struct NodeVerifierTests {
    /// `add` subtracts; the code under test turns every exit status into 0.
    static let forcedExit: [String: String] = [
        "package.json": #"{"name": "app", "scripts": {"test": "node test/math.test.js"}}"# + "\n",
        "math.js": "process.on('exit', () => { process.exitCode = 0; });\nexports.add = (a, b) => a - b;\n",
        "test/math.test.js": """
        const test = require('node:test');
        const assert = require('node:assert');
        const { add } = require('../math');
        test('adds', () => { assert.strictEqual(add(1, 2), 3); });
        test('zero', () => { assert.strictEqual(add(0, 0), 0); });

        """,
    ]

    static func verifier(_ workspace: HealWorkspace, command: String = "npm test") throws -> Verifier {
        var verifier = Verifier(profile: try ProfileStore.standard(syntax: .yaml).resolve("fix-verify"), command: command)
        verifier.readsTAP = Verifier.readsTAP(command: command, files: workspace.files)
        return verifier
    }

    @Test("a run that exits 0 while its TAP report names a failing test is not verified; the fix is")
    func forcedExitIsNotVerified() throws {
        let project = try ScratchProject(Self.forcedExit)
        let workspace = try HealWorkspace(repository: project.path)
        let verifier = try Self.verifier(workspace)
        #expect(verifier.readsTAP)
        let (run, _) = try verifier.run(tree: workspace.snapshot)
        #expect(run.exitCode == 0)
        #expect(!run.succeeded)
        #expect(run.reportProblem == nil)
        #expect(run.tests?.failed == ["adds"])
        #expect(run.tests?.passed == ["zero"])
        let signal = Signal(kind: .testFailure, source: "ci", message: "adds failed", failingTests: ["adds"])
        let judged = Reflector.judge(signal: signal, baseline: run, run: run, rescan: nil)
        #expect(!judged.passed)
        #expect(judged.lesson?.summary.hasPrefix("still failing: adds") == true, "\(judged.lesson?.summary ?? "")")

        let before = try #require(workspace.read("math.js"))
        let fixed = before.replacingOccurrences(of: "a - b", with: "a + b")
        let tree = try workspace.tree(applying: [FileChange(path: "math.js", before: before, after: fixed)])
        defer { workspace.remove(tree) }
        let (candidate, _) = try verifier.run(tree: tree)
        #expect(candidate.succeeded, "\(candidate.outputTail)")
        #expect(candidate.tests?.passed == ["adds", "zero"])
        #expect(Reflector.judge(signal: signal, baseline: run, run: candidate, rescan: nil).passed)
    }

    /// The campaign's reply: `.npmrc` `node-options=--require ./shim.js`, the shim forcing exit 0
    /// (the regression guard refuses `.npmrc` now; this is the verifier's half): the report
    /// still names the failing test, so the run is not verified.
    @Test("a shim loaded through .npmrc that forces exit 0 is not verified")
    func npmrcShimIsNotVerified() throws {
        var files = Self.forcedExit
        files["math.js"] = "exports.add = (a, b) => a - b;\n"
        files[".npmrc"] = "node-options=--require ./shim.js\n"
        files["shim.js"] = "process.on('exit', () => { process.exitCode = 0; });\n"
        let project = try ScratchProject(files)
        let workspace = try HealWorkspace(repository: project.path)
        let (run, _) = try Self.verifier(workspace).run(tree: workspace.snapshot)
        #expect(run.exitCode == 0)
        #expect(!run.succeeded)
        #expect(run.tests?.failed == ["adds"])
    }

    @Test("a JavaScript project's command that prints no report is not verified, whatever its status")
    func noReportIsNotVerified() throws {
        let project = try ScratchProject(["package.json": #"{"name": "app", "scripts": {"test": "echo all good"}}"#])
        let workspace = try HealWorkspace(repository: project.path)
        let (run, _) = try Self.verifier(workspace).run(tree: workspace.snapshot)
        #expect(run.exitCode == 0)
        #expect(!run.succeeded)
        #expect(run.reportProblem == "was not printed")
        let signal = Signal(kind: .exception, source: "log", message: "TypeError: x")
        let judged = Reflector.judge(signal: signal, baseline: run, run: run, rescan: nil)
        #expect(judged.lesson?.summary == "the verify command exits 0, but the TAP report asked for was not printed")
    }

    @Test("which commands must print a report: a JavaScript project's, unless the command is Python's")
    func whoReadsTAP() {
        let javaScript = ["package.json", "index.js"]
        #expect(Verifier.readsTAP(command: "npm test", files: javaScript))
        #expect(Verifier.readsTAP(command: "make check", files: javaScript))
        #expect(!Verifier.readsTAP(command: "python3 -m pytest -q", files: javaScript + ["app.py"]))
        #expect(!Verifier.readsTAP(command: "npm test", files: ["app.py"]))
    }
}
