import Foundation
import Store
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 81: a `fleet worker` process held 3 sessions where docs/fleet.md says 2 (one its slots
/// share, one that LISTENs): its start-up check kept a connection of its own for the worker's life.
@Suite("fleet worker: the sessions docs/fleet.md promises")
struct FleetConnectionsCLITests {
    @Test("a worker process holds two PostgreSQL sessions at concurrency 1 and 4", arguments: [1, 4])
    func twoSessionsPerWorker(_ concurrency: Int) throws {
        guard PostgresServer.available else { return }
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let name = PostgresServer.databaseName(database)
        let worker = try FleetProcess(
            ["worker", "--concurrency", String(concurrency)], environment: try CLI.fleetEnvironment(database: database))
        #expect(eventually(timeout: 120) { !worker.events("worker.started").isEmpty || !worker.process.isRunning }, "\(worker.events)")
        func sessions() throws -> String {
            try server.psql(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
                database: name
            ).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // Its listener connects once the loop runs: wait for both, then check no third stays.
        #expect(eventually(timeout: 60) { (try? sessions()) == "2" }, "\((try? sessions()) ?? "?") sessions")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try sessions() == "2")
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0, "\(worker.events)")
    }
}
