import Findings
import Foundation
import Support
import TestSupport
import Testing
import Web

@testable import DAST

/// Values that wrap what the application reads (issue 59), on `encodingapp.py`: SQL inside
/// base64, pickles in hex, URL-safe base64 and raw bytes (one of them blind), XML parameters
/// whose parser resolves external entities (one without text, answering nothing of it), and
/// files that multipart forms upload (YAML, a pickle, XML).
@Suite(.integration, .enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
struct WrappedValueTests {
    @Test("probes go inside hex, base64 and byte values, and XML parameters get external entities; no twin is reported")
    func probesReachWhatValuesWrap() throws {
        let app = try VulnerableApp(script: "encodingapp.py")
        defer { app.stop() }
        let canary = try CanaryListener()
        defer { canary.stop() }
        var options = WebScanOptions(target: app.url)
        options.active = true
        options.ratePerSecond = 0
        options.seed = 7
        options.canary = canary.base()
        let result = try WebScan(options: options).run()
        #expect(result.fatal == nil)
        let hits = canary.tokens
        let findings = result.findings + result.probes.filter { hits[$0.token] != nil }.map(\.finding)
        func found(_ rule: String) -> [String] {
            findings.filter { $0.ruleId == "dast." + rule }.map {
                "\($0.location.url.flatMap(WebURL.init)?.path ?? "") \($0.location.parameter ?? "")"
            }.sorted()
        }
        #expect(found("sqli") == ["/export/cm9wZQ== (path segment 2)", "/report q"])
        #expect(findings.first { $0.ruleId == "dast.sqli" }?.message.contains("'q (base64)'") == true)
        #expect(
            found("insecure-deserialization") == ["/backup file", "/prefs p", "/restore blob", "/resume state", "/settings file"])
        let yamlEcho = findings.first { $0.ruleId == "dast.insecure-deserialization" && $0.location.url?.hasSuffix("/settings") == true }
        #expect(yamlEcho?.message.contains("YAML") == true && yamlEcho?.facts.web.parameterIn == "upload")
        let blind = findings.first { $0.ruleId == "dast.insecure-deserialization" && $0.location.url?.contains("/resume") == true }
        #expect(blind?.facts.web.technique == .time)
        #expect(found("xxe") == ["/feed file", "/import doc", "/ping doc"])
        let outOfBand = findings.first { $0.ruleId == "dast.xxe" && $0.location.url?.contains("/ping") == true }
        #expect(outOfBand?.facts.web.technique == .outOfBand)
    }

    @Test(
        "a value wraps text or a serialised object, not a random token or a number",
        arguments: [
            ("cm9wZQ==", "base64 rope"), ("dXNlcm5hbWU", "base64 username"), ("YWRtaW4", nil), ("726f7065", "hex rope"),
            ("3132333435363738", nil),
            ("9f86d081884c7d659a2feaa0c55ad015", nil), ("dGhpcyBpcyBub3QgYSB0b2tlbg", "base64 this is not a token"),
            ("Zm9vYmFy", "base64 foobar"), ("a8Fz9QpL2mX7", nil), ("12345678", nil), ("gASVDwAAAAAAAAB9lIwBYZRLAXMu", "base64 binary"),
        ])
    func wrappedValues(value: String, expected: String?) {
        let inner = ValueCoding.inner(of: value, raw: nil)
        let shown = inner.map { "\($0.coding.label) \($0.binary ? "binary" : $0.text)" }
        #expect(shown == expected)
        if let inner { #expect(inner.coding.wrap(inner.text, binary: inner.binary) == value) }
    }

    @Test("a cookie or header value that would end its line or cookie goes percent-encoded; any other as it is")
    func headerValuesStayWhole() throws {
        let endpoint = Endpoint(method: "GET", url: try #require(WebURL("http://127.0.0.1:1/p")), discovery: .link)
        let cookie = InsertionPoint(endpoint: endpoint, place: .cookie("prefs"), original: "dark")
        #expect(cookie.request("dark';--").header("Cookie") == "prefs=dark'%3B--")
        #expect(cookie.request("dark' OR 'a'='a").header("Cookie") == "prefs=dark' OR 'a'='a")
        #expect(cookie.request("a%41\r\nX: y").header("Cookie") == "prefs=a%2541%0D%0AX: y")
        let header = InsertionPoint(endpoint: endpoint, place: .header("X-Forwarded-Host"), original: "h")
        #expect(header.request("h;x\r\nSet-Cookie: a=b").header("X-Forwarded-Host") == "h;x%0D%0ASet-Cookie: a=b")
    }
}
