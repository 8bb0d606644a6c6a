import Foundation
import Store
import Support
import TestSupport
import Testing

/// The libpq connection fleet mode runs on: TLS when the URL asks for it, and the server's errors
/// reported with their SQLSTATE and without the password.
@Suite(
    "PostgreSQL connection", .serialized,
    .needsPostgres)
struct PostgresConnectionTests {
    @Test("sslmode=verify-full with the server's certificate as root: the session is encrypted; another root is refused")
    func tls() throws {
        let server = try PostgresServer(tls: true)
        defer { server.stop() }
        let base = try server.createDatabase()
        let verified = try PostgresConnection(
            url: DatabaseURL(parsing: base + "?sslmode=verify-full&sslrootcert=" + server.certificate))
        #expect(try verified.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()") == [["t"]])
        let plain = try PostgresConnection(url: DatabaseURL(parsing: base + "?sslmode=disable"))
        #expect(try plain.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()") == [["f"]])

        let other = try PostgresServer(tls: true)
        defer { other.stop() }
        #expect {
            try PostgresConnection(url: DatabaseURL(parsing: base + "?sslmode=verify-full&sslrootcert=" + other.certificate))
        } throws: { error in
            (error as? SentinelError)?.code == .database && !"\(error)".contains(server.password)
        }
    }

    @Test("a failing statement names the statement and its SQLSTATE; parameters are never interpolated")
    func errors() throws {
        let server = try #require(PostgresServer.shared)
        let connection = try PostgresConnection(url: DatabaseURL(parsing: server.createDatabase()))
        #expect {
            try connection.query("SELECT * FROM no_such_table WHERE name = $1", ["x"])
        } throws: { error in
            let message = (error as? SentinelError)?.message ?? ""
            return message.contains("SELECT * FROM") && message.contains("SQLSTATE 42P01")
        }
        let hostile = "'); DROP TABLE t; --"
        #expect(try connection.query("SELECT $1::text, $2::text IS NULL", [hostile, nil]) == [[hostile, "t"]])
    }

    @Test("a statement run again is prepared once per session: it follows a table that changed under it, and a new session after a restart")
    func preparedStatements() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let connection = try PostgresConnection(url: DatabaseURL(parsing: server.createDatabase()))
        try connection.execute("CREATE TABLE t (a integer); INSERT INTO t VALUES (1)")
        for _ in 0..<4 { #expect(try connection.query("SELECT * FROM t WHERE a = $1", ["1"]) == [["1"]]) }
        #expect(try connection.query("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'SELECT * FROM t %'") == [["1"]])

        // Its result type changed: refused once (SQLSTATE 0A000), planned afresh after.
        try connection.execute("ALTER TABLE t ADD COLUMN b text")
        #expect(throws: SentinelError.self) { try connection.query("SELECT * FROM t WHERE a = $1", ["1"]) }
        #expect(try connection.query("SELECT * FROM t WHERE a = $1", ["1"]) == [["1", nil]])

        // The server's session (and its prepared statements) is gone after a restart.
        for _ in 0..<4 { _ = try connection.query("SELECT * FROM t WHERE a = $1", ["1"]) }
        try server.restart()
        #expect(throws: SentinelError.self) { try connection.query("SELECT 1") }
        try connection.reconnect()
        for _ in 0..<4 { #expect(try connection.query("SELECT * FROM t WHERE a = $1", ["1"]) == [["1", nil]]) }
    }

    @Test("LISTEN waits without a query and wakes on NOTIFY; a broken connection reconnects and listens again")
    func notifyAndReconnect() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try DatabaseURL(parsing: server.createDatabase())
        let listener = try PostgresConnection(url: url)
        try listener.listen("sentinel_test")
        let sender = try PostgresConnection(url: url)
        #expect(try listener.waitForNotification(timeout: 0.05) == nil)
        try sender.query("SELECT pg_notify('sentinel_test', 'hello')")
        #expect(try listener.waitForNotification(timeout: 60) == PostgresNotification(channel: "sentinel_test", payload: "hello"))

        try server.restart()
        #expect(throws: SentinelError.self) { try listener.query("SELECT 1") }
        #expect(!listener.isConnected)
        try listener.reconnect()
        let again = try PostgresConnection(url: url)
        try again.query("SELECT pg_notify('sentinel_test', 'after restart')")
        #expect(try listener.waitForNotification(timeout: 60)?.payload == "after restart")
    }
}
