#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Store
import Testing
import TestSupport

/// Issue 58: a SIGSTOPped scheduler leader kept its session lock and nothing was scheduled. Now it
/// stops renewing its lease, another scheduler takes over within seconds, and the stopped one,
/// resumed, learns it lost the lease and submits nothing.
@Suite("Fleet scheduler leader stopped with SIGSTOP, end to end", .integration, .serialized)
struct FleetSchedulerStopCLITests {
    @Test("the leader SIGSTOPped: the other takes over; resumed, the first submits nothing")
    func stoppedLeader() throws {
        guard PostgresServer.available else { return }
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let environment = try CLI.fleetEnvironment(database: database)
        let project = try CLI.fleetProject()
        let added = try CLI.run(
            ["fleet", "schedule", "add", "nightly", project, "--every", "1h"] + FleetCLITests.scanOptions, environment: environment)
        #expect(added.status == 0, "\(added.stderr)")
        let first = try FleetProcess(["schedule", "run", "--name", "first"], environment: environment)
        #expect(eventually(timeout: 60) { !first.events("scheduler.leading").isEmpty })
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        #expect(try eventually(timeout: 30) { try queue.counts().queued == 1 })
        let second = try FleetProcess(["schedule", "run", "--name", "second"], environment: environment)
        #expect(eventually(timeout: 60) { !second.events("scheduler.waiting").isEmpty })

        first.signal(SIGSTOP)
        // The lease lasts 5 s unrenewed: well within the minute allowed here.
        #expect(eventually(timeout: 60) { !second.events("scheduler.leading").isEmpty })
        // Due again now, as if its next time came while the first was stopped: only the leader submits it.
        try queue.saveSchedule(
            Schedule(name: "nightly", request: JobRequest(kind: .scan, spec: "{}", repository: project), interval: 3600))
        #expect(try eventually(timeout: 30) { try queue.counts().queued == 2 })
        first.signal(SIGCONT)
        #expect(eventually(timeout: 60) { !first.events("scheduler.lost_leadership").isEmpty })
        usleep(1_500_000)
        #expect(first.events("schedule.submitted").count == 1 && second.events("schedule.submitted").count == 1)
        #expect(try queue.counts().queued == 2)
        for process in [first, second] {
            process.signal(SIGTERM)
            #expect(process.wait(timeout: 30) == 0)
        }
    }
}
