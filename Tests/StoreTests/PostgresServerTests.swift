import Foundation
import TestSupport
import Testing

/// The throwaway PostgreSQL server fleet mode's tests start (issue 32): it runs as the `postgres`
/// user, answers on 127.0.0.1 only, wants the role's password, and leaves nothing behind.
@Suite(
    "PostgreSQL test server", .serialized,
    .needsPostgres)
struct PostgresServerTests {
    @Test("a server starts on loopback with password authentication, and stop removes it")
    func startsAndStops() throws {
        let server = try PostgresServer()
        #expect(try server.psql("SELECT 1").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(try server.psql("SHOW listen_addresses").trimmingCharacters(in: .whitespacesAndNewlines) == "127.0.0.1")
        #expect(try server.psql("SELECT current_user").trimmingCharacters(in: .whitespacesAndNewlines) == "sentinel")
        let wrong = Process()
        wrong.executableURL = URL(fileURLWithPath: PostgresServer.binaries + "/psql")
        wrong.arguments = ["-X", "-h", "127.0.0.1", "-p", String(server.port), "-U", "sentinel", "-d", "postgres", "-c", "SELECT 1"]
        wrong.environment = ["PGPASSWORD": "not-the-password", "PATH": "/usr/bin:/bin"]
        wrong.standardOutput = FileHandle.nullDevice
        wrong.standardError = FileHandle.nullDevice
        try wrong.run()
        wrong.waitUntilExit()
        #expect(wrong.terminationStatus != 0)
        server.stop()
        #expect(!FileManager.default.fileExists(atPath: server.directory))
    }
}
