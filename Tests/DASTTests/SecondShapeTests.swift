import DAST
import Findings
import Foundation
import TestSupport
import Testing

/// Every class the active checks look for, on `labapp.py`: a second shape of each, unlike the
/// test application's (issue 30) — the other SQL context and technique, stored XSS through a JSON
/// API, a JSONP parameter of another name, XML in a query parameter, a double-quoted XPath literal
/// with errors hidden, a value used twice in an LDAP filter, `${ }` templates, a pickle in a
/// hidden form field. Each twin (a `-safe` path) does the same safely and must stay clean.
@Suite(.enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
struct SecondShapeTests {
    @Test func eachClassIsFoundInItsSecondShapeAndNoTwinIsFlagged() throws {
        let app = try VulnerableApp(script: "labapp.py")
        defer { app.stop() }
        var options = WebScanOptions(target: app.url)
        options.active = true
        options.ratePerSecond = 0
        options.seed = 5
        let result = try WebScan(options: options).run()
        #expect(result.fatal == nil)
        func finding(_ rule: String, _ path: String) -> Finding? {
            result.findings.first { $0.ruleId == "dast." + rule && $0.location.url.flatMap(WebURL.init)?.path == path }
        }
        let expected: [(rule: String, path: String, parameter: String)] = [
            ("sqli", "/item", "id"), ("sqli", "/stock", "id"), ("xss-stored", "/api/comments", "text"),
            ("xss-jsonp-callback", "/profile.js", "jsonp"), ("xxe", "/import", "doc"), ("xpath-injection", "/member", "name"),
            ("ldap-injection", "/people", "q"), ("template-injection", "/card", "title"),
            ("insecure-deserialization", "/wizard", "state"),
            // Found only because the reads are tested before the writes that add matching rows.
            ("sqli", "/notes", "owner"),
        ]
        for (rule, path, parameter) in expected {
            #expect(finding(rule, path)?.location.parameter == parameter, "\(rule) at \(path)")
        }
        // Numeric blind SQL: the boolean pair where the page shows the row, the sleep where it never changes.
        #expect(finding("sqli", "/item")?.facts.web.technique == .boolean)
        #expect(finding("sqli", "/stock")?.facts.web.technique == .time)
        let injection: Set<Int> = [79, 89, 90, 94, 95, 502, 611, 643, 1336]
        let twins = result.findings.filter { finding in
            (finding.location.url ?? "").contains("-safe") && !Set(finding.cwe).isDisjoint(with: injection)
        }
        #expect(twins.isEmpty, "\(twins.map { "\($0.ruleId) \($0.location.url ?? "")" })")
    }
}
