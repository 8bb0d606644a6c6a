#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Store
import TestSupport
import Testing

/// Issue 58, end to end on SQLite: `fleet approve` names the patch `fleet show` printed, is refused
/// in one line (exit 2) before the patch exists, for another digest and once decided, and records
/// the operating-system account of the process, whatever `$USER` says.
@Suite("Fleet approvals bound to the patch, end to end", .integration)
struct FleetApprovalCLITests {
    /// The account of this process's effective uid, as the database records an approver on SQLite.
    static var account: String { String(cString: getpwuid(geteuid()).pointee.pw_name) }

    @Test("refused before the patch and for another digest; shown awaiting; approved under the OS account whatever USER says")
    func approveThePatchShown() throws {
        let path = NSTemporaryDirectory() + "fleet-approval-" + UUID().uuidString + "/fleet.sqlite"
        var environment = try CLI.fleetEnvironment(database: "sqlite:" + path)
        let queue = try JobQueue(url: .sqlite(path: path))
        let id = try queue.submit(JobRequest(kind: .heal, spec: "{\"kind\":\"heal\"}", repository: "repo"))
        let lease = try #require(try queue.claim(owner: "test-worker", leaseSeconds: 3600)?.lease)

        let early = try CLI.run(["fleet", "approve", String(id), "--patch", String(repeating: "a", count: 64)], environment: environment)
        #expect(early.status == 2 && early.stderr == "sentinel: job \(id): no patch recorded yet; nothing to decide\n", "\(early.stderr)")

        let patch = "--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
        let digest = try #require(
            try queue.recordPatch(
                lease, patch: patch, description: "fix x", actor: "logic-repair", evidence: "{\"ok\":true}", awaiting: true))
        try queue.recordAttempt(
            JobAttempt(jobID: id, attempt: 1, worker: "test-worker", outcome: "awaiting-approval", error: nil, log: "verifying\npassed\n"))

        let results = try CLI.run(["fleet", "results", String(id)], environment: environment)
        #expect(results.status == 1 && results.stderr.hasPrefix("sentinel: job \(id) is awaiting approval of patch \(digest.prefix(16))"))

