import DAST
import Findings
import Foundation
import TestSupport
import Testing
import Web

/// The engine against the deliberately vulnerable application: every seeded vulnerability is
/// reported with its CWE and parameter, no safe twin is, and nothing outside the target's
/// origin is ever requested. In process, without the sandbox (the CLI tests cover that).
@Suite(.integration, .enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
struct VulnerableAppScanTests {
    static func options(_ app: VulnerableApp, active: Bool) throws -> WebScanOptions {
        var options = WebScanOptions(target: app.url)
        options.active = active
        options.ratePerSecond = 0
        options.seed = 42
        options.api = try APISeeds.load(path: VulnerableApp.directory + "/openapi.json", base: try #require(WebURL(app.url)))
        return options
    }

    static func matches(_ finding: Finding, path: String, parameter: String?) -> Bool {
        guard let url = finding.location.url, let parsed = WebURL(url) else { return false }
        return parsed.path == path && (parameter == nil || finding.location.parameter == parameter)
    }

    /// Injection rules: a twin must never draw one (passive rules may fire site-wide).
    static let injectionRules: Set<String> = [
        "dast.xss-reflected", "dast.xss-stored", "dast.xss-jsonp-callback", "dast.sqli", "dast.command-injection",
        "dast.path-traversal", "dast.code-injection", "dast.template-injection", "dast.open-redirect", "dast.ssrf",
        "dast.xxe", "dast.crlf-injection", "dast.xpath-injection", "dast.ldap-injection", "dast.insecure-deserialization",
    ]

    @Test func activeScanReportsEverySeededVulnerabilityAndNoTwin() throws {
        let app = try VulnerableApp()
        defer { app.stop() }
        let canary = try CanaryListener()
        defer { canary.stop() }
        var options = try Self.options(app, active: true)
        options.canary = canary.base()
        options.headers = ["Authorization: Bearer sentinel-test-token"]
        let transport = RecordingTransport()
        let result = try WebScan(options: options, transport: transport).run()
        let manifest = try VulnerableApp.manifest()
        #expect(result.fatal == nil)
        #expect(result.stoppedBy == "complete")

        let hits = canary.tokens
        let findings = result.findings + result.probes.filter { hits[$0.token] != nil }.map(\.finding)
        for expected in manifest.vulnerabilities {
            let found = findings.filter { Self.matches($0, path: expected.path, parameter: expected.parameter) }
            #expect(
                found.contains { $0.cwe.contains(expected.cwe) && Self.injectionRules.contains($0.ruleId) },
                "\(expected.id): \(expected.method ?? "") \(expected.path) [\(expected.parameter ?? "")] CWE-\(expected.cwe) not reported")
            if let twin = expected.twin {
                let flagged = findings.filter {
                    Self.injectionRules.contains($0.ruleId) && Self.matches($0, path: twin.path, parameter: twin.parameter)
                }
                #expect(flagged.isEmpty, "\(expected.id): safe twin \(twin.path) reported: \(flagged.map(\.ruleId))")
            }
        }
        // No request ever left the target's origin, whatever the pages linked or redirected to.
        let origin = try #require(WebURL(app.url)).origin
        #expect(transport.requests.allSatisfy { $0.url.origin == origin })
        #expect(!result.outOfScope.isEmpty)
    }

    @Test func passiveScanSendsOnlyReadsAndReportsThePassiveIssues() throws {
        let app = try VulnerableApp()
        defer { app.stop() }
        let transport = RecordingTransport()
        // No --openapi: the document at /openapi.json is found and read by the crawler itself
        // (the CORS endpoint is listed nowhere else).
        var options = try Self.options(app, active: false)
        options.api = []
        let result = try WebScan(options: options, transport: transport).run()
        #expect(transport.requests.allSatisfy { $0.method == "GET" })
        let rules = Set(result.findings.map(\.ruleId))
        for rule in [
            "dast.missing-csp", "dast.missing-x-content-type-options", "dast.clickjacking", "dast.server-banner",
            "dast.directory-listing", "dast.exposed-git", "dast.exposed-env", "dast.exposed-backup",
            "dast.cors-origin-reflected",
        ] {
            #expect(rules.contains(rule), "\(rule) not reported")
        }
        // The page that sends every header is never the one reported for a missing header.
        #expect(!result.findings.contains { Self.matches($0, path: "/secure", parameter: nil) })
        #expect(!result.findings.contains { Self.matches($0, path: "/safe/api/cors", parameter: nil) })
        #expect(result.findings.allSatisfy { !Self.injectionRules.contains($0.ruleId) })
    }
}
