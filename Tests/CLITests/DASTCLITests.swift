import Foundation
import TestSupport
import Testing

/// `sentinel scan --dast` end to end: the worker runs in the sandbox with the target as its only
/// egress, findings come out in the usual report, and bad input exits 2 with one line.
@Suite(.serialized)
struct DASTCLITests {
    /// `RULE URL PARAMETER` of each web finding of a JSON report.
    static func located(_ report: [String: Any]) throws -> [String] {
        let findings = try #require(report["findings"] as? [[String: Any]])
        return findings.compactMap { finding -> String? in
            guard let location = finding["location"] as? [String: Any], let url = location["url"] as? String else { return nil }
            return "\(finding["ruleId"] ?? "") \(url) \(location["parameter"] ?? "")"
        }
    }

    @Test(
        .enabled(if: TestHost.canSandbox, "the worker runs in the sandbox: needs root and user namespaces"),
        .enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
    func anActiveScanReportsThroughTheSandboxAndContactsOnlyTheTarget() throws {
        let app = try VulnerableApp()
        defer { app.stop() }
        let home = NSTemporaryDirectory() + "dast-cli-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try CLI.run(
            [
                "scan", "--dast", app.url, "--active", "--rate", "500", "--format", "json",
                "--openapi", VulnerableApp.directory + "/openapi.json",
            ], environment: ["SENTINEL_HOME": home, "PATH": "/usr/bin:/bin"], timeout: 600)
        #expect(result.status == 1, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let located = try Self.located(report)
        #expect(located.contains("dast.xss-reflected \(app.url)xss/reflect q"))
        #expect(located.contains("dast.sqli \(app.url)products id"))
        #expect(located.contains("dast.ssrf \(app.url)fetch url"))
        #expect(located.contains("dast.xxe \(app.url)xml body"))
        // A twin is safe from its injection; the site-wide passive rules (cookie flags, banner, forms
        // without an anti-CSRF token) fire on twins as on the rest of the app.
        let passive = ["cookie", "banner", "dast.csrf-token-missing "]
        #expect(!located.contains { line in line.contains("/safe/") && !passive.contains { line.contains($0) } })
        // The egress log of the sandboxed worker names the target and nothing else.
        let summary = try #require(report["summary"] as? [String: Any])
        let notices = (summary["notices"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        let egress = notices.filter { $0.hasPrefix("dast egress: ") }
        #expect(egress.count == 1, "another host was contacted or refused: \(egress)")
        #expect(egress.first?.hasPrefix("dast egress: connected to 127.0.0.1:\(app.port) ") == true)
    }

    /// Root's scan runs in an analysis sandbox that sees only what root lends it: Wapiti's venv,
    /// beside the tools venv (its pins clash with Semgrep's), must be lent as the tools venv is.
    @Test(
        .enabled(if: TestHost.canSandbox, "the analysis runs in the sandbox: needs root and user namespaces"),
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/opt/sentinel-tools/wapiti/bin/wapiti"),
            "needs wapiti: run scripts/install-tools.sh"))
    func wapitiRunsFromRootsAnalysisSandbox() throws {
        let site = try LoopbackHTTPServer { _ in
            LoopbackHTTPServer.Response(
                status: 200, headers: [("Content-Type", "text/html")], body: Array("<html><body>shop</body></html>".utf8))
        }
        defer { site.stop() }
        let home = NSTemporaryDirectory() + "dast-wapiti-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try CLI.run(
            ["scan", "--dast", site.baseURL + "/", "--tools", "wapiti", "--format", "json"],
            environment: ["SENTINEL_HOME": home, "PATH": "/usr/bin:/bin"], timeout: 900)
        #expect(!result.stderr.contains("is not installed"), "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let tools = (report["summary"] as? [String: Any])?["tools"] as? [[String: Any]] ?? []
        #expect(tools.first { $0["name"] as? String == "wapiti" }?["status"] as? String == "succeeded", "\(tools)")
    }

