import Findings
import Foundation
import ScanCore
import Support
import Testing

@testable import Adapters

/// `WapitiReport` over a real Wapiti 3.2.3 report (`Fixtures/wapiti`) and hand-made edge cases.
@Suite struct WapitiReportTests {
    static let target = "http://127.0.0.1:8765/"

    static func fixture() throws -> ScannerOutput {
        try WapitiReport.parse(data: AdapterFixtures.data("../wapiti/report.json"), targetURL: target)
    }

    static func parse(_ json: String, target: String = WapitiReportTests.target) throws -> ScannerOutput {
        try WapitiReport.parse(data: Data(json.utf8), targetURL: target)
    }

    /// The `.toolFailed` message parsing `json` throws.
    static func failure(_ json: String) -> String? {
        do {
            _ = try parse(json)
            return nil
        } catch let error as SentinelError {
            #expect(error.code == .toolFailed)
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func theRealReportGivesOneFindingPerEntry() throws {
        let output = try Self.fixture()
        #expect(
            output.findings.map(\.ruleId) == [
                "wapiti.content-security-policy-configuration", "wapiti.clickjacking-protection",
                "wapiti.mime-type-confusion", "wapiti.httponly-flag-cookie", "wapiti.reflected-cross-site-scripting",
                "wapiti.secure-flag-cookie", "wapiti.http-methods", "wapiti.http-methods",
            ])
        #expect(output.findings.allSatisfy { $0.tool == "wapiti" && $0.location.isWeb })
        #expect(output.findings.map(\.cwe) == [[693], [1021], [693], [1004], [79], [614], [], []])
        #expect(output.tool.name == "wapiti")
        #expect(output.tool.version == "3.2.3")
        #expect(output.tool.informationURI == "https://wapiti-scanner.github.io/")
        #expect(output.notices.isEmpty)
    }

    @Test func theReflectedXSSIsLocatedAtItsParameter() throws {
        let xss = try #require(try Self.fixture().findings.first { $0.ruleId == "wapiti.reflected-cross-site-scripting" })
        #expect(xss.location == Location(url: "http://127.0.0.1:8765/search", method: "GET", parameter: "q"))
        #expect(xss.severity == .medium)
        #expect(xss.confidence == .medium)
        #expect(xss.message == "Reflected Cross Site Scripting vulnerability found via injection in the parameter q")
        let evidence = try #require(xss.evidence)
        #expect(
            evidence.hasPrefix(
                "Reflected Cross Site Scripting vulnerability found via injection in the parameter q\n\nGET /search?q=%3CScRiPt%3E"))
        // The site's session cookie in the recorded request is masked.
        #expect(evidence.contains("\ncookie: [masked]"))
        #expect(!evidence.contains("abc123"))
        #expect(xss.facts.properties == ["category": "Reflected Cross Site Scripting", "module": "xss", "wstg": "WSTG-INPV-01"])
        #expect(xss.references.contains("https://cwe.mitre.org/data/definitions/79.html"))
    }

    @Test func headerChecksAreLowSeverityObservations() throws {
        let output = try Self.fixture()
        let csp = output.findings[0]
        #expect(csp.location == Location(url: "http://127.0.0.1:8765/", method: "GET", parameter: nil))
        #expect(csp.severity == .low)
        #expect(csp.confidence == .high)
        #expect(csp.message == "CSP is not set")
        let methods = output.findings[6]
        #expect(methods.severity == .info)
        #expect(methods.confidence == .low)
        #expect(methods.facts.properties["section"] == "additionals")
        #expect(output.findings[7].location.url == "http://127.0.0.1:8765/search")
    }

    @Test func eachCategoryHasARuleDescriptorFromItsClassification() throws {
        let rules = try Self.fixture().rules
        #expect(rules.count == 7)
        #expect(rules.map(\.id) == rules.map(\.id).sorted())
        let xss = try #require(rules.first { $0.id == "wapiti.reflected-cross-site-scripting" })
        #expect(xss.tool == "wapiti")
        #expect(xss.name == "Reflected Cross Site Scripting")
        #expect(xss.fullDescription?.hasPrefix("Cross-site scripting (XSS)") == true)
        #expect(xss.help?.isEmpty == false)
        #expect(xss.helpURI?.hasPrefix("https://") == true)
        #expect(xss.cwe == [79])
        #expect(xss.defaultSeverity == .medium)
    }

