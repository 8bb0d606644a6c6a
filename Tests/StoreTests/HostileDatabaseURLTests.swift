import Support
import TestSupport
import Testing

@testable import Store

/// Issue 53, R7: `?pass%77ord=` and `?sslpassword=` got a password past the command-line
/// refusal into argv, logs and errors. A URL is read as libpq reads it (keys and values
/// percent-decoded, keys case-sensitive, user information up to the first `@` before a `/`), and
/// every parameter libpq hides as a password (`password`, `sslpassword`) counts as one.
@Suite("Database URL: a password however it is spelt")
struct HostileDatabaseURLTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var url: String
        var redacted: String
        var testDescription: String { url }
        init(_ url: String, _ redacted: String) {
            self.url = url
            self.redacted = redacted
        }
    }

    static let passwords: [Case] = [
        Case("postgresql://u@h/db?pass%77ord=s3cr3t", "postgresql://u@h/db?pass%77ord=***"),
        Case("postgresql://u@h/db?sslpassword=s3cr3t", "postgresql://u@h/db?sslpassword=***"),
        Case("postgresql://u@h/db?ssl%70assword=s3cr3t&sslmode=require", "postgresql://u@h/db?ssl%70assword=***&sslmode=require"),
        Case(
            "postgres://u@h/db?sslmode=require&%70%61%73%73%77%6F%72%64=s3cr3t",
            "postgres://u@h/db?sslmode=require&%70%61%73%73%77%6F%72%64=***"
        ),
        Case("postgresql://u@h/db?password=a%20b&password=s3cr3t", "postgresql://u@h/db?password=***&password=***"),
        Case("postgresql://u:s3cr3t@h/db", "postgresql://u:***@h/db"),
        Case("postgresql://u:s3%40cr3t@h:5432/db", "postgresql://u:***@h:5432/db"),
        Case("postgresql://u:s3:cr3t@h/db", "postgresql://u:***@h/db"),
        // libpq takes the user information up to the first `@` before any `/`, `?` included:
        // its user is `h?a=b`, its password `s3cr3t`.
        Case("postgres://h?a=b:s3cr3t@d/db", "postgres://h?a=b:***@d/db"),
        // A host in brackets may hold `?`: the query starts after it.
        Case("postgres://u@[::1?x]:5/db?password=s3cr3t", "postgres://u@[::1?x]:5/db?password=***"),
    ]

    @Test(arguments: passwords)
    func aPasswordLibpqReadsIsOneAndIsHidden(_ testCase: Case) throws {
        let url = try DatabaseURL(parsing: testCase.url)
        #expect(url.hasPassword)
        #expect(url.redacted == testCase.redacted)
        #expect("\(url)" == testCase.redacted)
    }

    /// What libpq itself refuses is refused when read, naming the problem without the value
    /// (libpq's own message quotes the text, the whole URL for some).
    @Test(arguments: [
        ("postgresql://u@h/db?PASSWORD=s3cr3t", "postgresql://u@h/db?PASSWORD=***: libpq refuses it: invalid URI query parameter"),
        ("postgresql://u@h/db?Password=s3cr3t", "postgresql://u@h/db?Password=***: libpq refuses it: invalid URI query parameter"),
        ("postgresql://u:s3cr%zz@h/db", "postgresql://u:***@h/db: libpq refuses it: invalid percent-encoded token"),
        (
            "postgresql://u@h/db?password=s3cr3t%00",
            "postgresql://u@h/db?password=***: libpq refuses it: forbidden value %00 in percent-encoded value"
        ),
        ("postgresql://u@h/db?s3cr3t", "postgresql://***: libpq refuses it: missing key/value separator \"=\" in URI query parameter"),
        (
            "postgresql://u:s3cr3t@[::1/db",
            "postgresql://***: libpq refuses it: end of string reached when looking for matching \"]\" in IPv6 host address in URI"
        ),
    ])
    func whatLibpqRefusesIsRefusedWithoutTheValue(_ text: String, _ message: String) {
        #expect(throws: SentinelError(.invalidInput, message)) { try DatabaseURL(parsing: text) }
    }

    /// Not a password to libpq: no refusal, nothing hidden.
    @Test(arguments: [
        "postgresql://u@h/db?passfile=/home/u/.pgpass", "postgresql://u:@h/db", "postgresql://u@h/db?password=",
        "postgresql://u%3Ax@h/db?application_name=pass%3Dword",
    ])
    func notAPassword(_ text: String) throws {
        let url = try DatabaseURL(parsing: text)
        #expect(!url.hasPassword)
        #expect(url.redacted == text)
    }

    /// Where Sentinel finds a secret is where libpq finds one: over URLs made of the pieces its
    /// parser cares about, whenever libpq reads a URL, the two agree on whether it holds a
    /// secret, and what libpq reads from the redacted text holds none but the mask.
    @Test func theSecretsFoundAreTheOnesLibpqReads() {
        let pieces = [
            "u", ":", "@", "/", "?", "&", "=", "[", "]", ",", "h", "5", "db", "%70", "%7", "%", "s3cr3t", "password",
            "sslpassword", "pass%77ord", "PASSWORD", "sslmode", "=require", "::1", "%40", "%3A", "%3F",
        ]
        var random = SeededRandom(state: 53)
        var parsed = 0
        var secrets = 0
        for _ in 0..<20_000 {
            var text = Bool.random(using: &random) ? "postgres://" : "postgresql://"
            for _ in 0..<Int.random(in: 1...12, using: &random) { text += pieces.randomElement(using: &random)! }
            guard case .success(let options) = LibpqConninfo.parse(text) else { continue }
            parsed += 1
            let libpqSecret = options.contains { $0.isSecret && !$0.value.isEmpty }
            if libpqSecret { secrets += 1 }
            let found = ConnectionURIText(text)
            #expect(found.hasSecret == libpqSecret, "\(text)")
            guard case .success(let shown) = LibpqConninfo.parse(found.redacted) else {
                Issue.record("\(text): libpq does not read its redacted form \(found.redacted)")
                continue
            }
            #expect(!shown.contains { $0.isSecret && !$0.value.isEmpty && $0.value != "***" }, "\(text) → \(found.redacted)")
        }
        #expect(parsed > 1_000 && secrets > 100, "\(parsed) read by libpq, \(secrets) with a secret")
    }
}
