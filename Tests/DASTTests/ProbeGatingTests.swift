import DAST
import Findings
import Foundation
import TestSupport
import Testing
import Web

/// Fewer requests that find as much (issue 30): probes that work in every quoting state, checks
/// that go further only where the value is parsed, and the requests each check cost. Against
/// `loginapp.py`'s tools, shaped unlike the test application's: a value in single quotes in a
/// shell command that shows stdout only, an `eval` whose example value fails, an inert parameter.
@Suite(.integration, .enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
struct ProbeGatingTests {
    static func scan(_ app: VulnerableApp, transport: RecordingTransport? = nil) throws -> WebScanResult {
        var options = WebScanOptions(target: app.url + "tools")
        options.active = true
        options.ratePerSecond = 0
        options.seed = 11
        return try WebScan(options: options, transport: transport).run()
    }

    static func reported(_ result: WebScanResult, _ rule: String, path: String) -> Finding? {
        result.findings.first { $0.ruleId == rule && $0.location.url.flatMap(WebURL.init)?.path == path }
    }

    @Test func aQuotedShellValueAndAFailingEvalAreFoundAndTheirTwinsAreNot() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        let result = try Self.scan(app)
        let shell = Self.reported(result, "dast.command-injection", path: "/tools/banner")
        #expect(shell?.location.parameter == "text" && shell?.facts.web.technique == .output)
        #expect(Self.reported(result, "dast.command-injection", path: "/tools/banner-safe") == nil)
        #expect(Self.reported(result, "dast.code-injection", path: "/tools/convert")?.location.parameter == "expr")
        #expect(Self.reported(result, "dast.code-injection", path: "/tools/convert-safe") == nil)
    }

    @Test func anInertParameterGetsNoErrorConditionOrEchoProbes() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        let transport = RecordingTransport()
        _ = try Self.scan(app, transport: transport)
        let values = transport.requests.filter { $0.url.path == "/tools/static" }.compactMap { request in
            request.url.queryItems.first { $0.name == "ref" }?.value
        }
        #expect(values.contains(where: { $0.hasSuffix(ActiveContext.breaker) }))
        // Conditions (SQL, XPath, LDAP), echoes and ERB need a parsed value: none sent (the breaker
        // and the sleeps aside; `{{ }}`/`${ }` arithmetic is always asked: lenient engines exist).
        let rest = values.filter { !$0.hasSuffix(ActiveContext.breaker) && !$0.contains("SLEEP(") }
        for shape in [" AND ", " OR ", " and ", "objectClass", "echo ", "<%="] {
            #expect(!rest.contains { $0.contains(shape) }, "\(shape)")
        }
        // The blind probes still ask: a sleep shows where nothing else does.
        #expect(values.contains { $0.contains("SLEEP(") } && values.contains { $0.contains("sleep ") })
    }

    @Test func everyRequestIsCountedUnderTheCheckThatSentIt() throws {
        let app = try VulnerableApp(script: "loginapp.py")
        defer { app.stop() }
        let result = try Self.scan(app)
        let counts = result.requestsByCheck
        #expect(counts.values.reduce(0, +) == result.requests, "\(counts) vs \(result.requests)")
        #expect((counts["crawl"] ?? 0) > 0 && (counts["baseline"] ?? 0) > 0 && (counts["command-injection"] ?? 0) > 0)
    }
}
