import Foundation
import Sandbox
import Support
import TestSupport
import Testing

@testable import Heal

/// The baseline cache (issue 79): the verify command's result on an unchanged tree is kept by
/// the tree's digest, the command and the sandbox, so a second heal of the same tree does not
/// run it again; any change to the tree, or a run that did not end by itself, runs it.
@Suite("Heal baseline cache")
struct HealBaselineCacheTests {
    static func run(reason: RunResult.Reason = .exited, exit: Int32 = 1, tail: String = "1 failed") -> Verification {
        Verification(
            command: "python3 -m pytest -q", exitCode: exit, reason: reason, commandMilliseconds: 100, totalMilliseconds: 110,
            cpuMilliseconds: 90, peakMemoryBytes: nil, tests: nil, outputTail: tail)
    }

    static func verifier(_ command: String = "python3 -m pytest -q") throws -> Verifier {
        Verifier(profile: try ProfileStore.standard(syntax: .yaml).resolve("fix-verify"), command: command)
    }

    @Test("a tree's digest changes with a byte, an executable bit or a link target, and not with where it was copied from")
    func digestFollowsContent() throws {
        let project = try ScratchProject(ScratchProject.buggyMean)
        let same = try ScratchProject(ScratchProject.buggyMean)
        let digest = try HealWorkspace(repository: project.path).digest
        #expect(digest.count == 64)
        #expect(try HealWorkspace(repository: same.path).digest == digest)
        try "def mean(xs):\n    return 0\n".write(toFile: same.path + "/calc.py", atomically: false, encoding: .utf8)
        let edited = try HealWorkspace(repository: same.path).digest
        #expect(edited != digest)
        #expect(chmod(same.path + "/calc.py", 0o755) == 0)
        let executable = try HealWorkspace(repository: same.path).digest
        #expect(executable != edited)
        #expect(symlink("calc.py", same.path + "/link.py") == 0)
        let linked = try HealWorkspace(repository: same.path).digest
        #expect(linked != executable)
        #expect(unlink(same.path + "/link.py") == 0 && symlink("tests", same.path + "/link.py") == 0)
        #expect(try HealWorkspace(repository: same.path).digest != linked)
    }

    @Test("a key holds the tree, the command, its environment and the pinned install")
    func keyParts() throws {
        let verifier = try Self.verifier()
        let key = try BaselineKey(tree: "a", verifier: verifier, install: nil)
        #expect(try BaselineKey(tree: "a", verifier: verifier, install: nil) == key)
        #expect(try BaselineKey(tree: "b", verifier: verifier, install: nil) != key)
        #expect(try BaselineKey(tree: "a", verifier: Self.verifier("pytest -x"), install: nil) != key)
        var environment = verifier
        environment.environment["FLAG"] = "1"
        #expect(try BaselineKey(tree: "a", verifier: environment, install: nil) != key)
        #expect(try BaselineKey(tree: "a", verifier: verifier, install: PackagePin(package: "pyyaml", version: "5.3")) != key)
    }

    @Test("kept: a run that ended by itself, for a day; not kept: a timeout or a failed set-up")
    func memoryKeepsFinishedRuns() throws {
        let directory = try ScratchDirectory.make(prefix: "heal-baselines")
        defer { ScratchDirectory.remove(directory) }
        let memory = try HealMemory(path: directory + "/heal.sqlite")
        let key = try BaselineKey(tree: "t", verifier: Self.verifier(), install: nil)
        #expect(try memory.baseline(key) == nil)
        let now = Date()
        try memory.rememberBaseline(key, Self.run(), output: "F..", now: now)
        let kept = try #require(try memory.baseline(key, now: now))
        #expect(kept.verification == Self.run() && kept.output == "F..")
        #expect(try memory.baseline(key, now: now.addingTimeInterval(HealMemory.baselineLifetime + 1)) == nil)
        #expect(try memory.baseline(key, now: now.addingTimeInterval(-60)) == nil)
        for reason in [RunResult.Reason.timeout, .setupFailed, .oom, .signaled] {
            let other = try BaselineKey(tree: reason.rawValue, verifier: Self.verifier(), install: nil)
            try memory.rememberBaseline(other, Self.run(reason: reason), output: "")
            #expect(try memory.baseline(other) == nil)
        }
        // A row this build cannot read is no baseline.
        try memory.withDatabase { database in
            try database.execute("UPDATE heal_baselines SET verification = '{\"not\": 1}'")
        }
        #expect(try memory.baseline(key, now: now) == nil)
    }

    @Test(
        "the second heal of the same tree takes the first one's baseline; another test limit or a changed tree runs it again",
        .enabled(if: TestHost.canSandbox, "verifies candidates in the sandbox: needs root and user namespaces"))
    func secondHealTakesTheBaseline() throws {
        let (memory, directory) = try HealLoopTests.memory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let note = "baseline: the result of an earlier heal of the same tree, command and sandbox (not run again)"
        let project = try ScratchProject(ScratchProject.buggyMean)
        let nothing = ScriptedActor(kind: .logicRepair, rounds: [])
        let first = try HealLoop(memory: memory).run(try HealLoopTests.request(project, actors: [nothing]))
        #expect(!first.notes.contains(note))
        let baseline = try #require(first.baseline)
        #expect(baseline.reason == .exited && !baseline.succeeded)
        let second = try HealLoop(memory: memory).run(try HealLoopTests.request(project, actors: [nothing]))
        #expect(second.notes.contains(note))
        #expect(second.baseline == baseline)
        // Another limit per test would fail other tests: the baseline runs again, with it.
        #expect(baseline.testCPUSeconds != nil && baseline.testCPUSeconds != 3)
        var limited = try HealLoopTests.request(project, actors: [nothing])
        limited.testCPUSeconds = 3
        let other = try HealLoop(memory: memory).run(limited)
        #expect(!other.notes.contains(note))
        #expect(other.baseline?.testCPUSeconds == 3)
        try "# another line\n".write(toFile: project.path + "/notes.py", atomically: false, encoding: .utf8)
        let changed = try HealLoop(memory: memory).run(try HealLoopTests.request(project, actors: [nothing]))
        #expect(!changed.notes.contains(note))
        #expect(changed.baseline?.reason == .exited)
    }
}
