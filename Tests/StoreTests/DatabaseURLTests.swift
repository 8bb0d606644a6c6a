import Store
import Support
import Testing

/// Fleet database URLs: what is accepted, and that a password never shows in a message.
@Suite("Database URL")
struct DatabaseURLTests {
    @Test("postgres URLs pass to libpq as they are; the password is hidden wherever the URL is shown")
    func postgres() throws {
        let url = try DatabaseURL(parsing: "postgres://fleet:hunter2-secret@db.internal:5432/sentinel?sslmode=require")
        #expect(url == .postgres("postgres://fleet:hunter2-secret@db.internal:5432/sentinel?sslmode=require"))
        #expect(url.hasPassword)
        #expect(url.redacted == "postgres://fleet:***@db.internal:5432/sentinel?sslmode=require")
        #expect("\(url)" == url.redacted)
        let parameter = try DatabaseURL(parsing: "postgres://fleet@db/sentinel?sslmode=require&password=s3cret-param&connect_timeout=1")
        #expect(
            parameter.hasPassword && parameter.redacted == "postgres://fleet@db/sentinel?sslmode=require&password=***&connect_timeout=1")
        let bare = try DatabaseURL(parsing: "postgresql://fleet@db/sentinel")
        #expect(!bare.hasPassword && bare.redacted == "postgresql://fleet@db/sentinel")
    }

    @Test("sqlite: names a file")
    func sqlite() throws {
        #expect(try DatabaseURL(parsing: "sqlite:/var/lib/sentinel/fleet.sqlite") == .sqlite(path: "/var/lib/sentinel/fleet.sqlite"))
        #expect(try DatabaseURL(parsing: "sqlite:///tmp/f.sqlite") == .sqlite(path: "/tmp/f.sqlite"))
        #expect(throws: SentinelError.self) { try DatabaseURL(parsing: "sqlite:") }
    }

    @Test("another scheme is refused without echoing a password")
    func otherScheme() {
        #expect {
            try DatabaseURL(parsing: "mysql://root:topsecret1@host/db")
        } throws: { error in
            let message = (error as? SentinelError)?.message ?? ""
            return !message.contains("topsecret1") && message.contains("postgres://")
        }
    }

    @Test("a server that does not answer is one error naming it, without the password")
    func unreachable() {
        #expect {
            try PostgresConnection(url: DatabaseURL(parsing: "postgres://u:pw-secret-1@127.0.0.1:1/db?connect_timeout=2"))
        } throws: { error in
            guard let error = error as? SentinelError else { return false }
            return error.code == .database && error.message.hasPrefix("postgres://u:***@127.0.0.1:1/db")
                && !error.message.contains("pw-secret-1")
        }
    }
}
