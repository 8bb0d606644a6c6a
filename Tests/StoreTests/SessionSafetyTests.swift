import Foundation
import Support
import TestSupport
import Testing

@testable import Store

/// Issue 58: no session can hold the fleet up for long. Every PostgreSQL session Sentinel opens has
/// a lock timeout, a statement timeout and an idle-in-transaction timeout (and TCP keepalives),
/// which the operator's URL overrides; on a real server, a session that stops inside a transaction
/// holding a row lock is ended by the server and the others go on, and a statement waiting on a
/// lock fails instead of waiting for ever.
@Suite("PostgreSQL session limits", .integration)
struct SessionSafetyTests {
    /// A fresh database on the test server, as its URL text; nil without a server.
    static func database() throws -> String? {
        guard PostgresServer.available else { return nil }
        return try #require(PostgresServer.shared).createDatabase()
    }

    static func setting(_ connection: PostgresConnection, _ name: String) throws -> String? {
        try connection.query("SELECT current_setting($1)", [name]).first?.first ?? nil
    }

    @Test("every session gets the limits; the URL's own options win")
    func defaultsAndOverrides() throws {
        guard let database = try Self.database() else { return }
        let plain = try PostgresConnection(url: DatabaseURL(parsing: database))
        #expect(try Self.setting(plain, "lock_timeout") == "5s")
        #expect(try Self.setting(plain, "statement_timeout") == "1min")
        #expect(try Self.setting(plain, "idle_in_transaction_session_timeout") == "15s")
        // libpq's keepalive keywords as the connection uses them, each a default the URL may change.
        let keywords = Dictionary(uniqueKeysWithValues: SessionDefaults.connection.map { ($0.keyword, $0.value) })
        #expect(keywords["keepalives"] == "1" && keywords["tcp_user_timeout"] == "30000" && keywords["keepalives_count"] == "3")

        let custom = try PostgresConnection(
            url: DatabaseURL(parsing: database + "?options=-c%20lock_timeout%3D30s&keepalives_idle=60"))
        #expect(try Self.setting(custom, "lock_timeout") == "30s")
        #expect(try Self.setting(custom, "statement_timeout") == "1min")
        // The database's own setting (ALTER DATABASE … SET) wins too.
        try plain.execute("ALTER DATABASE \"\(PostgresServer.databaseName(database))\" SET statement_timeout = '2min'")
        #expect(try Self.setting(try PostgresConnection(url: DatabaseURL(parsing: database)), "statement_timeout") == "2min")
        // After a reconnect the limits are set again.
        try plain.reconnect()
        #expect(try Self.setting(plain, "lock_timeout") == "5s")
        // A migration raises its own, for its transaction only.
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        #expect(try queue.storage.transaction { try QueueSchema.migrateOneStep(queue.storage) } == false)
    }

    @Test("a session stopped inside a transaction holding a row lock is ended by the server; the waiting one goes on")
    func idleTransactionIsEnded() throws {
        guard let database = try Self.database() else { return }
        let url = try DatabaseURL(parsing: database)
        _ = try JobQueue(url: url)
        // The stopped one: its limit shortened by its URL, so the test waits 2 s, not 15.
        let stopped = try PostgresConnection(url: DatabaseURL(parsing: database + "?options=-c%20idle_in_transaction_session_timeout%3D2s"))
        try stopped.execute("INSERT INTO fleet_audit_chains (chain, seq, hash) VALUES ('w1', 0, '')")
        try stopped.execute("BEGIN")
        try stopped.query("SELECT seq FROM fleet_audit_chains WHERE chain = 'w1' FOR UPDATE")
        // From here it sends nothing, as a SIGSTOPped worker would. The other waits on its lock
        // (a lock timeout long enough to see the server end the stopped session first).
        let waiting = try PostgresConnection(url: DatabaseURL(parsing: database + "?options=-c%20lock_timeout%3D300s"))
        try waiting.query("UPDATE fleet_audit_chains SET seq = 1 WHERE chain = 'w1'")
        #expect(try waiting.query("SELECT seq FROM fleet_audit_chains WHERE chain = 'w1'") == [["1"]])
        // The stopped session, resumed, finds it was ended.
        #expect(throws: SentinelError.self) { try stopped.query("SELECT 1") }
    }

    @Test("a statement waiting on a lock fails with lock_timeout instead of waiting for ever")
    func lockWaitFails() throws {
        guard let database = try Self.database() else { return }
        let url = try DatabaseURL(parsing: database)
        _ = try JobQueue(url: url)
        let holder = try PostgresConnection(url: url)
        try holder.execute("INSERT INTO fleet_audit_chains (chain, seq, hash) VALUES ('w1', 0, '')")
        try holder.execute("BEGIN")
        try holder.query("SELECT seq FROM fleet_audit_chains WHERE chain = 'w1' FOR UPDATE")
        let waiting = try PostgresConnection(url: url)
        let error = try #require(throws: SentinelError.self) {
            try waiting.query("UPDATE fleet_audit_chains SET seq = 1 WHERE chain = 'w1'")
        }
        #expect(error.message.contains("lock timeout") && error.message.contains("SQLSTATE 55P03"), "\(error.message)")
        // Another chain's row is not locked: its writer never waits.
        try waiting.execute("INSERT INTO fleet_audit_chains (chain, seq, hash) VALUES ('w2', 0, '')")
        try waiting.query("UPDATE fleet_audit_chains SET seq = 1 WHERE chain = 'w2'")
        try holder.execute("ROLLBACK")
    }
}