        let shown = try CLI.run(["fleet", "show", String(id)], environment: environment)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("job \(id)  heal  awaiting approval\n"), "\(shown.stdout)")
        for line in ["patch: sha256 \(digest)", "worker: test-worker", "description: fix x", "  | passed", "+x = 2", "--- evidence"] {
            #expect(shown.stdout.contains(line + "\n"), "\(line)\n\(shown.stdout)")
        }
        let json = try CLI.run(["fleet", "show", String(id), "--format", "json"], environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["approval"] as? String == "awaiting approval" && object["state"] as? String == "running")
        #expect((object["patch"] as? [String: Any])?["digest"] as? String == digest)

        let other = try CLI.run(["fleet", "approve", String(id), "--patch", "0123456789ab"], environment: environment)
        #expect(other.status == 2 && other.stderr.split(separator: "\n").count == 1 && other.stderr.contains("is not the recorded patch"))
        let short = try CLI.run(["fleet", "approve", String(id), "--patch", String(digest.prefix(8))], environment: environment)
        #expect(short.status == 2, "\(short.stderr)")

        environment["USER"] = "security-lead"
        environment["LOGNAME"] = "security-lead"
        let approved = try CLI.run(
            ["fleet", "approve", String(id), "--patch", String(digest.prefix(12)), "--reason", "reviewed"], environment: environment)
        #expect(
            approved.status == 0 && approved.stdout == "job \(id): patch \(digest.prefix(16)) approved by \(Self.account)\n",
            "\(approved.stderr)")
        #expect(try queue.decisions(id).map(\.approver) == [Self.account])
        let audited = try queue.auditLines(chain: "operator:" + Self.account).filter { $0.contains("\"event\":\"fleet.approval\"") }
        #expect(audited.count == 1 && audited[0].contains(digest) && audited[0].contains("\"actor\":\"\(Self.account)\""))
        #expect(audited.first?.contains("security-lead") == false)

        let again = try CLI.run(["fleet", "deny", String(id), "--reason", "late"], environment: environment)
        #expect(
            again.status == 2 && again.stderr == "sentinel: job \(id): patch \(digest.prefix(16))… already approved\n", "\(again.stderr)")
        let after = try CLI.run(["fleet", "show", String(id)], environment: environment)
        #expect(
            after.stdout.contains("approval: approved\n")
                && after.stdout.contains("decision: approved \(digest.prefix(16)) by \(Self.account)"))
    }

    @Test(
        "a worker started as root: a real heal waits, fleet approve --patch wakes it, and its analysis commits the fix in a clone and opens the pull request on a fake GitHub",
        .enabled(
            if: TestHost.canSandbox && PythonHost.hasPytest && PostgresServer.available,
            "runs pytest in the sandbox: needs root, user namespaces, python3-pytest and PostgreSQL"))
    func rootWorkerPublishesTheApprovedFix() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let scratch = try HealCLITests.Scratch(fixture: "logic-binary-search")
        let signal = try scratch.pytestSignal()
        let head = try CLI.runProgram("/usr/bin/git", ["-C", scratch.repo, "rev-parse", "HEAD"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let tree = try CLI.runProgram("/usr/bin/git", ["-C", scratch.repo, "rev-parse", "HEAD^{tree}"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let github = try FakeGitHubServer(token: "fleet-t0ken", commits: [head: tree], branches: ["main": head])
        var environment = try CLI.fleetEnvironment(database: database)
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let submitted = try CLI.run(
            [
                "fleet", "submit", "heal", "--signal", signal, "--repo", scratch.repo, "--verify", "python3 -m pytest -q",
                "--await-approval", "20m",
            ], environment: environment)
        let id = try #require(Int64(submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(submitted.stderr)")
        var workerEnvironment = environment
        workerEnvironment["FLEET_PR_TOKEN"] = "fleet-t0ken"
        let worker = try FleetProcess(
            [
                "worker", "--repository-root", scratch.root, "--github-repository", github.repository, "--github-api", github.apiURL,
                "--github-token-env", "FLEET_PR_TOKEN",
            ], environment: workerEnvironment)
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        #expect(eventually(timeout: 900) { !worker.events("job.awaiting_approval").isEmpty })
        let digest = try #require(try queue.patch(of: id)?.digest)
        #expect(worker.events("job.awaiting_approval").first?["patch"] as? String == digest)
        let approved = try CLI.run(["fleet", "approve", String(id), "--patch", String(digest.prefix(12))], environment: environment)
        #expect(approved.status == 0, "\(approved.stderr)")
        #expect(try eventually(timeout: 900) { try queue.job(id)?.state == .succeeded })
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0)

        let publication = try #require(try queue.patch(of: id)?.publication)
        let pull = try #require(github.pulls.first, "\(publication)")
        #expect(
            publication.error == nil && publication.pullRequest == pull.htmlURL && pull.head == "sentinel/fleet-\(id)-\(digest.prefix(12))")
        #expect(github.blobs.values.contains { $0.contains("while lo <= hi:") })
        let shown = try CLI.run(["fleet", "show", String(id)], environment: environment)
        #expect(
            shown.stdout.contains("pull request: \(pull.htmlURL)\n") && shown.stdout.contains("approval: approved\n"), "\(shown.stdout)")
        // The lent repository is not written: its one branch, its head.
        let branches = try CLI.runProgram("/usr/bin/git", ["-C", scratch.repo, "branch", "--format=%(refname:short)"]).stdout
        #expect(branches.split(separator: "\n").count == 1, "\(branches)")
        #expect(try CLI.runProgram("/usr/bin/git", ["-C", scratch.repo, "rev-parse", "HEAD"]).stdout.hasPrefix(head))
    }

    @Test("init-db on SQLite says it needs none")
    func initDatabaseOnSQLite() throws {
        let path = NSTemporaryDirectory() + "fleet-initdb-" + UUID().uuidString + "/fleet.sqlite"
        let environment = try CLI.fleetEnvironment(database: "sqlite:" + path)
        let result = try CLI.run(["fleet", "init-db"], environment: environment)
        #expect(result.status == 2 && result.stderr.contains("SQLite has no database roles"), "\(result.stderr)")
    }

    @Test(
        "on PostgreSQL, fleet show and fleet approve work as a login role in sentinel_approver and record that role; a submitter's approve is denied"
    )
    func approveAsAnApproverRole() throws {
        guard PostgresServer.available else { return }
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let name = PostgresServer.databaseName(database)
        #expect(try CLI.run(["fleet", "init-db"], environment: try CLI.fleetEnvironment(database: database)).status == 0)
        let suffix = String(UUID().uuidString.prefix(8)).lowercased()
        func login(_ role: String, _ group: String) throws -> String {
            try CLI.postgresLogin(role, in: group, server: server, database: name)
        }
        let submitter = try login("sub_\(suffix)", "sentinel_submitter")
        let worker = try login("wrk_\(suffix)", "sentinel_worker")
        let approver = try login("ann_\(suffix)", "sentinel_approver")
        let id = try JobQueue(url: DatabaseURL(parsing: submitter)).submit(JobRequest(kind: .heal, spec: "{}", repository: "repo"))
        let workers = try JobQueue(url: DatabaseURL(parsing: worker))
        let lease = try #require(try workers.claim(owner: "w", leaseSeconds: 3600)?.lease)
        let digest = try #require(try workers.recordPatch(lease, patch: "p\n", description: nil, actor: nil, evidence: nil, awaiting: true))

        var environment = try CLI.fleetEnvironment(database: approver)
        environment["USER"] = "security-lead"
        let shown = try CLI.run(["fleet", "show", String(id)], environment: environment)
        #expect(
            shown.status == 0 && shown.stdout.contains("patch: sha256 \(digest)\n") && shown.stdout.contains("by sub_\(suffix)"),
            "\(shown.stderr)")
        let denied = try CLI.run(
            ["fleet", "approve", String(id), "--patch", digest], environment: try CLI.fleetEnvironment(database: submitter))
        #expect(denied.status != 0 && denied.stderr.contains("permission denied"), "\(denied.stderr)")
        let approved = try CLI.run(["fleet", "approve", String(id), "--patch", digest, "--reason", "ok"], environment: environment)
        #expect(
            approved.status == 0 && approved.stdout == "job \(id): patch \(digest.prefix(16)) approved by ann_\(suffix)\n",
            "\(approved.stderr)")
        #expect(try workers.decision(id, digest: digest)?.approver == "ann_\(suffix)")
    }

    @Test("init-db on PostgreSQL makes the four roles, and a second run is no error")
    func initDatabaseOnPostgres() throws {
        guard PostgresServer.available else { return }
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        for _ in 0..<2 {
            let result = try CLI.run(["fleet", "init-db"], environment: environment)
            #expect(result.status == 0 && result.stdout.contains("sentinel_approver"), "\(result.stderr)")
        }
        let roles = try server.psql(
            "SELECT string_agg(rolname, ',' ORDER BY rolname) FROM pg_roles WHERE rolname LIKE 'sentinel\\_%' AND NOT rolcanlogin")
        #expect(roles.contains("sentinel_approver,sentinel_reader,sentinel_submitter,sentinel_worker"), "\(roles)")
    }
}
