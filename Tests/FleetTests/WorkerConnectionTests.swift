import Foundation
import Store
import Support
import Testing
import TestSupport

@testable import Fleet

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 58: a worker holds one queue connection for all its slots and leases plus one listening
/// connection, whatever its concurrency; its heartbeat renews every lease it holds; heal locks stay
/// exclusive on the shared session; its scratch directories are swept after a kill -9.
@Suite("A worker's one connection", .integration)
struct WorkerConnectionTests {
    /// A stand-in for `sentinel heal` that takes `seconds` and then "verifies" a fix.
    static func slowHeal(seconds: Int, in directory: String) throws -> String {
        let executable = directory + "/slow-sentinel"
        let script = """
            #!/bin/sh
            out=""
            while [ $# -gt 0 ]; do [ "$1" = "--out" ] && out="$2"; shift; done
            sleep \(seconds)
            mkdir -p "$out" && printf -- '--- a/app.py\\n+++ b/app.py\\n' > "$out/patch.diff"
            exit 0

            """
        try script.write(toFile: executable, atomically: false, encoding: .utf8)
        #expect(chmod(executable, 0o755) == 0)
        return executable
    }

    /// Heal jobs of distinct signals (each its own fix, so none is a duplicate of another).
    static func submitHeals(_ count: Int, to queue: JobQueue) throws -> [Int64] {
        try (0..<count).map { index in
            let spec = FleetJobSpec(kind: .heal, signal: "E   assert \(index) == -1\n", verify: "true")
            return try queue.submit(JobRequest(kind: .heal, spec: try spec.encoded(), repository: "repo-\(index)", maxAttempts: 1))
        }
    }

