import Foundation
import Store
import Support
import Synchronization
import Testing
import TestSupport

@testable import Fleet

/// Issue 81, wake-ups: once a worker's listening session was ended, a job submitted while the
/// listener waited before opening a new one started up to a second late (the evaluation's
/// alternating 6 ms and 640 ms). The listener now opens its session again at once, backs off
/// only while the server refuses it, and meanwhile its waiters poll instead of sleeping.
@Suite("A lost listening session", .integration)
struct ListenerReconnectTests {
    @Test("the first retry is at once; then from 50 ms doubling to 1 s, each drawn from its upper half")
    func reconnectDelays() {
        #expect(ReconnectDelay.seconds(failures: 1, random: 1) == 0)
        #expect(ReconnectDelay.seconds(failures: 1, random: 0.5) == 0)
        #expect(ReconnectDelay.seconds(failures: 2, random: 1) == 0.05)
        #expect(ReconnectDelay.seconds(failures: 3, random: 1) == 0.1)
        #expect(ReconnectDelay.seconds(failures: 6, random: 1) == 0.8)
        #expect(ReconnectDelay.seconds(failures: 7, random: 1) == 1)
        #expect(ReconnectDelay.seconds(failures: 7, random: 0.5) == 0.5)
        #expect(ReconnectDelay.seconds(failures: Int.max, random: 1) == 1)
        for failures in 2...40 {
            let delay = ReconnectDelay.seconds(failures: failures)
            #expect(delay > 0 && delay <= 1)
        }
    }

    /// Without a poll while no session listens, a waiter slept for its whole timeout (up to 5 s
    /// in a worker; 600 s here) while the server refused the listener: nothing fired.
    @Test(
        "PostgreSQL: while the listener cannot listen, a waiter does not sleep out its timeout; once it can, a NOTIFY wakes waiters again",
        .needsPostgres)
    func waitersPollWhileTheListenerIsAway() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let name = PostgresServer.databaseName(database)
        let url = try DatabaseURL(parsing: database)
        // Opened before connections are refused: the submitter keeps its session.
        let submitter = try JobQueue(url: url)
        let errors = Mutex(0)
        let listenedAgain = Mutex<[Int]>([])
        let listener = FleetListener(
            url: url, onError: { _ in errors.withLock { $0 += 1 } },
            onListening: { failures in listenedAgain.withLock { $0.append(failures) } })
        defer { listener.stop() }
        #expect(eventually(timeout: 60) { listener.isListening })

        // Every new session of this database is refused, then the listener's is ended.
        _ = try server.psql("ALTER DATABASE \(name) WITH ALLOW_CONNECTIONS false")
        let ended = try server.psql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(name)' AND query LIKE 'LISTEN%'")
        #expect(ended.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(eventually(timeout: 60) { !listener.isListening && errors.withLock { $0 } >= 2 })

        // A waiter with a 600 s timeout looks again within the poll; 60 s is the test's patience.
        #expect(Self.returns(within: 60) { listener.wait(listener.submitted, after: listener.submitted.generation, timeout: 600) })

        _ = try server.psql("ALTER DATABASE \(name) WITH ALLOW_CONNECTIONS true")
        #expect(eventually(timeout: 60) { listener.isListening })
        let after = listenedAgain.withLock { $0 }
        #expect(after.count == 1 && after[0] >= 2, "\(after)")

        // Listening again: a submission's NOTIFY wakes a waiter that would otherwise wait 600 s.
        let seen = listener.submitted.generation
        let woken = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            listener.wait(listener.submitted, after: seen, timeout: 600)
            woken.signal()
        }
        try submitter.submit(JobRequest(kind: .noop, spec: try FleetJobSpec(kind: .noop).encoded(), repository: ""))
        #expect(woken.wait(timeout: .now() + 60) == .success)
        #expect(listener.submitted.generation != seen)
    }

    @Test("PostgreSQL: a listener whose session is ended listens again after that one failure, and says so", .needsPostgres)
    func endedSessionListensAgain() throws {
        let server = try #require(PostgresServer.shared)
        let database = try server.createDatabase()
        let name = PostgresServer.databaseName(database)
        let url = try DatabaseURL(parsing: database)
        let listenedAgain = Mutex<[Int]>([])
        let listener = FleetListener(
            url: url, onError: { _ in }, onListening: { failures in listenedAgain.withLock { $0.append(failures) } })
        defer { listener.stop() }
        let listening = "SELECT pid FROM pg_stat_activity WHERE datname = '\(name)' AND query LIKE 'LISTEN%'"
        #expect(try eventually(timeout: 60) { try !server.psql(listening).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty })
        for round in 1...3 {
            let before = try server.psql(listening).trimmingCharacters(in: .whitespacesAndNewlines)
            _ = try server.psql("SELECT pg_terminate_backend(\(before))")
            // A new session, listening again.
            #expect(
                try eventually(timeout: 60) {
                    let now = try server.psql(listening).trimmingCharacters(in: .whitespacesAndNewlines)
                    return !now.isEmpty && now != before
                })
            #expect(eventually(timeout: 60) { listenedAgain.withLock { $0 } == Array(repeating: 1, count: round) })
        }
    }

    /// Whether `body` returned within `seconds` (it goes on in the background if not).
    static func returns(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return done.wait(timeout: .now() + seconds) == .success
    }
}
