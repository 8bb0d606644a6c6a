import DAST
import Findings
import Foundation
import Support
import TestSupport
import Testing
import Web

/// Every class the active checks look for, on `labapp.py`: a second shape of each, unlike the
/// test application's (issue 30) — the other SQL context and technique, stored XSS through a JSON
/// API, a JSONP parameter of another name, XML in a query parameter, a double-quoted XPath literal
/// with errors hidden, a value used twice in an LDAP filter, `${ }` templates, a pickle in a
/// hidden form field. Each twin (a `-safe` path) does the same safely and must stay clean.
@Suite(.integration, .enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
struct SecondShapeTests {
    /// An active scan of a fresh `labapp.py` with `checks`.
    static func scan(checks: WebCheckSelection = WebCheckSelection()) throws -> WebScanResult {
        let app = try VulnerableApp(script: "labapp.py")
        defer { app.stop() }
        var options = WebScanOptions(target: app.url)
        options.active = true
        options.ratePerSecond = 0
        options.seed = 5
        options.checks = checks
        return try WebScan(options: options).run()
    }

    @Test func eachClassIsFoundInItsSecondShapeAndNoTwinIsFlagged() throws {
        let result = try Self.scan()
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
            // A sign-in reads: only a widening OR shows it, and it is SQL, not XPath.
            ("sqli", "/signin", "password"),
            // A GraphQL API found by its usual path and read by introspection.
            ("sqli", "/graphql", "variables.books_author"),
            // A not-found page that shows the path it was asked for.
            ("xss-reflected", "/sentinel-missing-page", "(path)"),
        ]
        for (rule, path, parameter) in expected {
            #expect(finding(rule, path)?.location.parameter == parameter, "\(rule) at \(path)")
        }
        // Numeric blind SQL: the boolean pair where the page shows the row, the sleep where it never changes.
        #expect(finding("sqli", "/item")?.facts.web.technique == .boolean)
        #expect(finding("sqli", "/stock")?.facts.web.technique == .time)
        #expect(finding("xpath-injection", "/signin") == nil)
        #expect(!result.findings.contains { $0.location.parameter == "variables.booksSafe_author" })
        // No cookie ever set: a forged request carries no credentials, token-less forms are no CSRF risk.
        #expect(!result.findings.contains { $0.ruleId == "dast.csrf-token-missing" })
        let injection: Set<Int> = [79, 89, 90, 94, 95, 502, 611, 643, 1336]
        let twins = result.findings.filter { finding in
            (finding.location.url ?? "").contains("-safe") && !Set(finding.cwe).isDisjoint(with: injection)
        }
        #expect(twins.isEmpty, "\(twins.map { "\($0.ruleId) \($0.location.url ?? "")" })")
    }

    /// With the SQL check left out, the sign-in's answers to lower-case conditions still must not
    /// pass for XPath: SQL cannot evaluate XPath's own `string-length`. The XPath lab still is.
    @Test func aSignInOverSQLIsNotReportedAsXPathWhenOnlyXPathIsChecked() throws {
        let result = try Self.scan(checks: WebCheckSelection(parsing: ["xpath-injection"]))
        let paths = result.findings.map { "\($0.ruleId) \($0.location.url.flatMap(WebURL.init)?.path ?? "")" }
        #expect(paths == ["dast.xpath-injection /member"], "\(paths)")
    }

    /// Nothing links to the API: it is found at its usual path, read by introspection, and each
    /// operation's variables are tested; a mutation named for destruction is never sent.
    @Test func aGraphQLAPIIsTestedThroughItsVariablesAndItsDestructiveMutationIsNeverSent() throws {
        let app = try VulnerableApp(script: "labapp.py")
        defer { app.stop() }
        var options = WebScanOptions(target: app.url)
        options.active = true
        options.ratePerSecond = 0
        options.checks = try WebCheckSelection(parsing: ["sqli"])
        let result = try WebScan(options: options).run()
        let parameters = result.findings.filter { $0.location.url?.hasSuffix("/graphql") == true }.map(\.location.parameter)
        #expect(parameters == ["variables.books_author"])
        let transport = CurlTransport(timeout: 10, connectTimeout: 5, maxBodyBytes: 1 << 16)
        let deletes = try transport.send(WebRequest(url: try #require(WebURL(app.url + "graphql/deletes"))))
        #expect(deletes.text == "[]")
    }

    @Test func aCheckNoRuleNamesIsRefusedWithTheKnownOnes() {
        #expect {
            try WebCheckSelection(parsing: ["sqli,-nope"])
        } throws: { error in
            (error as? SentinelError)?.message.hasPrefix("--dast-checks: no check reports 'nope' (known: ") == true
        }
        let selection = try? WebCheckSelection(parsing: ["-csrf-token-missing"])
        #expect(selection?.reports("dast.sqli") == true && selection?.reports("dast.csrf-token-missing") == false)
    }
}
