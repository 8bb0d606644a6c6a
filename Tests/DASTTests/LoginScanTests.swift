import DAST
import Findings
import Foundation
import TestSupport
import Testing
import Web

/// Authenticated scans (issue 30) against `loginapp.py`: a form login with a CSRF token and a
/// password no filler guesses, pages that redirect to the login without a session, and sessions
/// that end after a number of requests.
@Suite(.integration, .enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
struct LoginScanTests {
    static let login = WebLogin(
        url: "/login", fields: ["user": "carol", "pass": "s3cret-Passw0rd"], loggedInText: "Signed in as")

    static func options(_ app: VulnerableApp, login: WebLogin?) -> WebScanOptions {
        var options = WebScanOptions(target: app.url)
        options.active = true
        options.ratePerSecond = 0
        options.seed = 7
        options.login = login
        return options
    }

    /// Whether `result` has a finding of `rule` on `path`'s `parameter`.
    static func reported(_ result: WebScanResult, _ rule: String, path: String, parameter: String) -> Bool {
        result.findings.contains { finding in
            finding.ruleId == rule && finding.location.parameter == parameter && finding.location.url.flatMap(WebURL.init)?.path == path
        }
    }

    static func reflected(_ result: WebScanResult, path: String, parameter: String) -> Bool {
        reported(result, "dast.xss-reflected", path: path, parameter: parameter)
    }

    @Test func withoutTheLoginNothingBehindItIsFound() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        let result = try WebScan(options: Self.options(app, login: nil)).run()
        #expect(result.fatal == nil)
        #expect(!Self.reflected(result, path: "/notes", parameter: "q"))
    }

    @Test func theLoginOpensThePagesBehindIt() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        let transport = RecordingTransport()
        let result = try WebScan(options: Self.options(app, login: Self.login), transport: transport).run()
        #expect(result.fatal == nil)
        #expect(Self.reflected(result, path: "/notes", parameter: "q"))
        // The escaped twin is not reported, and the session was never ended by the crawl.
        #expect(!Self.reflected(result, path: "/profile", parameter: "name"))
        #expect(!transport.requests.contains { $0.url.path == "/logout" })
        // The login posted the form's own CSRF token back, with the configured values.
        let posted = try #require(transport.requests.first { $0.method == "POST" && $0.url.path == "/login" })
        let body = String(decoding: posted.body, as: UTF8.self)
        #expect(body.contains("user=carol") && body.contains("csrf_token=") && !body.contains("csrf_token=&"))
        // The session lives in a cookie: the account's token-less note form is a CSRF risk.
        #expect(result.findings.contains { $0.ruleId == "dast.csrf-token-missing" && $0.location.url?.hasSuffix("/notes/add") == true })
    }

    /// The login page's `pre` cookie is tested too, and the page sets again whatever `pre` it was
    /// sent: that answer speaks for the probe's cookie, not the session's, which stays as it was.
    @Test func theAnswerToAProbedCookieLeavesTheSessionsCookiesAlone() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        var options = Self.options(app, login: Self.login)
        options.exclude = ["/account/password"]
        let transport = RecordingTransport()
        _ = try WebScan(options: options, transport: transport).run()
        let headers = transport.requests.compactMap { $0.header("Cookie") }
        // A probe sends the one cookie it tests; the session sends its whole jar.
        #expect(headers.contains { !$0.contains(";") && $0.hasPrefix("pre=") && $0.contains("'") })
        let jars = Set(
            headers.filter { $0.contains("; ") }.compactMap { header in
                header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("pre=") }
            })
        #expect(jars.count == 1, "\(jars.sorted().prefix(5))")
    }

    @Test func aSessionThatEndsIsOpenedAgain() throws {
        let app = try VulnerableApp(script: "loginapp.py", arguments: ["--session-requests", "15"])
        defer { app.stop() }
        // The password form would change the password: no later login could succeed.
        var options = Self.options(app, login: Self.login)
        options.exclude = ["/account/password"]
        let result = try WebScan(options: options).run()
        #expect(result.fatal == nil)
        #expect(Self.reflected(result, path: "/notes", parameter: "q"))
        #expect(result.notices.contains { $0.hasPrefix("logged in again") && !$0.contains("failed") }, "\(result.notices)")
    }

    @Test func aPasswordChangeIsTestedLastSoTheFormsBeforeItKeepTheSession() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        let transport = RecordingTransport()
        let result = try WebScan(options: Self.options(app, login: Self.login), transport: transport).run()
        #expect(result.fatal == nil)
        // The note form, behind the login, was tested while the session lasted.
        #expect(Self.reflected(result, path: "/notes/add", parameter: "text"))
        // The password form was tested (last), never submitted by the crawl before the checks.
        let posts = transport.requests.enumerated().filter { $0.element.method == "POST" }
        let changes = posts.filter { $0.element.url.path == "/account/password" }
        let notes = posts.filter { $0.element.url.path == "/notes/add" }
        #expect(!changes.isEmpty && !notes.isEmpty)
        #expect((notes.map(\.offset).max() ?? 0) < (changes.map(\.offset).min() ?? 0))
    }

    static var apiLogin: WebLogin {
        var login = WebLogin(url: "/api/login", fields: ["user": "carol", "pass": "s3cret-Passw0rd"])
        login.format = .json
        login.token = .json("data.token")
        return login
    }

    static func injected(_ result: WebScanResult, path: String, parameter: String) -> Bool {
        reported(result, "dast.sqli", path: path, parameter: parameter)
    }

    @Test func anAPILoginsTokenOpensTheAPIAndIsRenewed() throws {
        let app = try VulnerableApp(script: "loginapp.py", arguments: ["--session-requests", "6"])
        defer { app.stop() }
        #expect(!Self.injected(try WebScan(options: Self.options(app, login: nil)).run(), path: "/api/search", parameter: "q"))
        let transport = RecordingTransport()
        let result = try WebScan(options: Self.options(app, login: Self.apiLogin), transport: transport).run()
        #expect(result.fatal == nil)
        #expect(Self.injected(result, path: "/api/search", parameter: "q"))
        #expect(result.notices.contains { $0.hasPrefix("logged in again") && !$0.contains("failed") }, "\(result.notices)")
        let searches = transport.requests.filter { $0.url.path == "/api/search" }
        #expect(!searches.isEmpty && searches.allSatisfy { $0.header("Authorization")?.hasPrefix("Bearer ") == true })
    }

    @Test func anOrConditionFindsAnInjectionWhereTheValueMatchesNothing() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        let result = try WebScan(options: Self.options(app, login: nil)).run()
        let finding = result.findings.first {
            $0.ruleId == "dast.sqli" && $0.location.url.flatMap(WebURL.init)?.path == "/api/people"
        }
        #expect(finding?.location.parameter == "name" && finding?.facts.web.technique == .boolean)
        #expect(!Self.injected(result, path: "/api/people-safe", parameter: "name"))
    }

    @Test func aTargetThatAsksToSlowDownGetsItsPauseAndTheRequestAgain() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        let transport = RecordingTransport()
        let budget = RequestBudget(maxRequests: 10, ratePerSecond: 0, maxDuration: 600)
        let client = WebClient(scope: Scope(target: try #require(WebURL(app.url))), transport: transport, budget: budget)
        let answer = try client.send(WebRequest(url: try #require(WebURL(app.url + "limited"))))
        #expect(answer.status == 200)
        #expect(transport.requests.count == 2 && budget.sent == 2)
        #expect(client.problems.throttled == 1)
        // The pause was taken (Retry-After: 1); no upper bound is asserted (a loaded machine).
        #expect(budget.elapsed >= 0.9)
    }

    @Test func anAPILoginWithoutItsTokenFails() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        var login = Self.apiLogin
        login.token = .json("data.access_token")
        #expect(
            try WebScan(options: Self.options(app, login: login)).run().fatal
                == "login at /api/login failed: the answer holds no token at json: data.access_token")
        login.fields["pass"] = "wrong"
        #expect(
            try WebScan(options: Self.options(app, login: login)).run().fatal
                == "login at /api/login failed: the answer's status is 403")
    }

    @Test func excludedPathsAreNeverRequested() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        var options = Self.options(app, login: Self.login)
        options.exclude = ["/notes", "prof*"]
        let transport = RecordingTransport()
        let result = try WebScan(options: options, transport: transport).run()
        #expect(result.fatal == nil)
        #expect(!transport.requests.contains { ["/notes", "/profile"].contains($0.url.path) })
        #expect(transport.requests.contains { $0.url.path == "/dashboard" })
        #expect(!Self.reflected(result, path: "/notes", parameter: "q"))
    }

    @Test func aLoginThatFailsEndsTheScanSayingWhy() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        var wrong = Self.login
        wrong.fields["pass"] = "not-the-password"
        let result = try WebScan(options: Self.options(app, login: wrong)).run()
        #expect(result.fatal == "login at /login failed: the answer (/login, status 200) does not show 'Signed in as'")
        #expect(result.findings.isEmpty)
        var noForm = Self.login
        noForm.url = "/dashboard?x=1"
        // /dashboard redirects to /login: the form is found there.
        #expect(try WebScan(options: Self.options(app, login: noForm)).run().fatal == nil)
        noForm.url = "/nothing"
        #expect(
            try WebScan(options: Self.options(app, login: noForm)).run().fatal
                == "login at /nothing failed: no login form at /nothing (status 404)")
    }
}
