import Autonomy
import Fleet
import Foundation
import Store
import Support
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 58: an approval does what `proposals approve` does. The worker holding the heal's
/// checkout commits the approved patch on a new branch (git in the sandbox; a local repository
/// is not written, the commit is made in a clone) and opens the pull request through the
/// configured publisher, here a fake GitHub on loopback; the outcome is recorded on the job.
@Suite("An approved fleet patch is committed and published", .integration)
struct ApprovalPublishTests {
    /// Runs git with a fixed identity; its trimmed standard output.
    @discardableResult
    static func git(_ arguments: [String], in directory: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", directory] + arguments
        process.environment = [
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.com", "HOME": directory, "PATH": "/usr/bin:/bin",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "git \(arguments)")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What one approved heal job left: its queue, id, recorded patch and decision, the fake GitHub,
    /// the lent repository and its head commit before the job.
    struct Run {
        var queue: JobQueue
        var id: Int64
        var patch: JobPatch
        var decision: PatchDecision
        var github: FakeGitHubServer
        var repository: String
        var head: String
    }

    /// A local repository under a root, a heal job on it waiting for approval (a stand-in for
    /// `sentinel heal` "verifies" a one-line fix), a worker publishing to a fake GitHub that
    /// `configure` may set to fail, and the approval of the recorded digest; returns after the job.
    static func approvedRun(_ configure: (FakeGitHubServer) -> Void = { _ in }) throws -> Run {
        let scratch = NSTemporaryDirectory() + "approval-publish-" + UUID().uuidString
        let root = scratch + "/repos"
        let repository = root + "/app"
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        try git(["init", "-q", "-b", "main"], in: repository)
        try "x = 1\n".write(toFile: repository + "/app.py", atomically: false, encoding: .utf8)
        try git(["add", "app.py"], in: repository)
        try git(["commit", "-q", "-m", "start"], in: repository)
        let head = try git(["rev-parse", "HEAD"], in: repository)
        let tree = try git(["rev-parse", "HEAD^{tree}"], in: repository)
        let github = try FakeGitHubServer(token: "t0ken-for-tests", commits: [head: tree], branches: ["main": head])
        configure(github)

        let url = DatabaseURL.sqlite(path: scratch + "/fleet.sqlite")
        let queue = try JobQueue(url: url)
        var spec = FleetJobSpec(kind: .heal, repository: repository, signal: "E   assert x == 2\n", verify: "true")
        spec.awaitApproval = 3600
        let id = try queue.submit(JobRequest(kind: .heal, spec: try spec.encoded(), repository: repository))
        let executable = scratch + "/fake-sentinel"
        try """
        #!/bin/sh
        out=""
        while [ $# -gt 0 ]; do [ "$1" = "--out" ] && out="$2"; shift; done
        mkdir -p "$out"
        printf -- '--- a/app.py\\n+++ b/app.py\\n@@ -1 +1 @@\\n-x = 1\\n+x = 2\\n' > "$out/patch.diff"
        printf '{"candidate":{"actor":"logic-repair","description":"set x to 2"}}' > "$out/evidence.json"
        exit 0

        """.write(toFile: executable, atomically: false, encoding: .utf8)
        #expect(chmod(executable, 0o755) == 0)

        var options = WorkerOptions(executable: executable, name: "publishing", audit: try .scratch())
        options.repositoryRoots = [root]
        options.publisher = FleetPublisher(
            repository: github.repository, config: GitHubConfig(apiURL: github.apiURL, token: "t0ken-for-tests"))
        let worker = FleetWorker(url: url, options: options, log: JSONLog(redactor: Redactor(), sink: { _ in }))
        let done = ApprovalWaitTests.start(worker)
        let deadline = Date().addingTimeInterval(300)
        while try queue.patch(of: id)?.awaiting != true, try queue.job(id)?.state != .failed, Date() < deadline { usleep(50_000) }
        let waited = try queue.job(id)
        let patch = try #require(try queue.patch(of: id), "\(String(describing: waited))")
        let decision = try queue.decide(id, digest: patch.digest, approved: true, reason: "ship it")
        while try queue.job(id)?.state == .running, Date() < deadline { usleep(50_000) }
        worker.stop.advance(to: .abandoning)
        done.wait()
        return Run(queue: queue, id: id, patch: patch, decision: decision, github: github, repository: repository, head: head)
    }

    @Test(
        "approve → branch, commit and pull request through the publisher, recorded on the job; the repository is not written",
        .enabled(if: TestHost.canSandbox, "git runs in the sandbox: needs root and user namespaces"))
    func approvalPublishes() throws {
        let run = try Self.approvedRun()
        let (queue, id, patch, github) = (run.queue, run.id, run.patch, run.github)
        #expect(try queue.job(id)?.state == .succeeded)
        let branch = "sentinel/fleet-\(id)-\(patch.digest.prefix(12))"
        let publication = try #require(try queue.patch(of: id)?.publication)
        #expect(publication.error == nil && publication.branch == branch, "\(publication)")
        let pull = try #require(github.pulls.first)
        #expect(github.pulls.count == 1 && pull.head == branch && pull.base == "main" && publication.pullRequest == pull.htmlURL)
        #expect(github.blobs.values.contains("x = 2\n") && github.refs[branch] != nil)
        #expect(pull.body.contains(patch.digest) && pull.body.contains(run.decision.approver))
        let record = try ApprovalWaitTests.record(id, queue: queue)
        let stored = try #require(record["publication"] as? [String: Any])
        #expect(stored["pullRequest"] as? String == pull.htmlURL && stored["commit"] as? String == publication.commit)
        let audited = try queue.allAuditLines().filter { $0.contains("\"event\":\"fleet.patch.published\"") }
        #expect(audited.count == 1 && audited.first?.contains(pull.htmlURL) == true && audited.first?.contains(patch.digest) == true)
        // The repository lent to the worker is read, never written: no branch, the same head.
        #expect(try Self.git(["branch", "--list"], in: run.repository) == "* main")
        #expect(try Self.git(["rev-parse", "HEAD"], in: run.repository) == run.head)
    }

    @Test(
        "a pull request GitHub refuses leaves the job succeeded with the approval, the commit, and why nothing was opened",
        .enabled(if: TestHost.canSandbox, "git runs in the sandbox: needs root and user namespaces"))
    func refusedPullRequestIsRecorded() throws {
        let run = try Self.approvedRun { $0.failPulls = 422 }
        #expect(try run.queue.job(run.id)?.state == .succeeded && run.github.pulls.isEmpty)
        let publication = try #require(try run.queue.patch(of: run.id)?.publication)
        #expect(publication.pullRequest == nil && publication.commit != nil && publication.error?.isEmpty == false, "\(publication)")
        #expect(publication.error?.contains("t0ken-for-tests") == false)
        let record = try ApprovalWaitTests.record(run.id, queue: run.queue)
        #expect(record["approval"] as? String == "approved")
        #expect(try run.queue.allAuditLines().contains { $0.contains("\"event\":\"fleet.patch.publish-failed\"") })
    }
}
