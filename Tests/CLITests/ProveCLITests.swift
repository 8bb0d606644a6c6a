#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// Issue 80: `sentinel scan DIR --prove URL` end to end, as root (the analysis and the web
/// worker each in their sandbox): the taint findings at routes of a Flask application are tried
/// against it while it runs; two are proven with their request and oracle, a third through the
/// CSRF token of the route's own form, one the application keeps out of reach is not (and says
/// why), one at a route it does not serve answers 404; the gate `--fail-on proven` fails on the
/// proven ones only.
@Suite(.serialized)
struct ProveCLITests {
    static func findings(_ stdout: String) throws -> [(rule: String, line: Int, properties: [String: String])] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        return findings.map { finding in
            let location = finding["location"] as? [String: Any]
            return (
                finding["ruleId"] as? String ?? "", location?["startLine"] as? Int ?? 0,
                finding["properties"] as? [String: String] ?? [:]
            )
        }
    }

    @Test(
        .enabled(if: TestHost.canSandbox, "the worker runs in the sandbox: needs root and user namespaces"),
        .enabled(if: VulnerableApp.flaskAvailable, "needs python3-flask to run the application"))
    func provesTheFlawsARequestReachesAndSaysWhyNotForTheRest() throws {
        let app = try VulnerableApp(script: "app.py", directory: VulnerableApp.proveDirectory)
        defer { app.stop() }
        let home = NSTemporaryDirectory() + "prove-cli-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = ["SENTINEL_HOME": home, "PATH": "/usr/bin:/bin"]
        let result = try CLI.run(
            [
                "scan", VulnerableApp.proveDirectory, "--tools", "native", "--prove", app.url, "--rate", "500",
                "--format", "json", "--fail-on", "proven",
            ], environment: environment, timeout: 600)
        #expect(result.status == 1, "\(result.stderr)")
        let findings = try Self.findings(result.stdout)
        let byLine = Dictionary(findings.map { ($0.line, $0) }, uniquingKeysWith: { a, _ in a })
        let search = try #require(byLine[32])
        #expect(search.rule == "python.taint-sql-injection")
        #expect(search.properties["proven"] == "true", "\(search.properties)")
        #expect(search.properties["proofRequest"]?.hasPrefix("GET \(app.url)search") == true)
        #expect(search.properties["proofOracle"]?.contains("SQL injection in 'q'") == true)
        #expect(search.properties["route"] == "/search" && search.properties["sourceIn"] == "query")
        let hello = try #require(byLine[38])
        #expect(hello.rule == "python.taint-xss")
        #expect(hello.properties["proven"] == "true", "\(hello.properties)")
        #expect(hello.properties["proofEvidence"]?.contains("<h1>Hello 1<") == true)
        let lookup = try #require(byLine[46])
        #expect(lookup.properties["proven"] == "false")
        #expect(lookup.properties["proofReason"] == "the check did not confirm it at GET /lookup [code]")
        // Behind a login none was given for: where the application sent the request, said.
        #expect(
            byLine[92]?.properties["proofReason"]
                == "the check did not confirm it at GET /notes [q] (it answered 302, to /signin: a login may be needed, "
                + "give prove.login or dast.login)")
        let find = try #require(byLine[53])
        #expect(find.properties["proven"] == "false")
        #expect(find.properties["proofReason"]?.contains("GET /find [q] answered 404") == true)
        // Posted with the CSRF token the route's own form gave: refused without it.
        let comment = try #require(byLine[66])
        #expect(comment.rule == "python.taint-xss")
        #expect(comment.properties["proven"] == "true", "\(comment.properties)")
        #expect(comment.properties["proofRequest"]?.hasPrefix("POST \(app.url)comment") == true)
        // The handler reads a second field first: sent beside the one tried, it lets the query run.
        let login = try #require(byLine[74])
        #expect(login.properties["routeParameters"] == "form:password")
        #expect(login.properties["proven"] == "true", "\(login.properties)")
        for finding in findings where finding.rule.contains("taint") {
            #expect(Int(finding.properties["proofRequests"] ?? "") ?? 0 > 0)
        }

        // The text report says it under each finding, and the gate passes without a proof.
        let text = try CLI.run(
            [
                "scan", VulnerableApp.proveDirectory, "--tools", "native", "--prove", app.url, "--rate", "500",
                "--fail-on", "proven", "--dast-checks", "sqli",
            ], environment: environment, timeout: 600)
        #expect(text.status == 2)
        #expect(text.stderr == "sentinel: --active, --openapi, --exclude-url, --dast-checks and --zap need --dast URL\n")
    }

    /// An Express application (a stand-in for Express under `lib/`, no npm registry here): the
    /// route's path segment and query value are proven; the twin that strips markup is not.
    @Test(
        .enabled(if: TestHost.canSandbox, "the worker runs in the sandbox: needs root and user namespaces"),
        .enabled(if: VulnerableApp.node != nil, "needs node to run the application"))
    func provesExpressRoutes() throws {
        let directory = VulnerableApp.proveScriptDirectory
        let app = try VulnerableApp(
            script: "app.js", directory: directory, interpreter: try #require(VulnerableApp.node),
            environment: ["NODE_PATH": directory + "/lib"])
        defer { app.stop() }
        let home = NSTemporaryDirectory() + "prove-js-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try CLI.run(
            [
                "scan", directory + "/app.js", "--tools", "native", "--prove", app.url, "--rate", "500", "--format", "json",
                "--fail-on", "proven", "--min-confidence", "low",
            ], environment: ["SENTINEL_HOME": home, "PATH": "/usr/bin:/bin"], timeout: 600)
        #expect(result.status == 1, "\(result.stderr)")
        let findings = try Self.findings(result.stdout).filter { $0.rule == "javascript.taint-xss" }
        let proven = Dictionary(findings.map { ($0.line, $0.properties["proven"] ?? "-") }, uniquingKeysWith: { a, _ in a })
        #expect(proven == [10: "true", 14: "true", 18: "false"], "\(findings.map(\.properties))")
        #expect(findings.first { $0.line == 10 }?.properties["route"] == "/hello/:name")
    }

    /// `--dast` beside the static scan: a web finding at a route the code serves names the route
    /// and its handler's line.
    @Test(
        .enabled(if: TestHost.canSandbox, "the worker runs in the sandbox: needs root and user namespaces"),
        .enabled(if: VulnerableApp.flaskAvailable, "needs python3-flask to run the application"))
    func webFindingsArePlacedAtTheirHandlers() throws {
        let app = try VulnerableApp(script: "app.py", directory: VulnerableApp.proveDirectory)
        defer { app.stop() }
        let home = NSTemporaryDirectory() + "prove-dast-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try CLI.run(
            [
                "scan", VulnerableApp.proveDirectory, "--sast", "--tools", "native,dast", "--dast", app.url + "search?q=apple", "--active",
                "--dast-checks", "sqli", "--rate", "500", "--format", "json", "--fail-on", "none",
            ], environment: ["SENTINEL_HOME": home, "PATH": "/usr/bin:/bin"], timeout: 600)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let web = findings.filter { ($0["ruleId"] as? String) == "dast.sqli" }
        #expect(!web.isEmpty)
        for finding in web {
            let properties = finding["properties"] as? [String: String] ?? [:]
            #expect(properties["route"] == "/search" && properties["routeHandler"] == "app.py:29", "\(properties)")
        }
    }

    /// `--prove` alone: the configuration's `prove.run` starts the application in a sandbox
    /// (a discarded writable copy of the tree) whose network only the web worker shares; the
    /// same findings are proven as against the application run by hand.
    @Test(
        .enabled(if: TestHost.canSandbox && geteuid() == 0, "the application and the worker share a pod: needs a root launcher"),
        .enabled(if: VulnerableApp.flaskAvailable, "needs python3-flask to run the application"))
    func provesAgainstTheApplicationItStarts() throws {
        let home = NSTemporaryDirectory() + "prove-run-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let config = home + "/operator.yml"
        try """
        prove:
          run: [python3, app.py, --port, "8642"]
          port: 8642
          wait: 2m
          login: {url: /signin, fields: {user: tester, password: seeded-pass-1}}

        """.write(toFile: config, atomically: false, encoding: .utf8)
        let environment = ["SENTINEL_HOME": home + "/state", "PATH": "/usr/bin:/bin"]
        let result = try CLI.run(
            [
                "scan", VulnerableApp.proveDirectory, "--tools", "native", "--config", config, "--prove", "--rate", "500",
                "--format", "json", "--fail-on", "proven",
            ], environment: environment, timeout: 600)
        #expect(result.status == 1, "\(result.stderr)")
        let byLine = Dictionary(try Self.findings(result.stdout).map { ($0.line, $0) }, uniquingKeysWith: { a, _ in a })
        let search = try #require(byLine[32])
        #expect(search.properties["proven"] == "true", "\(search.properties)")
        #expect(search.properties["proofRequest"]?.hasPrefix("GET http://127.0.0.1:8642/search") == true)
        let comment = try #require(byLine[66])
        #expect(comment.properties["proven"] == "true", "\(comment.properties)")
        #expect(byLine[46]?.properties["proofReason"] == "the check did not confirm it at GET /lookup [code]")
        // Behind the login the declaration gives: signed in first, the value reaches the page.
        let notes = try #require(byLine[92])
        #expect(notes.rule == "python.taint-xss" && notes.properties["proven"] == "true", "\(notes.properties)")
        #expect(notes.properties["proofRequest"]?.hasPrefix("GET http://127.0.0.1:8642/notes") == true)
        // The login's values are redacted from what the proof kept.
        #expect(!notes.properties.values.contains { $0.contains("seeded-pass-1") })
        // Nothing the application wrote reached the tree: its copy was discarded.
        let left = try FileManager.default.contentsOfDirectory(atPath: VulnerableApp.proveDirectory).sorted()
        #expect(!left.contains("__pycache__"), "\(left)")

        // An application that ends before it answers: why, in one line, with its own last words.
        try "prove:\n  run: \"echo 'port 8642 is taken' >&2; exit 3\"\n  port: 8642\n".write(
            toFile: config, atomically: false, encoding: .utf8)
        let ended = try CLI.run(
            ["scan", VulnerableApp.proveDirectory, "--tools", "native", "--config", config, "--prove"],
            environment: environment, timeout: 600)
        #expect(ended.status == 2)
        #expect(
            ended.stderr
                == "sentinel: --prove: the application 'prove.run' starts ended before the proof did: it exited with status 3: port 8642 is taken\n"
        )
    }

    /// `prove.database`: a PostgreSQL server started in the pod beside the application, which is
    /// told where it is (`DATABASE_URL`) and started once it accepts connections.
    @Test(
        .enabled(if: TestHost.canSandbox && geteuid() == 0, "the application and the worker share a pod: needs a root launcher"),
        .enabled(if: VulnerableApp.postgresAppAvailable, "needs python3-flask, python3-psycopg2 and postgresql-15"))
    func provesAgainstAnApplicationOnItsOwnPostgreSQL() throws {
        let home = NSTemporaryDirectory() + "prove-pg-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let config = home + "/operator.yml"
        try "prove:\n  run: [python3, app.py, \"8643\"]\n  port: 8643\n  database: {engine: postgresql, name: shop, user: shop_app}\n"
            .write(toFile: config, atomically: false, encoding: .utf8)
        let environment = ["SENTINEL_HOME": home + "/state", "PATH": "/usr/bin:/bin"]
        let result = try CLI.run(
            [
                "scan", VulnerableApp.provePostgresDirectory, "--tools", "native", "--config", config, "--prove", "--rate", "500",
                "--format", "json",
            ], environment: environment, timeout: 600)
        #expect(result.status == 1, "\(result.stderr)")
        let findings = try Self.findings(result.stdout).filter { $0.rule == "python.taint-sql-injection" }
        #expect(findings.map(\.line) == [21], "\(findings)")
        #expect(findings.first?.properties["proven"] == "true", "\(findings)")
        #expect(findings.first?.properties["proofRequest"]?.hasPrefix("GET http://127.0.0.1:8643/search") == true)
    }

    /// What runs is the operator's or the base revision's choice: without a declaration there,
    /// `--prove` alone refuses; under `--since` the head's own `.sentinel.yml` does not count.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "needs git"))
    func theHeadsDeclarationDoesNotChooseWhatRuns() throws {
        let directory = NSTemporaryDirectory() + "prove-since-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "print('hello')\n".write(toFile: directory + "/app.py", atomically: false, encoding: .utf8)
        try CLI.git(["init", "-q"], in: directory)
        try CLI.git(["add", "."], in: directory)
        try CLI.git(["commit", "-q", "-m", "first"], in: directory)
        let none = try CLI.run(["scan", directory, "--prove"])
        #expect(none.status == 2)
        #expect(
            none.stderr
                == "sentinel: --prove without a URL starts the application 'prove.run' declares, and there is no configuration "
                + "(--config FILE or .sentinel.yml)\n")
        try "prove: {run: [sh, -c, 'touch /tmp/pwned'], port: 8000}\n".write(
            toFile: directory + "/.sentinel.yml", atomically: false, encoding: .utf8)
        let head = try CLI.run(["scan", directory, "--since", "HEAD", "--prove"])
        #expect(head.status == 2)
        #expect(head.stderr.contains("and there is no configuration"), "\(head.stderr)")
    }

    @Test func proveRefusesABadURLAndDast() throws {
        let bad = try CLI.run(["scan", ".", "--prove", "ftp://x/"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("sentinel: --prove: "), "\(bad.stderr)")
        // A URL without its scheme is the option's value, refused as a URL (not read as a path).
        let schemeless = try CLI.run(["scan", ".", "--prove", "localhost:5000"])
        #expect(schemeless.status == 2)
        #expect(schemeless.stderr == "sentinel: --prove: 'localhost:5000' is not an http:// or https:// URL\n", "\(schemeless.stderr)")
        let both = try CLI.run(["scan", ".", "--prove", "http://127.0.0.1:1/", "--dast", "http://127.0.0.1:1/"])
        #expect(both.status == 2)
        #expect(both.stderr == "sentinel: --prove and --dast cannot be used together\n")
    }
}
