#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Store
import TestSupport
import Testing

/// Issue 58, the worker's runtime end to end: counters scraped from the start, scratch swept after
/// a kill -9, the no-op job kind.
@Suite("Fleet worker runtime, end to end", .serialized, .integration)
struct FleetRuntimeCLITests {
    static let roots = ["--repository-root", CLI.fleetRepositories]

    /// A database file in a directory of its own that exists (root's worker lends it to its analysis).
    static func sqliteDatabase() throws -> String {
        let directory = NSTemporaryDirectory() + "fleet-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return "sqlite:" + directory + "/fleet.sqlite"
    }

    @Test("every counter and histogram of /metrics is there at 0 from the start, for every job kind")
    func countersFromStart() throws {
        let environment = try CLI.fleetEnvironment(database: Self.sqliteDatabase())
        let port = try PostgresServer.freePort()
        let worker = try FleetProcess(["worker", "--metrics", String(port)] + Self.roots, environment: environment)
        #expect(eventually(timeout: 60) { !worker.events("metrics.serving").isEmpty })
        let scrape = try CLI.runProgram("/usr/bin/curl", ["-sf", "http://127.0.0.1:\(port)/metrics"])
        var expected = [
            "sentinel_fleet_lease_expiries_total 0", "sentinel_fleet_leases_lost_total 0", "sentinel_fleet_database_errors_total 0",
            "sentinel_fleet_jobs_dead_total 0", "sentinel_fleet_claim_seconds_count 0", "sentinel_fleet_jobs_running 0",
            "sentinel_fleet_queue_depth{state=\"queued\"} 0", "sentinel_fleet_queue_depth{state=\"dead\"} 0",
        ]
        for kind in JobKind.allCases.map(\.rawValue) {
            for counter in ["claimed", "succeeded", "failed", "retried", "dead", "released"] {
                expected.append("sentinel_fleet_jobs_\(counter)_total{kind=\"\(kind)\"} 0")
            }
            expected.append("sentinel_fleet_job_duration_seconds_count{kind=\"\(kind)\"} 0")
            expected.append("sentinel_fleet_job_setup_seconds_bucket{kind=\"\(kind)\",le=\"+Inf\"} 0")
        }
        let lines = Set(scrape.stdout.split(separator: "\n").map(String.init))
        for line in expected { #expect(lines.contains(line), "\(line) missing from:\n\(scrape.stdout)") }
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0)
    }

    /// The worker and job scratch directories under `places`, two levels down.
    static func scratchDirectories(in places: [String]) -> Set<String> {
        var found: Set<String> = []
        for place in places {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: place)) ?? [] {
                let path = place + "/" + name
                guard name.hasPrefix("sentinel-worker-") || name.hasPrefix("sentinel-fleet-worker-") else { continue }
                found.insert(path)
                for inner in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where inner.hasPrefix("sentinel-") {
                    found.insert(path + "/" + inner)
                }
            }
        }
        return found
    }

    @Test("a worker killed with -9 mid-job leaves its scratch behind; the next worker's start removes it, and its own at its end")
    func scratchSweptAfterKillNine() throws {
        var environment = try CLI.fleetEnvironment(database: Self.sqliteDatabase())
        let temporary = try TemporaryDirectory.make("fleet-tmpdir")
        environment["TMPDIR"] = temporary
        let home = try #require(environment["SENTINEL_HOME"])
        // Root's worker keeps its directory beside the state directory; a worker of its own, in $TMPDIR.
        let places = [home + ".scratch", temporary]
        let project = try CLI.fleetProject(files: 6000)
        defer { try? FileManager.default.removeItem(atPath: project) }
        let submitted = try CLI.run(
            ["fleet", "submit", "scan", project] + FleetCLITests.scanOptions, environment: environment)
        #expect(submitted.status == 0, "\(submitted.stderr)")
        let doomed = try FleetProcess(["worker", "--lease", "2s", "--name", "doomed"] + Self.roots, environment: environment)
        #expect(eventually(timeout: 60) { !doomed.events("job.claimed").isEmpty })
        let left = Self.scratchDirectories(in: places)
        #expect(left.contains { $0.contains("sentinel-fleet-worker-doomed-") }, "\(left)")
        var scans: Set<Int32> = []
        #expect(
            eventually(timeout: 60) {
                scans = FleetCLITests.scans(below: doomed.process.processIdentifier)
                return !scans.isEmpty
            })
        doomed.signal(SIGKILL)
        _ = doomed.wait(timeout: 30)
        #expect(eventually(timeout: 30) { !FleetCLITests.anyRunning(scans) })
        #expect(left.allSatisfy { FileManager.default.fileExists(atPath: $0) })

        let next = try FleetProcess(
            ["worker", "--lease", "2s", "--retry-base", "0s", "--name", "next"] + Self.roots, environment: environment)
        #expect(eventually(timeout: 60) { !next.events("worker.started").isEmpty })
        #expect(
            eventually(timeout: 30) { left.allSatisfy { !FileManager.default.fileExists(atPath: $0) } },
            "\(Self.scratchDirectories(in: places))")
        // The worker makes its own after it logs its start (and root swept the dead one's before
        // starting it): looked for until it is there, not at the moment of the event.
        #expect(
            eventually(timeout: 30) { Self.scratchDirectories(in: places).contains { $0.contains("sentinel-fleet-worker-next-") } },
            "\(Self.scratchDirectories(in: places))")
        next.signal(SIGTERM)
        next.signal(SIGTERM)
        #expect(next.wait(timeout: 120) == 0)
        #expect(Self.scratchDirectories(in: places).isEmpty, "\(Self.scratchDirectories(in: places))")
    }

    @Test("fleet submit noop: a worker records it succeeded with an empty result and audits it; no process runs")
    func noopJob() throws {
        let database = try Self.sqliteDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        let submitted = try CLI.run(["fleet", "submit", "noop"], environment: environment)
        #expect(submitted.status == 0, "\(submitted.stderr)")
        let id = try #require(Int64(submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let worker = try FleetProcess(["worker"], environment: environment)
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        #expect(try eventually(timeout: 60) { try queue.job(id)?.state == .succeeded })
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0)
        let job = try #require(try queue.job(id))
        #expect(job.request.kind == .noop && job.attempts == 1)
        #expect(try queue.result(id)?.report == "")
        let results = try CLI.run(["fleet", "results", String(id)], environment: environment)
        #expect(results.status == 0 && results.stdout.isEmpty, "\(results.stdout)\(results.stderr)")
        #expect(worker.events("job.succeeded").first?["kind"] as? String == "noop")
        let audit = try CLI.run(["fleet", "audit", "verify"], environment: environment)
        #expect(audit.status == 0 && audit.stdout.contains(": intact, 1 entries, head 1:"), "\(audit.stdout)\(audit.stderr)")
    }
}
