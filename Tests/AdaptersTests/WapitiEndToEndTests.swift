import Findings
import Foundation
import Sandbox
import ScanCore
import Support
import Synchronization
import TestSupport
import Testing

@testable import Adapters

/// A tiny vulnerable site on 127.0.0.1 for Wapiti: an index without security headers linking to
/// `/search`, which echoes `q` unescaped (a reflected XSS).
enum VulnerableSite {
    static func start() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            let parts = request.path.split(separator: "?", maxSplits: 1).map(String.init)
            let html = [("Content-Type", "text/html"), ("Set-Cookie", "session=abc123; Path=/")]
            switch parts[0] {
            case "/":
                let index = """
                    <html><head><title>shop</title></head><body><a href="/search?q=shoes">search</a>
                    <form action="/search" method="get"><input name="q" value=""><input type="submit"></form></body></html>
                    """
                return LoopbackHTTPServer.Response(status: 200, headers: html, body: Array(index.utf8))
            case "/search":
                let query = URLComponents(string: request.path)?.queryItems?.first { $0.name == "q" }?.value ?? ""
                let page = "<html><body><p>Results for \(query)</p></body></html>"
                return LoopbackHTTPServer.Response(status: 200, headers: html, body: Array(page.utf8))
            default:
                return LoopbackHTTPServer.Response(status: 404, body: Array("not found".utf8))
            }
        }
    }
}

/// Runs invocations in the real sandbox and keeps each run's result (its egress log).
final class RecordingExecutor: ToolExecutor {
    let inner: SandboxToolExecutor
    private let results = Mutex<[RunResult]>([])

    init(runner: SandboxRunner) { inner = SandboxToolExecutor(runner: runner) }

    var runs: [RunResult] { results.withLock { $0 } }

    func execute(_ invocation: ToolInvocation) throws -> RunResult {
        let result = try inner.execute(invocation)
        results.withLock { $0.append(result) }
        return result
    }
}

/// The real Wapiti in the real sandbox against a site started by the test on 127.0.0.1. The site
/// is two pages and the modules are few, so each run takes seconds.
@Suite(
    .enabled(if: TestHost.canSandbox, "the sandbox needs root and user namespaces"),
    .enabled(
        if: WapitiScanner(targetURL: "http://127.0.0.1/").installation(context: AdapterHost.context()).missingReason == nil,
        "needs wapiti: run scripts/install-tools.sh"))
struct WapitiEndToEndTests {
    let files = ScanTarget(root: "/nonexistent", files: [])

    /// Scans the site with `modules` and checks that the proxy let Wapiti reach the site alone.
    func scan(active: Bool, modules: [String]) throws -> (ScannerOutput, LoopbackHTTPServer) {
        let site = try VulnerableSite.start()
        defer { site.stop() }
        let context = AdapterHost.context()
        let executor = RecordingExecutor(runner: context.sandbox)
        let scanner = WapitiScanner(
            targetURL: site.baseURL + "/", active: active, maxDuration: 600, modules: modules, executor: executor)
        let output = try scanner.scan(files, context: context)
        let egress = try #require(executor.runs.first).egress
        #expect(!egress.isEmpty)
        for record in egress {
            #expect(record.host == "127.0.0.1" && record.port == site.port && record.allowed, "\(record)")
        }
        #expect(output.notices.first?.message.hasPrefix("wapiti egress: connected to 127.0.0.1:\(site.port) ") == true)
        #expect(!site.requests.isEmpty)
        return (output, site)
    }

    @Test func anActiveScanFindsTheReflectedXSSAndReachesOnlyTheTarget() throws {
        let (output, site) = try scan(active: true, modules: ["xss"])
        let xss = try #require(output.findings.first { $0.ruleId == "wapiti.reflected-cross-site-scripting" })
        #expect(xss.cwe == [79])
        #expect(xss.location == Location(url: "\(site.baseURL)/search", method: "GET", parameter: "q"))
        #expect(xss.tool == "wapiti")
        #expect(output.tool.version?.hasPrefix("3.2") == true)
        #expect(site.requests.contains { $0.path.lowercased().contains("script") })
    }

    @Test func aPassiveScanReportsTheMissingHeadersWithoutAttacking() throws {
        let (output, site) = try scan(active: false, modules: WapitiScanner.passiveModules)
        let rules = Set(output.findings.map(\.ruleId))
        #expect(rules.contains("wapiti.content-security-policy-configuration"))
        #expect(rules.contains("wapiti.clickjacking-protection"))
        #expect(rules.contains("wapiti.httponly-flag-cookie"))
        #expect(!rules.contains("wapiti.reflected-cross-site-scripting"))
        // Passive: only GETs of the pages the crawl found, no payloads.
        #expect(site.requests.allSatisfy { $0.method == "GET" && !$0.path.lowercased().contains("script") })
    }
}
