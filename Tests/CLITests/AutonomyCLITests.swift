import Autonomy
import Foundation
import Store
import Synchronization
import Testing
import TestSupport

/// The whole path as a user runs it: heal --level proposer leaves a reviewable proposal,
/// `proposals approve` turns it into a commit on a branch, `audit verify` passes; a malformed
/// policy stops everything with exit 2.
@Suite(
    "autonomy CLI", .serialized,
    .enabled(if: TestHost.canSandbox && PythonHost.hasPytest, "heals in the sandbox: needs root, user namespaces and python3-pytest"))
struct AutonomyCLITests {
    @Test("heal --level proposer → proposals list/show → approve --dry-run → approve → a commit on a branch; the log verifies")
    func proposeThenApprove() throws {
        let scratch = try HealCLITests.Scratch(fixture: "sast-yaml-load")
        let report = scratch.root + "/report.sarif"
        _ = try CLI.run(["scan", scratch.repo, "--format", "sarif", "--output", report], environment: scratch.environment)
        let before = try scratch.tree()
        let heal = try CLI.run(
            [
                "heal", "--signal", report, "--repo", scratch.repo, "--verify", "python3 -m pytest -q", "--level", "proposer",
                "--out", scratch.out,
            ], environment: scratch.environment, timeout: 600)
        #expect(heal.status == 0, "\(heal.stdout)\(heal.stderr)")
        #expect(heal.stdout.contains("autonomy: proposer; decided by requested\n"))
        #expect(heal.stdout.contains("no rule covers"))
        #expect(try scratch.tree() == before, "proposer writes only the proposal")
        #expect(FileManager.default.fileExists(atPath: scratch.out + "/patch.diff"))

        let list = try CLI.run(["proposals", "list"], environment: scratch.environment)
        #expect(list.status == 0)
        let line = try #require(list.stdout.split(separator: "\n").first)
        let id = String(line.split(separator: " ")[0])
        #expect(line.contains("  pending  "))
        #expect(line.contains("sentinel/fix/python.yaml-load-"))

        let show = try CLI.run(["proposals", "show", String(id.prefix(6))], environment: scratch.environment)
        #expect(show.status == 0)
        #expect(show.stdout.contains("status: pending"))
        #expect(show.stdout.contains("## Evidence"))
        #expect(show.stdout.contains("| Verify command | `python3 -m pytest -q` |"))
        #expect(show.stdout.contains("+    return yaml.safe_load(text)") || show.stdout.contains("yaml.safe_load("))

        let dry = try CLI.run(["proposals", "approve", id, "--dry-run"], environment: scratch.environment)
        #expect(dry.status == 0)
        #expect(dry.stdout.contains("would commit the patch of proposal \(id)"))
        #expect(try scratch.tree() == before)

        // An edited PR.md (what the pull request would say) is refused in one line naming it; restored, it passes.
        let body = scratch.home + "/proposals/\(id)/PR.md"
        let original = try Data(contentsOf: URL(fileURLWithPath: body))
        try Data("Routine cleanup, merge at will.\n".utf8).write(to: URL(fileURLWithPath: body))
        let edited = try CLI.run(["proposals", "approve", id], environment: scratch.environment)
        #expect(edited.status == 2)
        #expect(
            edited.stderr == "sentinel: \(body): changed since it was proposed (its SHA-256 is not the one the approval "
                + "queue and the audit log recorded); not approved\n")
        #expect(try scratch.tree() == before)
        try original.write(to: URL(fileURLWithPath: body))

        // A malformed author is a usage error in one line, before anything is decided.
        let malformed = try CLI.run(["proposals", "approve", id, "--author", "Ada Lovelace"], environment: scratch.environment)
        #expect(malformed.status == 2)
        #expect(malformed.stderr == "sentinel: --author: 'Ada Lovelace' is not 'Name <email>'\n")
        #expect(try scratch.tree() == before)

