import DAST
import Foundation
import Support
import Testing

@testable import Scan

/// `dast.login` in a scan config: how an authenticated `--dast` scan logs in. It holds
/// credentials, so only the operator's `--config FILE` may give it.
@Suite struct DASTLoginConfigTests {
    static let text = """
        dast:
          login:
            url: /login
            fields: {user: carol, pass: {env: APP_PASSWORD}}
            loggedInText: Signed in as
        """

    @Test func theOperatorsConfigGivesTheLoginWithValuesFromTheEnvironment() throws {
        let config = try ScanConfig.parse(
            Self.text, source: "/ops/scan.yml", baseDirectory: "/ops", environment: ["APP_PASSWORD": "s3cret-Passw0rd"])
        #expect(
            config.dastLogin
                == WebLogin(
                    url: "/login", fields: ["user": "carol", "pass": "s3cret-Passw0rd"], loggedInText: "Signed in as"))
    }

    @Test func anAPILoginTakesItsTokenAsConfigured() throws {
        let config = try ScanConfig.parse(
            "dast:\n  login:\n    url: /api/login\n    fields: {user: a, pass: b}\n    format: json\n"
                + "    token: {header: X-Token}\n    authorization: \"Token {token}\"\n",
            source: "/ops/scan.yml", baseDirectory: "/ops")
        let login = try #require(config.dastLogin)
        #expect(login.format == .json && login.token == .header("X-Token") && login.authorization == "Token {token}")
    }

    @Test(arguments: [
        (text, "/ops/scan.yml:4: dast.login.fields.pass: the environment variable APP_PASSWORD is not set"),
        ("dast: {login: {fields: {user: a}}}\n", "/ops/scan.yml:1: dast.login: needs url (the page with the login form)"),
        ("dast: {login: {url: /login}}\n", "/ops/scan.yml:1: dast.login: needs fields (the form's values by field name)"),
        ("dast: {login: {url: /login, fields: {user: a}, form: 2}}\n", "/ops/scan.yml:1: unknown key 'dast.login.form'"),
        ("dast: {login: {url: /l, fields: {u: a}, format: xml}}\n", "/ops/scan.yml:1: dast.login.format: 'xml' is not one of form, json"),
        ("dast: {login: {url: /l, fields: {u: a}, token: {cookie: s}}}\n", "/ops/scan.yml:1: unknown key 'dast.login.token.cookie'"),
        (
            "dast: {login: {url: /l, fields: {u: a}, authorization: Bearer}}\n",
            "/ops/scan.yml:1: dast.login.authorization: must hold {token}"
        ),
    ])
    func aBadLoginIsNamed(text: String, expected: String) throws {
        let error = #expect(throws: SentinelError.self) {
            try ScanConfig.parse(text, source: "/ops/scan.yml", baseDirectory: "/ops", environment: [:])
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.hasPrefix(expected) == true, "\(error?.message ?? "")")
    }

    /// Issue 80: `prove.login`, the account the application `scan --prove` starts is signed in
    /// with. A repository's file may give the application's own seeded account, never a value of
    /// the operator's environment (the application it starts would receive it).
    @Test func proveLoginIsLiteralInARepositorysFile() throws {
        let operatorFile = try ScanConfig.parse(
            "prove:\n  run: [app]\n  port: 8000\n  login: {url: /signin, fields: {user: tester, password: {env: APP_PASSWORD}}}\n",
            source: "/ops/scan.yml", baseDirectory: "/ops", environment: ["APP_PASSWORD": "seeded-pass-1"])
        #expect(operatorFile.prove?.login == WebLogin(url: "/signin", fields: ["user": "tester", "password": "seeded-pass-1"]))

        let base = NSTemporaryDirectory() + "sentinel-prove-login-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let literal = "prove:\n  run: [app]\n  port: 8000\n  login: {url: /signin, fields: {user: tester, password: seeded-pass-1}}\n"
        try Data(literal.utf8).write(to: URL(fileURLWithPath: base + "/.sentinel.yml"))
        #expect(try ScanConfig.load(inTree: base)?.prove?.login?.fields == ["user": "tester", "password": "seeded-pass-1"])
        let fromEnvironment = literal.replacingOccurrences(of: "password: seeded-pass-1", with: "password: {env: HOME}")
        try Data(fromEnvironment.utf8).write(to: URL(fileURLWithPath: base + "/.sentinel.yml"))
        let error = #expect(throws: SentinelError.self) { try ScanConfig.load(inTree: base) }
        #expect(
            error?.message
                == "\(base)/.sentinel.yml:4: prove.login.fields.password: a repository's .sentinel.yml gives literal values only: "
                + "{env: NAME} would hand the operator's variable to its application")
    }

    @Test func aRepositorysOwnConfigMayNotHoldALogin() throws {
        let base = NSTemporaryDirectory() + "sentinel-dast-login-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        try Data(Self.text.utf8).write(to: URL(fileURLWithPath: base + "/.sentinel.yml"))
        let error = #expect(throws: SentinelError.self) { try ScanConfig.load(inTree: base) }
        #expect(
            error?.message
                == "\(base)/.sentinel.yml:1: dast: set by the operator only (scan --config FILE): "
                + "a repository's .sentinel.yml may not hold credentials")
    }
}
