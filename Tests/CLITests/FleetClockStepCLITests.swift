#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Store
import Support
import TestSupport
import Testing

/// Issue 81, a worker's wall clock stepped under a running fleet: a `fleet worker` process on a
/// ``SteppedClock`` (its monotonic clock left alone, as `date -s` or NTP stepping the worker's
/// machine) goes on renewing its lease after a step back and does not time its running job out
/// after a step forward. Before, the lease heartbeat slept in Dispatch's timed wait, which ends at
/// a wall-clock time on Linux (`sem_timedwait`): a step back an hour mid-sleep stopped every
/// renewal for the hour, and another worker's reaper took the job.
@Suite(
    "fleet worker: its wall clock stepped under a running job", .serialized,
    .needsPostgres)
struct FleetClockStepCLITests {
    /// A worker started on `clock`, once it has claimed a scan of a project big enough to outlive a few leases.
    static func start(
        clock: SteppedClock, extra: [String]
    ) throws -> (worker: FleetProcess, queue: JobQueue, job: Int64, project: String) {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database).merging(clock.environment) { $1 }
        let project = try CLI.fleetProject(files: 6000)
        let id = try FleetCLITests.submit(project, environment: environment)
        let worker = try FleetProcess(["worker"] + extra + FleetCLITests.roots, environment: environment)
        #expect(eventually(timeout: 120) { !worker.events("job.claimed").isEmpty || !worker.process.isRunning }, "\(worker.events)")
        return (worker, try JobQueue(url: DatabaseURL(parsing: database)), id, project)
    }

    @Test("an hour back mid-job: the worker goes on renewing its lease, and no other worker's reaper takes the job")
    func stepBackMidJob() throws {
        // Where the worker, in its sandbox, sees it: the repository roots are lent to it.
        let clock = try SteppedClock(in: CLI.fleetRepositories)
        // A short lease, renewed every 3 s: a heartbeat stalled by the step lets it lapse in 9.
        let (worker, queue, id, project) = try Self.start(clock: clock, extra: ["--lease", "9s"])
        defer { try? FileManager.default.removeItem(atPath: project) }
        let claimed = MonotonicClock.seconds()
        // Into the heartbeat's sleep after a renewal: a step moves the waits under way.
        usleep(1_000_000)
        try clock.step(to: -3600)
        #expect(try queue.job(id)?.state == .running, "the job ended before the step: the test proves nothing")
        // Another worker, on the machine's clock, reaps every half second while the job runs.
        var reaped: [ExpiredLease] = []
        while try queue.job(id)?.state == .running, MonotonicClock.seconds() - claimed < 600 {
            reaped += try queue.reapExpiredLeases(audit: { _ in })
            usleep(500_000)
        }
        let ran = MonotonicClock.seconds() - claimed
        let job = try #require(try queue.job(id))
        #expect(
            reaped.isEmpty && job.state == .succeeded && job.attempts == 1 && job.leaseExpiries == 0,
            "job \(id) after \(Int(ran)) s: \(job.state), \(job.attempts) attempts, reaped \(reaped); \(worker.events.suffix(5))")
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0, "\(worker.events.suffix(5))")
    }

    /// A guard rather than a regression test: the job's deadline was monotonic before this change.
    @Test("an hour forward mid-job: the job is not timed out, and ends once, succeeded")
    func stepForwardMidJob() throws {
        let clock = try SteppedClock(in: CLI.fleetRepositories)
        let (worker, queue, id, project) = try Self.start(clock: clock, extra: ["--job-timeout", "10m"])
        defer { try? FileManager.default.removeItem(atPath: project) }
        try clock.step(to: 3600)
        #expect(try queue.job(id)?.state == .running, "the job ended before the step: the test proves nothing")
        let ended = try eventually(timeout: 600) { try queue.job(id)?.state != .running }
        let job = try #require(try queue.job(id))
        #expect(
            ended && job.state == .succeeded && job.attempts == 1,
            "job \(id): \(job.state) after \(job.attempts) attempts, \(job.lastError ?? "-"); \(worker.events.suffix(5))")
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0, "\(worker.events.suffix(5))")
    }
}
