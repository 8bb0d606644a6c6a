import Foundation
import Support
import Testing

@testable import Store
import TestSupport

/// Root makes the queue's connection explicit for the fleet worker's analysis: libpq's private
/// files copied, sockets named by their real directories; the URL still says what root's said.
struct DatabaseRelocationTests {
    @Test("files libpq would read are copied and named; socket directories by real path; the rest as it was")
    func filesAndSocketsAreMadeExplicit() throws {
        let home = try TemporaryDirectory.make("relocation")
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/.postgresql", withIntermediateDirectories: true)
        try "h:5432:*:u:secret\n".write(toFile: home + "/.pgpass", atomically: false, encoding: .utf8)
        try "CERT".write(toFile: home + "/.postgresql/root.crt", atomically: false, encoding: .utf8)
        try "KEY".write(toFile: home + "/named.key", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: home + "/sockets", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: home + "/link", withDestinationPath: home + "/sockets")

        var copies: [String: String] = [:]
        let relocation = try DatabaseRelocation.of(
            DatabaseURL(parsing: "postgres://u@/queue?host=\(home)/link,db.example&sslkey=\(home)/named.key&sslmode=verify-full"),
            environment: ["HOME": home]
        ) { keyword, path in
            copies[keyword] = path
            return "/copies/" + keyword
        }
        #expect(copies == ["passfile": home + "/.pgpass", "sslrootcert": home + "/.postgresql/root.crt", "sslkey": home + "/named.key"])
        let real = try #require(OutputPlacement.realPath(home + "/sockets"))
        #expect(relocation.socketDirectories == [real])
        guard case .postgres(let text) = relocation.url else {
            Issue.record("not a postgres URL: \(relocation.url)")
            return
        }
        let options = try #require(try? LibpqConninfo.parse(text).get())
        let values = Dictionary(options.map { ($0.keyword, $0.value) }, uniquingKeysWith: { $1 })
        #expect(values["host"] == real + ",db.example")
        #expect(values["user"] == "u" && values["dbname"] == "queue" && values["sslmode"] == "verify-full")
        #expect(values["passfile"] == "/copies/passfile" && values["sslkey"] == "/copies/sslkey")
        #expect(values["sslrootcert"] == "/copies/sslrootcert" && values["sslcert"] == nil)
        _ = try DatabaseURL(parsing: text)
    }

    @Test("no host: Debian's socket directory; a password stays in the URL (it goes in the environment); SQLite as it is")
    func defaultsAndSecrets() throws {
        let relocation = try DatabaseRelocation.of(
            DatabaseURL(parsing: "postgresql://u:p%40ss@/q"), environment: [:], copy: { _, path in path })
        #expect(relocation.url.hasPassword)
        if case .postgres(let text) = relocation.url, case .success(let options) = LibpqConninfo.parse(text) {
            #expect(options.first { $0.keyword == "password" }?.value == "p@ss")
            let host = options.first { $0.keyword == "host" }?.value
            #expect(host == (OutputPlacement.realPath("/var/run/postgresql") ?? "/var/run/postgresql"))
        } else {
            Issue.record("not a URL libpq reads: \(relocation.url)")
        }
        let sqlite = try DatabaseRelocation.of(.sqlite(path: "/x/fleet.sqlite"), environment: [:], copy: { _, path in path })
        #expect(sqlite.url == .sqlite(path: "/x/fleet.sqlite") && sqlite.socketDirectories.isEmpty)
    }
}