        let approve = try CLI.run(
            ["proposals", "approve", id, "--author", "Ada Lovelace <ada@example.org>"], environment: scratch.environment)
        #expect(approve.status == 0, "\(approve.stderr)")
        #expect(approve.stdout.hasPrefix("committed "))
        let branch = try #require(
            approve.stdout.split(separator: "\n").first?.split(separator: " ").dropFirst(4).first.map(String.init))
        let shown = try CLI.runProgram("/usr/bin/git", ["-C", scratch.repo, "log", "-1", "--format=%B", branch])
        #expect(shown.stdout.contains("Sentinel-Proposal: \(id)"))
        // The reviewer wrote the change; Sentinel committed it.
        let people = try CLI.runProgram("/usr/bin/git", ["-C", scratch.repo, "log", "-1", "--format=%an <%ae>|%cn <%ce>", branch])
        #expect(people.stdout == "Ada Lovelace <ada@example.org>|sentinel <sentinel@localhost>\n", "\(people.stdout)")
        let again = try CLI.run(["proposals", "approve", id], environment: scratch.environment)
        #expect(again.status == 2)
        #expect(again.stderr.hasPrefix("sentinel: proposal \(id) is already applied"))

        let verify = try CLI.run(["audit", "verify"], environment: scratch.environment)
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.hasPrefix("audit log intact: "))
    }

    @Test("approve without --author: the commit is authored as git's user.name and user.email for the repository")
    func approveAuthorsAsGitsIdentity() throws {
        let scratch = try HealCLITests.Scratch(fixture: "sast-yaml-load")
        for (key, value) in [("user.name", "Grace Hopper"), ("user.email", "grace@example.org")] {
            _ = try CLI.runProgram("/usr/bin/git", ["-C", scratch.repo, "config", key, value])
        }
        let report = scratch.root + "/report.sarif"
        _ = try CLI.run(["scan", scratch.repo, "--format", "sarif", "--output", report], environment: scratch.environment)
        let heal = try CLI.run(
            ["heal", "--signal", report, "--repo", scratch.repo, "--verify", "python3 -m pytest -q", "--level", "proposer"],
            environment: scratch.environment, timeout: 600)
        #expect(heal.status == 0, "\(heal.stdout)\(heal.stderr)")
        let list = try CLI.run(["proposals", "list"], environment: scratch.environment)
        let id = try #require(list.stdout.split(separator: " ").first.map(String.init))
        var environment = scratch.environment
        environment.removeValue(forKey: "GIT_AUTHOR_NAME")
        environment.removeValue(forKey: "GIT_AUTHOR_EMAIL")
        let approve = try CLI.run(["proposals", "approve", id], environment: environment)
        #expect(approve.status == 0, "\(approve.stderr)")
        let branch = try #require(
            approve.stdout.split(separator: "\n").first?.split(separator: " ").dropFirst(4).first.map(String.init))
        let people = try CLI.runProgram("/usr/bin/git", ["-C", scratch.repo, "log", "-1", "--format=%an <%ae>|%cn <%ce>", branch])
        #expect(people.stdout == "Grace Hopper <grace@example.org>|sentinel <sentinel@localhost>\n", "\(people.stdout)")
    }

    @Test("a malformed policy file: exit 2 naming the file, line and key; nothing is healed or applied")
    func malformedPolicy() throws {
        let scratch = try HealCLITests.Scratch(fixture: "sast-yaml-load")
        let policy = scratch.root + "/policy.yml"
        try "rules:\n  - allow: [rule-fix]\n    pathz: [\"**\"]\n".write(toFile: policy, atomically: false, encoding: .utf8)
        let result = try CLI.run(
            [
                "heal", "--signal", "-", "--repo", scratch.repo, "--verify", "true", "--level", "actor", "--policy", policy,
            ], environment: scratch.environment)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("sentinel: \(policy):3: "))
        #expect(result.stderr.contains("pathz"))
        #expect(!FileManager.default.fileExists(atPath: scratch.home + "/audit.jsonl"))
        #expect(!FileManager.default.fileExists(atPath: scratch.home + "/autonomy.sqlite"))
    }

    @Test("two sentinel processes deciding the same queue: each proposal is decided once, the audit chain holds")
    func concurrentProcesses() throws {
        let root = try HealCLITests.Scratch.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = StateDirectory(path: root + "/home")
        try state.create()
        let store = try AutonomyStore(state: state)
        let ids = (0..<24).map { String(format: "%012x", 0xabc000 + $0) }
        for id in ids {
            try store.enqueue(
                QueuedProposal(
                    id: id, repository: root, status: .pending, created: "2026-11-23T00:00:00Z", decided: nil, reason: nil,
                    branch: "sentinel/fix/x-\(id)", title: "t", action: .ruleFix, fingerprint: "f", directory: root,
                    commit: nil, pullRequest: nil))
        }
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_HOME"] = state.path
        environment["SENTINEL_BIN"] = CLI.binary
        environment["IDS"] = ids.joined(separator: " ")
        let shared = environment
        // Both processes walk the same ids: every deny races the other process's deny of the same id.
        let script = """
            for id in $IDS; do
              if "$SENTINEL_BIN" proposals deny "$id" --reason "by $1" >/dev/null 2>&1; then echo "ok $id"; else echo "lost $id"; fi
            done
            """
        let group = DispatchGroup()
        let results = ResultBox()
        for name in ["a", "b"] {
            DispatchQueue.global().async(group: group) {
                let result = try? CLI.runProgram(
                    "/bin/sh", ["-c", script, "sh", name], environment: shared, timeout: 300)
                results.add(result?.stdout ?? "")
            }
        }
        group.wait()
        let lines = results.all.flatMap { $0.split(separator: "\n").map(String.init) }
        #expect(lines.count == 2 * ids.count)
        for id in ids {
            #expect(lines.filter { $0 == "ok \(id)" }.count == 1, "\(id) decided once")
        }
        #expect(try store.list().allSatisfy { $0.status == .denied })
        let verify = try CLI.run(["audit", "verify"], environment: environment)
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.hasPrefix("audit log intact: \(ids.count) entries"))
    }
}

/// Output of concurrent runs.
private final class ResultBox: Sendable {
    private let values = Mutex<[String]>([])
    func add(_ value: String) { values.withLock { $0.append(value) } }
    var all: [String] { values.withLock { $0 } }
}
