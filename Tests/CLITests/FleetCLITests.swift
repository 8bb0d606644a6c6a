#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Store
import TestSupport
import Testing

/// `sentinel fleet` end to end (issue 32): real worker and scheduler processes, real scans, and a
/// throwaway PostgreSQL server the tests start, kill and restart.
@Suite(
    "Fleet mode, end to end", .serialized,
    .needsPostgres)
struct FleetCLITests {
    static let scanOptions = ["--tools", "native,secrets"]
    /// The tests' repositories are temporary directories: a worker runs a local repository only
    /// under a `--repository-root`.
    static let roots = ["--repository-root", CLI.fleetRepositories]

    /// Submits a scan of `project` and returns its id.
    static func submit(_ project: String, environment: [String: String], extra: [String] = []) throws -> Int64 {
        let submitted = try CLI.run(["fleet", "submit", "scan", project] + extra + scanOptions, environment: environment)
        #expect(submitted.status == 0, "\(submitted.stderr)")
        return try #require(Int64(submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("the CLI contract: submit prints the id, status --format json the counts, results the report as scan prints it")
    func contract() throws {
        let database = "sqlite:" + NSTemporaryDirectory() + "fleet-" + UUID().uuidString + "/fleet.sqlite"
        let environment = try CLI.fleetEnvironment(database: database)
        let project = try CLI.fleetProject()
        let id = try Self.submit(project, environment: environment)
        let status = try CLI.run(["fleet", "status", "--format", "json"], environment: environment)
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Int])
        #expect(counts == ["queued": 1, "running": 0, "succeeded": 0, "failed": 0, "dead": 0, "cancelled": 0])
        let pending = try CLI.run(["fleet", "results", String(id)], environment: environment)
        #expect(pending.status == 1 && pending.stderr == "sentinel: job \(id) is queued: no result\n")