    @Test(arguments: [
        ("", "wapiti failed: no JSON output"),
        ("{\"vulnerabilities\": {", "wapiti failed: unreadable JSON output (21 bytes)"),
        ("<html>", "wapiti failed: unreadable JSON output (6 bytes)"),
        ("[]", "wapiti failed: its JSON output has no 'vulnerabilities' object"),
        (#"{"vulnerabilities": []}"#, "wapiti failed: its JSON output has no 'vulnerabilities' object"),
    ])
    func aReportThatIsNotOneIsAToolFailure(json: String, prefix: String) {
        #expect(Self.failure(json)?.hasPrefix(prefix) == true)
    }

    @Test func anEmptyReportHasNoFindings() throws {
        let output = try Self.parse(#"{"vulnerabilities": {}, "anomalies": {}, "infos": {"version": "Wapiti 3.2.3"}}"#)
        #expect(output.findings.isEmpty)
        #expect(output.rules.isEmpty)
        #expect(output.notices.isEmpty)
    }

    @Test func anUnknownCategoryKeepsItsNameAsRuleAndTheCWEItsReferencesName() throws {
        let output = try Self.parse(
            #"""
            {"classifications": {"Quantum Leak!": {"desc": "d", "sol": "s",
               "ref": {"CWE-200: Exposure": "https://cwe.mitre.org/data/definitions/200.html", "bad": "javascript:x"}}},
             "vulnerabilities": {"Quantum Leak!": [{"method": "post", "path": "api/x", "info": "leak", "level": 3,
               "parameter": "token"}], "Mystery": [{"path": "/m", "level": "critical"}]},
             "anomalies": {"Internal Server Error": [{"method": "GET", "path": "/boom", "level": 2, "info": "500"}]}}
            """#)
        #expect(output.findings.map(\.ruleId) == ["wapiti.quantum-leak", "wapiti.mystery", "wapiti.internal-server-error"])
        let leak = output.findings[0]
        #expect(leak.cwe == [200])
        #expect(leak.references == ["https://cwe.mitre.org/data/definitions/200.html"])
        #expect(leak.location == Location(url: "http://127.0.0.1:8765/api/x", method: "POST", parameter: "token"))
        #expect(leak.severity == .high)
        #expect(output.findings[1].cwe.isEmpty)
        #expect(output.findings[1].severity == .critical)
        #expect(output.findings[1].message == "Mystery")
        #expect(output.findings[2].confidence == .low)
        #expect(output.findings[2].facts.properties["section"] == "anomalies")
        #expect(output.findings[2].cwe == [388])
    }

    @Test func malformedEntriesAreSkippedWithANotice() throws {
        let output = try Self.parse(
            #"{"vulnerabilities": {"SQL Injection": [1, "x", {"path": "/q", "level": 2}], "Path Traversal": {"a": 1}}}"#)
        #expect(output.findings.map(\.ruleId) == ["wapiti.sql-injection"])
        #expect(output.findings[0].cwe == [89])
        #expect(output.notices.map(\.message) == ["wapiti: 3 malformed report entries skipped"])
    }

    @Test func aScanThatCrawledNothingSaysSo() throws {
        let output = try Self.parse(#"{"vulnerabilities": {}, "infos": {"crawled_pages_nbr": 0}}"#)
        #expect(
            output.notices.map(\.message) == [
                "wapiti: crawled no page of http://127.0.0.1:8765/; is it reachable (the sandbox allows only 127.0.0.1:8765)?"
            ])
    }

    @Test func theHostComesFromTheRecordedRequestWhenItIsPlain() throws {
        let output = try Self.parse(
            #"""
            {"vulnerabilities": {"Open Redirect": [
              {"path": "/a", "http_request": "GET /a HTTP/1.1\nhost: sub.example.com:8443\n"},
              {"path": "/b", "http_request": "GET /b HTTP/1.1\nHost: evil.com/\u001b[2J\n"},
              {"path": "https://other.example/c"}]}}
            """#, target: "https://example.com:8443/")
        #expect(
            output.findings.map(\.location.url) == [
                "https://sub.example.com:8443/a", "https://example.com:8443/b", "https://other.example/c",
            ])
        #expect(output.findings.map(\.cwe) == [[601], [601], [601]])
        // Control characters from the hostile request never reach the evidence.
        #expect(output.findings[1].evidence?.contains("\u{1b}") == false)
    }

    @Test func credentialsInTheRecordedRequestAreMasked() {
        let request = "GET / HTTP/1.1\nHost: a\nAuthorization: Basic dXNlcjpwYXNz\nCookie: sid=1\nProxy-Authorization: x"
        #expect(
            WapitiEntry.masked(request)
                == "GET / HTTP/1.1\nHost: a\nAuthorization: [masked]\nCookie: [masked]\nProxy-Authorization: [masked]")
    }

    @Test(arguments: [
        ("Reflected Cross Site Scripting", "reflected-cross-site-scripting"),
        ("HTTP Strict Transport Security (HSTS)", "http-strict-transport-security-hsts"),
        ("TLS/SSL misconfigurations", "tls-ssl-misconfigurations"),
        ("  ---  ", "unknown"),
        ("Ünïcode only ✓", "n-code-only"),
    ])
    func categoryNamesBecomeSlugs(name: String, slug: String) {
        #expect(WapitiCategories.slug(name) == slug)
    }
}