    static func start(_ worker: FleetWorker) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            worker.run()
            done.signal()
        }
        return done
    }

    static func quietLog() -> JSONLog { JSONLog(redactor: Redactor(), sink: { _ in }) }

    @Test(
        "PostgreSQL: 2 connections per worker at any concurrency; all its jobs run at once on them, leases renewed past 3 lease lengths",
        .needsPostgres, arguments: [1, 4])
    func twoConnectionsAtAnyConcurrency(_ concurrency: Int) throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let name = PostgresServer.databaseName(database)
        let url = try DatabaseURL(parsing: database)
        let scratch = try TemporaryDirectory.make("worker-connection")
        // Submitted, then closed: from here on only the worker and psql talk to the database.
        let ids = try Self.submitHeals(concurrency, to: JobQueue(url: url))
        var options = WorkerOptions(executable: try Self.slowHeal(seconds: 8, in: scratch), name: "shared", audit: try .scratch())
        options.concurrency = concurrency
        // A 2 s lease: each 8 s job outlives its lease four times over unless the heartbeat renews
        // it, every 0.1 s here, so a loaded machine may stall the heartbeat 1.9 s before one expires.
        options.leaseSeconds = 2
        options.renewalsPerLease = 20
        options.scratchRoot = scratch
        let worker = FleetWorker(url: url, options: options, log: Self.quietLog())
        let done = Self.start(worker)
        func scalar(_ sql: String) throws -> String {
            try server.psql(sql, database: name).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(
            try eventually(timeout: 60) { try scalar("SELECT count(*) FROM fleet_jobs WHERE state = 'running'") == String(concurrency) })
        // psql's own session is left out; nobody else connects to this database. The listener
        // connects on its own thread, and a session still authenticating has no database yet:
        // waited for, then held.
        let sessions = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        #expect(try eventually(timeout: 60) { try scalar(sessions) == "2" })
        usleep(1_500_000)
        #expect(try scalar(sessions) == "2")
        // A reaper of its own: any expired lease would be taken back while the jobs run.
        let watcher = try JobQueue(url: url)
        let watchUntil = Date().addingTimeInterval(6)
        while Date() < watchUntil {
            #expect(try watcher.reapExpiredLeases(audit: { _ in }).isEmpty)
            usleep(200_000)
        }
        #expect(try eventually(timeout: 120) { try watcher.counts().succeeded == concurrency })
        worker.stop.advance(to: .abandoning)
        done.wait()
        for id in ids {
            let job = try #require(try watcher.job(id))
            #expect(job.state == .succeeded && job.attempts == 1 && job.leaseExpiries == 0, "\(job)")
        }
    }

    @Test(
        "the heartbeat renews every lease in one statement and says which are held, cancel-requested or lost",
        arguments: QueueBackendForFleet.available)
    func heartbeat(_ backend: QueueBackendForFleet) throws {
        let url = try backend.freshURL()
        let queue = try JobQueue(url: url)
        for index in 0..<3 { try queue.submit(JobRequest(kind: .noop, spec: "{\"kind\":\"noop\"}", repository: "r\(index)")) }
        // Claimed for 2 s and renewed every 0.1 s: a loaded machine may stall the heartbeat (or
        // its start after the claims) 1.9 s before a lease expires.
        let leases = try (0..<3).map { _ in try #require(try queue.claim(owner: "w", leaseSeconds: 2)?.lease) }
        var options = WorkerOptions(executable: "/bin/false", name: "beat", audit: try .scratch())
        options.leaseSeconds = 2
        options.renewalsPerLease = 20
        let heartbeat = LeaseHeartbeat(connection: WorkerConnection(url: url, retry: RetryPolicy()), options: options)
        defer { heartbeat.stop() }
        let keepers = leases.map { heartbeat.keep($0) }
        // Three lease lengths: nothing expires.
        usleep(6_000_000)
        #expect(try queue.reapExpiredLeases(audit: { _ in }).isEmpty)
        #expect(keepers.allSatisfy { $0.status == .held })
        #expect(try queue.cancel(leases[1].jobID, audit: { _ in }) == .running)
        try queue.release(leases[2], reason: "taken away", audit: { _ in })
        #expect(eventually(timeout: 30) { keepers[1].status == .cancelRequested && keepers[2].status == .lost })
        #expect(keepers[0].status == .held)
        keepers[0].stop()
        // Stopped: no longer renewed, so it expires.
        #expect(try eventually(timeout: 30) { try queue.reapExpiredLeases(audit: { _ in }).map(\.jobID).contains(leases[0].jobID) })
    }

    @Test(
        "two slots of one worker never both hold a heal's lock on the shared session",
        arguments: QueueBackendForFleet.available)
    func exclusiveLockOnSharedSession(_ backend: QueueBackendForFleet) throws {
        let url = try backend.freshURL()
        let connection = WorkerConnection(url: url, retry: RetryPolicy())
        let other = WorkerConnection(url: url, retry: RetryPolicy())
        #expect(try connection.tryLock("sentinel-heal:k"))
        #expect(try !connection.tryLock("sentinel-heal:k"))
        #expect(try !other.tryLock("sentinel-heal:k"))
        #expect(try connection.tryLock("sentinel-heal:other"))
        connection.unlock("sentinel-heal:k")
        #expect(try other.tryLock("sentinel-heal:k"))
        #expect(try !connection.tryLock("sentinel-heal:k"))
    }

    @Test("a worker's scratch directory is locked for its life; the next start removes a gone worker's, never a live one's")
    func scratchSweep() throws {
        let root = try TemporaryDirectory.make("worker-scratch")
        let live = try WorkerScratch(root: root, worker: "live:1")
        // A worker killed with -9: its directory (and a job's inside it) stays, its lock gone with it.
        let dead = root + "/" + WorkerScratch.prefix + "dead-1-2"
        try FileManager.default.createDirectory(atPath: dead + "/sentinel-job-abcdef/checkout", withIntermediateDirectories: true)
        #expect(chmod(dead, 0o700) == 0)
        let next = try WorkerScratch(root: root, worker: "next:2")
        #expect(next.swept == 1)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live.path) && FileManager.default.fileExists(atPath: next.path))
        live.remove()
        next.remove()
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)
    }

    /// Issue 78, W3: in a shared `$TMPDIR` another user could make links at every name a
    /// worker's directory could be given this minute (`<prefix><worker>-<pid>-<seconds>`) and
    /// stop it starting. Its name is not predictable: the links planted change nothing.
    @Test("links planted at the names a worker's scratch directory could be predicted to take do not stop it")
    func plantedNamesDoNotStopAWorker() throws {
        let root = try TemporaryDirectory.make("worker-scratch-planted")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let now = Int(Date().timeIntervalSince1970)
        let planted = (now - 2...now + 30).map { root + "/" + WorkerScratch.prefix + "w-\(getpid())-\($0)" }
        for path in planted { #expect(symlink("/nonexistent-target", path) == 0) }
        let scratch = try WorkerScratch(root: root, worker: "w")
        #expect(!planted.contains(scratch.path))
        var info = stat()
        #expect(lstat(scratch.path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_mode & 0o777 == 0o700)
        // Two in one process never share a name.
        let second = try WorkerScratch(root: root, worker: "w")
        #expect(second.path != scratch.path)
        scratch.remove()
        second.remove()
    }

    @Test("a no-op job is claimed and recorded as succeeded with an empty result, audited, with no process")
    func noopJob() throws {
        let url = DatabaseURL.sqlite(path: try TemporaryDirectory.make("noop") + "/fleet.sqlite")
        let queue = try JobQueue(url: url)
        let id = try queue.submit(JobRequest(kind: .noop, spec: try FleetJobSpec(kind: .noop).encoded(), repository: ""))
        // An executable that cannot run: a no-op job starts none.
        let worker = FleetWorker(
            url: url, options: WorkerOptions(executable: "/nonexistent/sentinel", name: "noop", audit: try .scratch()), log: Self.quietLog()
        )
        let done = Self.start(worker)
        #expect(try eventually(timeout: 60) { try queue.job(id)?.state == .succeeded })
        worker.stop.advance(to: .abandoning)
        done.wait()
        let result = try #require(try queue.result(id))
        #expect(result.exitStatus == 0 && result.report.isEmpty && result.findings.isEmpty)
        #expect(try queue.allAuditLines().filter { $0.contains("\"event\":\"fleet.job.succeeded\"") }.count == 1)
    }
}

/// SQLite always; PostgreSQL where the test server can start.
enum QueueBackendForFleet: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static let available: [QueueBackendForFleet] = PostgresServer.available ? allCases : [.sqlite]

    var testDescription: String { rawValue }

    func freshURL() throws -> DatabaseURL {
        switch self {
        case .sqlite: return .sqlite(path: try TemporaryDirectory.make("fleet-queue") + "/fleet.sqlite")
        case .postgres:
            let server = try #require(PostgresServer.shared, "the PostgreSQL test server did not start")
            return try DatabaseURL(parsing: server.createDatabase())
        }
    }
}

/// Polls `condition` every 50 ms for up to `timeout` seconds; whether it became true (the fleet tests share it).
func eventually(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(50_000)
    }
    return try condition()
}