    @Test(
        .enabled(if: TestHost.canSandbox, "the worker runs in the sandbox: needs root and user namespaces"),
        .enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
    func theOperatorsConfigLogsTheScanIn() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        let home = NSTemporaryDirectory() + "dast-login-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let config = home + "/scan.yml"
        try Data(
            "dast:\n  login:\n    url: /login\n    fields: {user: carol, pass: {env: LOGINAPP_PASSWORD}}\n    loggedInText: Signed in as\n"
                .utf8
        ).write(to: URL(fileURLWithPath: config))
        let result = try CLI.run(
            ["scan", "--dast", app.url, "--active", "--rate", "500", "--format", "json", "--config", config],
            environment: ["SENTINEL_HOME": home, "PATH": "/usr/bin:/bin", "LOGINAPP_PASSWORD": "s3cret-Passw0rd"],
            timeout: 600)
        #expect(result.status == 1, "\(result.stderr)")
        let located = try Self.located(try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]))
        // Behind the login: the crawl started where the login landed (/dashboard).
        #expect(located.contains("dast.xss-reflected \(app.url)notes q"))
        // The password never appears in the report.
        #expect(!result.stdout.contains("s3cret-Passw0rd") && !result.stderr.contains("s3cret-Passw0rd"))
    }

    @Test(arguments: [
        (
            ["--dast", "http://user:pw@127.0.0.1:9/"],
            "sentinel: --dast: the URL holds credentials; pass them with --header 'Authorization: ...' so they stay out of reports\n"
        ),
        (
            ["--dast", "http://127.0.0.1:9/#x"],
            "sentinel: --dast: 'http://127.0.0.1:9/#x' has a fragment (#...), which never reaches the server; remove it\n"
        ),
        (["--dast", "file:///etc/passwd"], "sentinel: --dast: 'file:///etc/passwd' is not an http:// or https:// URL\n"),
        (
            ["--active"],
            "sentinel: --active, --openapi, --header, --cookie, --exclude-url, --dast-checks, --max-duration, --max-requests, "
                + "--rate and --zap need --dast URL\n"
        ),
        (
            ["--exclude-url", "/admin/**"],
            "sentinel: --active, --openapi, --header, --cookie, --exclude-url, --dast-checks, --max-duration, --max-requests, "
                + "--rate and --zap need --dast URL\n"
        ),
        (
            ["--dast", "http://127.0.0.1:9/", "--exclude-url", "/a/[b"],
            "sentinel: --exclude-url: glob '/a/[b': unclosed '['\n"
        ),
        (["--dast", "http://127.0.0.1:9/", "--header", "Bearer token"], "sentinel: --header: an entry is not 'Name: value'\n"),
    ])
    func badWebInputExitsTwoWithOneLine(arguments: [String], message: String) throws {
        let result = try CLI.run(["scan"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message)
        #expect(result.stdout.isEmpty)
    }

    @Test func anUnknownCheckExitsTwoListingTheKnownOnes() throws {
        let result = try CLI.run(["scan", "--dast", "http://127.0.0.1:9/", "--dast-checks", "sqli,-nosuch"])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "Error: The value 'sqli,-nosuch' is invalid for '--dast-checks <ids>'. Please provide one of the following:\n"))
        #expect(result.stderr.contains("  - sqli\n  - ssrf\n") && result.stdout.isEmpty)
    }

    @Test(.enabled(if: TestHost.canSandbox, "the worker runs in the sandbox: needs root and user namespaces"))
    func anUnreachableTargetExitsTwoNamingIt() throws {
        let result = try CLI.run(["scan", "--dast", "http://127.0.0.1:9/", "--format", "json"], timeout: 120)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("sentinel: --dast: http://127.0.0.1:9/: the target did not answer: "))
        #expect(result.stderr.hasSuffix("\n") && result.stderr.split(separator: "\n").count == 1)
    }
}