        let worker = try FleetProcess(["worker", "--concurrency", "2"] + Self.roots, environment: environment)
        #expect(try eventually(timeout: 120) { try JobQueue(url: DatabaseURL(parsing: database)).counts().succeeded == 1 })
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0)
        #expect(worker.events("job.succeeded").first?["job"] as? Int == Int(id))
        // The scan ran on the worker's descriptor of the project; the record names the project.
        let stored = try #require(try JobQueue(url: DatabaseURL(parsing: database)).result(id))
        let record = try #require(try JSONSerialization.jsonObject(with: Data(stored.report.utf8)) as? [String: Any])
        #expect(record["directory"] as? String == URL(fileURLWithPath: project).resolvingSymlinksInPath().path)

        let direct = try CLI.run(["scan", project, "--format", "json"] + Self.scanOptions, environment: environment)
        let fleet = try CLI.run(["fleet", "results", String(id), "--format", "json"], environment: environment)
        #expect(fleet.status == 0, "\(fleet.stderr)")
        func fingerprints(_ json: String) throws -> [String] {
            let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            return try #require(report["findings"] as? [[String: Any]]).compactMap { $0["fingerprint"] as? String }.sorted()
        }
        let expected = try fingerprints(direct.stdout)
        let fromFleet = try fingerprints(fleet.stdout)
        #expect(!expected.isEmpty && fromFleet == expected)
        let sarif = try CLI.run(["fleet", "results", String(id), "--format", "sarif"], environment: environment)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect(log["version"] as? String == "2.1.0" && (run["results"] as? [Any])?.count == expected.count)
    }

    @Test(
        "a job carries only allowed options: nothing naming a file of the worker's, nothing the worker sets, no second path",
        arguments: [
            ["--config", "/etc/shadow"], ["--baseline=/etc/passwd"], ["--output", "x"], ["--sarif-root", "/"],
            ["--tools", "native", "/etc"],
            ["--quiet", "/etc"],
        ])
    func refusedOptions(_ options: [String]) throws {
        let environment = try CLI.fleetEnvironment(
            database: "sqlite:" + NSTemporaryDirectory() + "fleet-" + UUID().uuidString + "/f.sqlite")
        let result = try CLI.run(["fleet", "submit", "scan", try CLI.fleetProject()] + options, environment: environment)
        #expect(result.status == 2)
        let refused =
            options.last == "/etc"
            ? "sentinel: '/etc': a fleet job's options hold no paths; name the repository once\n"
            : "sentinel: \(options[0].split(separator: "=")[0]): not allowed in a fleet scan job (the worker sets it, or it names a file or host of the worker's)\n"
        #expect(result.stderr == refused)
    }

    @Test("a path smuggled into a job row's options is refused by the worker, and by the worker's scan behind it")
    func smuggledPath() throws {
        let database = "sqlite:" + NSTemporaryDirectory() + "fleet-" + UUID().uuidString + "/f.sqlite"
        let environment = try CLI.fleetEnvironment(database: database)
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        let project = try CLI.fleetProject()
        // Written straight into the queue, as anyone with access to it could.
        let spec = FleetJobSpecJSON.scan(repository: project, arguments: ["--quiet", "/etc"])
        let id = try queue.submit(JobRequest(kind: .scan, spec: spec, repository: project))
        let worker = try FleetProcess(["worker"] + Self.roots, environment: environment)
        #expect(try eventually(timeout: 120) { try queue.job(id)?.state == .failed })
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0)
        #expect(try queue.job(id)?.lastError == "invalid: '/etc': a fleet job's options hold no paths; name the repository once")
        #expect(try queue.result(id) == nil)
        let record = NSTemporaryDirectory() + "record-" + UUID().uuidString
        let direct = try CLI.run(["scan", project, "/etc", "--fleet-record", record], environment: environment)
        #expect(direct.status == 2 && direct.stderr == "sentinel: a fleet job scans exactly one directory, its repository\n")
    }

    /// However it is spelt (issue 53, R7: percent-encoded keys, `sslpassword`, user information
    /// running past a `?`), as libpq would read it.
    @Test(
        "a password in --database is refused: the command line is visible to every user",
        arguments: [
            "postgres://u:secret-pass-1@127.0.0.1:1/db", "postgresql://u@127.0.0.1:1/db?pass%77ord=secret-pass-1",
            "postgresql://u@127.0.0.1:1/db?sslpassword=secret-pass-1", "postgres://h?a=b:secret-pass-1@127.0.0.1:1/db",
        ])
    func passwordOnCommandLine(_ url: String) throws {
        let result = try CLI.run(["fleet", "status", "--database", url])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("SENTINEL_DATABASE_URL or PGPASSFILE") && !result.stderr.contains("secret-pass-1"), "\(result.stderr)")
    }

    @Test("the password can come from PGPASSFILE, as for psql; without it the connection fails in one line")
    func passwordFile() throws {
        let server = try #require(PostgresServer.shared)
        let name = PostgresServer.databaseName(try server.createDatabase())
        let file = NSTemporaryDirectory() + "pgpass-" + UUID().uuidString
        try "127.0.0.1:\(server.port):\(name):\(server.user):\(server.password)\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        defer { try? FileManager.default.removeItem(atPath: file) }
        var environment = try CLI.fleetEnvironment(database: "")
        environment["PGPASSFILE"] = file
        let url = "postgres://\(server.user)@127.0.0.1:\(server.port)/\(name)"
        let status = try CLI.run(["fleet", "status", "--format", "json", "--database", url], environment: environment)
        #expect(status.status == 0, "\(status.stderr)")
        environment["PGPASSFILE"] = "/nonexistent"
        let denied = try CLI.run(["fleet", "status", "--database", url], environment: environment)
        #expect(denied.status == 1 && denied.stderr.hasPrefix("sentinel: \(url): cannot connect: "), "\(denied.stderr)")
        #expect(denied.stderr.split(separator: "\n").count == 1)
    }

    @Test("a worker killed with -9 mid-job loses its lease; another worker runs the job, which completes exactly once")
    func killNineMidJob() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        // Big enough that the scan runs for seconds: the kill lands while it runs.
        let project = try CLI.fleetProject(files: 6000)
        defer { try? FileManager.default.removeItem(atPath: project) }
        let id = try Self.submit(project, environment: environment)
        let doomed = try FleetProcess(["worker", "--lease", "2s", "--name", "doomed"] + Self.roots, environment: environment)
        #expect(eventually(timeout: 60) { !doomed.events("job.claimed").isEmpty })
        var scans: Set<Int32> = []
        #expect(
            eventually(timeout: 60) {
                scans = Self.scans(below: doomed.process.processIdentifier)
                return !scans.isEmpty
            })
        doomed.signal(SIGKILL)
        #expect(doomed.wait(timeout: 30) == 128 + SIGKILL || doomed.process.terminationReason == .uncaughtSignal)
        #expect(try queue.job(id)?.state == .running)
        // setpriv --pdeathsig: the killed worker's scan dies with it.
        #expect(eventually(timeout: 30) { !Self.anyRunning(scans) })

        let survivor = try FleetProcess(
            ["worker", "--lease", "5s", "--retry-base", "0s", "--name", "survivor"] + Self.roots, environment: environment)
        #expect(try eventually(timeout: 300) { try queue.job(id)?.state == .succeeded })
        survivor.signal(SIGTERM)
        #expect(survivor.wait(timeout: 60) == 0)
        let job = try #require(try queue.job(id))
        #expect(job.attempts == 2 && job.leaseExpiries == 1)
        #expect(survivor.events("lease.expired").first?["holder"] as? String == "doomed")
        #expect(survivor.events("job.succeeded").count == 1)
        let result = try #require(try queue.result(id))
        let name = PostgresServer.databaseName(database)
        #expect(
            try server.psql("SELECT count(*) FROM fleet_results", database: name).trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(result.report.utf8)) as? [String: Any])
        let findings = try #require((record["report"] as? [String: Any])?["findings"] as? [Any])
        #expect(!findings.isEmpty && result.findings.count == Set(result.findings.map(\.fingerprint)).count)
        // The survivor's chain holds the expiry and the one success, intact, one entry per outcome.
        let audit = try CLI.run(["fleet", "audit", "verify"], environment: environment)
        #expect(
            audit.status == 0 && audit.stdout.hasPrefix("chain survivor: intact, 2 entries")
                && audit.stdout.contains(
                    "\nfleet audit intact: 1 chain, 2 entries; every outcome has one entry (1 job after job 0, 1 lease expiry)"),
            "\(audit.stdout)\(audit.stderr)")
    }

    @Test("a database restart mid-run: workers reconnect and every job completes once")
    func serverRestart() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        let project = try CLI.fleetProject(files: 400)
        defer { try? FileManager.default.removeItem(atPath: project) }
        let ids = try (0..<8).map { _ in try Self.submit(project, environment: environment) }
        let worker = try FleetProcess(["worker", "--concurrency", "2", "--lease", "20s"] + Self.roots, environment: environment)
        #expect(eventually(timeout: 120) { !worker.events("job.succeeded").isEmpty })
        try server.restart(downFor: 1)
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        #expect(try eventually(timeout: 300) { try queue.counts().succeeded == ids.count })
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0)
        #expect(!worker.events("database.error").isEmpty)
        var expected = QueueCounts()
        expected.succeeded = ids.count
        #expect(try queue.counts() == expected)
        let succeeded = worker.events("job.succeeded").compactMap { $0["job"] as? Int }
        #expect(succeeded.sorted() == ids.map { Int($0) })
        let name = PostgresServer.databaseName(database)
        #expect(
            try server.psql("SELECT count(*) FROM fleet_results", database: name).trimmingCharacters(in: .whitespacesAndNewlines) == "8")
    }

    @Test("two schedulers: one leads and submits each due scan once; killed, the other takes over")
    func schedulerElection() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        let project = try CLI.fleetProject()
        let added = try CLI.run(
            ["fleet", "schedule", "add", "nightly", project, "--every", "1h"] + Self.scanOptions, environment: environment)
        #expect(added.status == 0, "\(added.stderr)")
        let first = try FleetProcess(["schedule", "run", "--name", "first"], environment: environment)
        #expect(eventually(timeout: 60) { !first.events("scheduler.leading").isEmpty })
        let second = try FleetProcess(["schedule", "run", "--name", "second"], environment: environment)
        #expect(eventually(timeout: 60) { !second.events("scheduler.waiting").isEmpty })
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        #expect(try eventually(timeout: 30) { try queue.counts().queued == 1 })
        usleep(1_500_000)
        #expect(try queue.counts().queued == 1)
        #expect(second.events("scheduler.leading").isEmpty)
        first.signal(SIGKILL)
        #expect(eventually(timeout: 60) { !second.events("scheduler.leading").isEmpty })
        #expect(try queue.counts().queued == 1)
        second.signal(SIGTERM)
        #expect(second.wait(timeout: 30) == 0)
    }

    @Test("SIGTERM: the worker claims nothing more, finishes its running job, and exits 0; /metrics counted it")
    func drainOnSigterm() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        let project = try CLI.fleetProject(files: 3000)
        defer { try? FileManager.default.removeItem(atPath: project) }
        let running = try Self.submit(project, environment: environment)
        let waiting = try Self.submit(project, environment: environment)
        let port = try PostgresServer.freePort()
        let worker = try FleetProcess(["worker", "--metrics", String(port)] + Self.roots, environment: environment)
        #expect(eventually(timeout: 60) { !worker.events("job.claimed").isEmpty })
        let scrape = try CLI.runProgram("/usr/bin/curl", ["-sf", "http://127.0.0.1:\(port)/metrics"])
        #expect(scrape.stdout.contains("sentinel_fleet_jobs_claimed_total{kind=\"scan\"} 1"), "\(scrape.stdout)")
        #expect(scrape.stdout.contains("# TYPE sentinel_fleet_job_duration_seconds histogram"))
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0)
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        #expect(try queue.job(running)?.state == .succeeded)
        #expect(try queue.job(waiting)?.state == .queued)
        #expect(worker.events("job.claimed").count == 1 && !worker.events("worker.draining").isEmpty)
    }

    @Test(
        "two heals of one signal never run at once; the second's identical fix is marked a duplicate, not proposed again",
        .enabled(
            if: TestHost.canSandbox && PythonHost.hasPytest, "runs pytest in the sandbox: needs root, user namespaces and python3-pytest"))
    func healOncePerSignal() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let scratch = try HealCLITests.Scratch(fixture: "logic-binary-search")
        let signal = try scratch.pytestSignal()
        var environment = try CLI.fleetEnvironment(database: database)
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let submit = ["fleet", "submit", "heal", "--signal", signal, "--repo", scratch.repo, "--verify", "python3 -m pytest -q"]
        let first = try CLI.run(submit + ["--await-approval", "20m"], environment: environment)
        let worker = try FleetProcess(["worker", "--concurrency", "2", "--repository-root", scratch.root], environment: environment)
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        // The first fix waits for a person; a second heal of the signal, submitted now, waits for the
        // first (had both been queued together, either could have gone first).
        #expect(eventually(timeout: 900) { !worker.events("job.awaiting_approval").isEmpty })
        let second = try CLI.run(submit, environment: environment)
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        let ids = [first, second].compactMap { Int64($0.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }
        usleep(2_000_000)
        #expect(try queue.job(ids[1])?.state == .queued)
        let digest = try #require(try queue.patch(of: ids[0])?.digest)
        let approve = try CLI.run(
            ["fleet", "approve", String(ids[0]), "--patch", digest, "--reason", "looks right"], environment: environment)
        #expect(
            approve.status == 0 && approve.stdout.hasPrefix("job \(ids[0]): patch \(digest.prefix(16)) approved by "), "\(approve.stderr)")
        #expect(try CLI.run(["fleet", "deny", String(ids[0]), "--reason", "late"], environment: environment).status == 2)
        #expect(try eventually(timeout: 900) { try queue.counts().succeeded == 2 })
        worker.signal(SIGTERM)
        // A root worker stops its sandboxed analysis and takes its sandbox down: about 6 s on a busy
        // machine here, and past 60 s once on a loaded CI run. Its last events say where it was.
        #expect(worker.wait(timeout: 300) == 0, "\(worker.events.suffix(5))")
        let one = try #require(try queue.job(ids[0]))
        let two = try #require(try queue.job(ids[1]))
        #expect(try #require(two.startedAt) >= (try #require(one.finishedAt)))
        func record(_ id: Int64) throws -> [String: Any] {
            let report = try #require(try queue.result(id)?.report)
            return try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        }
        let made = try record(ids[0])
        let again = try record(ids[1])
        #expect(made["exitStatus"] as? Int == 0 && made["duplicate"] as? Bool == false)
        #expect(made["approval"] as? String == "approved" && made["approvalReason"] as? String == "looks right")
        #expect(made["patchDigest"] as? String == digest && made["approver"] as? String == "sentinel")
        #expect((made["patch"] as? String)?.contains("+    while lo <= hi:") == true)
        #expect(
            again["exitStatus"] as? Int == 0 && again["duplicate"] as? Bool == true && again["patch"] as? String == made["patch"] as? String
        )
    }

    @Test(
        "heal memory is shared: a fix verified on one worker is replayed first by another with a memory of its own",
        .enabled(
            if: TestHost.canSandbox && PythonHost.hasPytest, "runs pytest in the sandbox: needs root, user namespaces and python3-pytest"))
    func memorySharedAcrossWorkers() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let scratch = try HealCLITests.Scratch(fixture: "logic-binary-search")
        let signal = try scratch.pytestSignal()
        // Two machines: the same database, a state directory (and heal memory) each, one memory key.
        var first = try CLI.fleetEnvironment(database: database)
        var second = try CLI.fleetEnvironment(database: database)
        let keyFile = scratch.root + "/fleet-memory.key"
        try (String(repeating: "3c", count: 32) + "\n").write(toFile: keyFile, atomically: false, encoding: .utf8)
        #expect(chmod(keyFile, 0o600) == 0)
        for name in ["PYTHONDONTWRITEBYTECODE", "SENTINEL_MEMORY_KEY_FILE"] {
            first[name] = name == "PYTHONDONTWRITEBYTECODE" ? "1" : keyFile
            second[name] = first[name]
        }
        let submit = ["fleet", "submit", "heal", "--signal", signal, "--repo", scratch.repo, "--verify", "python3 -m pytest -q"]
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        func heal(on environment: [String: String]) throws -> [String: Any] {
            let submitted = try CLI.run(submit, environment: environment)
            let id = try #require(Int64(submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(submitted.stderr)")
            let worker = try FleetProcess(["worker", "--repository-root", scratch.root], environment: environment)
            #expect(try eventually(timeout: 900) { try queue.job(id)?.state == .succeeded })
            worker.signal(SIGTERM)
            #expect(worker.wait(timeout: 300) == 0)
            #expect(worker.events("audit.refused").isEmpty, "\(worker.events("audit.refused"))")
            let report = try #require(try queue.result(id)?.report)
            return try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        }
        let learnt = try heal(on: first)
        // One fleet, one audit key: the second machine is given the key the first one made.
        let key = try #require(second["SENTINEL_HOME"]) + "/fleet-audit.key"
        try FileManager.default.copyItem(atPath: try #require(first["SENTINEL_HOME"]) + "/fleet-audit.key", toPath: key)
        #expect(chmod(key, 0o600) == 0)
        #expect(learnt["exitStatus"] as? Int == 0 && (learnt["description"] as? String)?.contains("remembered fix") == false)
        let shared = try server.psql("SELECT count(*) FROM fleet_memory", database: PostgresServer.databaseName(database))
        #expect((Int(shared.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0)
        let replayed = try heal(on: second)
        #expect(replayed["exitStatus"] as? Int == 0, "\(replayed)")
        #expect((replayed["description"] as? String)?.hasPrefix("remembered fix #") == true, "\(replayed["description"] ?? "")")
        #expect(replayed["duplicate"] as? Bool == true)
    }

    @Test(
        "a DAST job: the worker runs `scan --dast` (its worker in the sandbox) and the findings come back from the database",
        .enabled(if: TestHost.canSandbox, "the DAST worker runs in the sandbox: needs root and user namespaces"),
        .enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
    func dastJob() throws {
        let app = try VulnerableApp()
        defer { app.stop() }
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        let submitted = try CLI.run(
            ["fleet", "submit", "dast", app.url, "--active", "--rate", "500", "--dast-checks", "dast.xss-reflected"],
            environment: environment)
        let id = try #require(Int64(submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(submitted.stderr)")
        let host = try #require(URL(string: app.url)?.host)
        let worker = try FleetProcess(["worker", "--dast-target", host], environment: environment)
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        #expect(try eventually(timeout: 600) { try queue.job(id)?.state == .succeeded })
        #expect(try queue.job(id)?.lastError == nil)
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0)
        let results = try CLI.run(["fleet", "results", String(id)], environment: environment)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(results.stdout.utf8)) as? [String: Any])
        #expect(try DASTCLITests.located(report).contains("dast.xss-reflected \(app.url)xss/reflect q"), "\(results.stdout.prefix(2000))")
    }

    @Test("cancel: a running job's worker stops it at its next lease renewal; a queued one never starts")
    func cancelRunning() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        let project = try CLI.fleetProject(files: 6000)
        defer { try? FileManager.default.removeItem(atPath: project) }
        let running = try Self.submit(project, environment: environment)
        let queued = try Self.submit(project, environment: environment)
        #expect(try CLI.run(["fleet", "cancel", String(queued)], environment: environment).stdout == "job \(queued): cancelled\n")
        let worker = try FleetProcess(["worker", "--lease", "3s"] + Self.roots, environment: environment)
        #expect(eventually(timeout: 60) { !worker.events("job.claimed").isEmpty })
        var scans: Set<Int32> = []
        #expect(
            eventually(timeout: 60) {
                scans = Self.scans(below: worker.process.processIdentifier)
                return !scans.isEmpty
            })
        let cancel = try CLI.run(["fleet", "cancel", String(running)], environment: environment)
        #expect(cancel.stdout == "job \(running): running; its worker stops it within a lease renewal\n", "\(cancel.stderr)")
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        #expect(try eventually(timeout: 60) { try queue.job(running)?.state == .cancelled })
        #expect(eventually(timeout: 30) { !Self.anyRunning(scans) })
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0)
        #expect(worker.events("job.cancelled").count == 1 && worker.events("job.claimed").count == 1)
        #expect(try queue.result(running) == nil)
    }

    /// `sentinel scan` processes a fleet worker started (they carry `--fleet-record`).
    /// The scans (`--fleet-record` processes) below `root` in the process tree: this test's, not
    /// another's running beside it (tests run in parallel; a count of every scan on the machine
    /// waited for the others' too).
    static func scans(below root: Int32) -> Set<Int32> {
        var parents: [Int32: Int32] = [:]
        var scans: Set<Int32> = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let (parent, _) = status(of: pid) else { continue }
            parents[pid] = parent
            if isScan(pid) { scans.insert(pid) }
        }
        return scans.filter { scan in
            var pid = scan
            for _ in 0..<64 {
                guard let parent = parents[pid], parent > 1 else { return false }
                if parent == root { return true }
                pid = parent
            }
            return false
        }
    }

    /// Whether any of `scans` still runs (a zombie has ended; a reused pid is no longer a scan).
    static func anyRunning(_ scans: Set<Int32>) -> Bool {
        scans.contains { pid in
            guard let (_, state) = status(of: pid) else { return false }
            return state != "Z" && isScan(pid)
        }
    }

    /// The parent and state letter of `pid`, from /proc/PID/stat (the name may hold spaces and
    /// parentheses: the fields after its last `)`).
    private static func status(of pid: Int32) -> (parent: Int32, state: Character)? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
        return (parent, state)
    }

    private static func isScan(_ pid: Int32) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        return String(decoding: data, as: UTF8.self).contains("--fleet-record")
    }
}

/// A scan job's stored description, written as a submitter with database access could write it.
enum FleetJobSpecJSON {
    static func scan(repository: String, arguments: [String]) -> String {
        let data = try? JSONSerialization.data(
            withJSONObject: ["kind": "scan", "repository": repository, "arguments": arguments], options: [.sortedKeys])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }
}
