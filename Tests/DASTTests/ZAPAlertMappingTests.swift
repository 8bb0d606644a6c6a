import DAST
import Findings
import Foundation
import Testing

/// ZAP alerts → findings: every field, the risk and confidence tables, false positives,
/// de-duplication, rule descriptors and what is done to hostile text.
@Suite struct ZAPAlertMappingTests {
    static let xss = ZAPAlert(
        pluginId: "40012", alertRef: "40012-1", name: "Cross Site Scripting (Reflected)", risk: "High",
        confidence: "Medium", url: "http://127.0.0.1:8080/search?q=%3Cscript%3E", method: "GET", param: "q",
        attack: "<scrIpt>alert(1);</scRipt>", evidence: "<scrIpt>alert(1);</scRipt>", cweId: 79, wascId: 8,
        reference: "https://owasp.org/www-community/attacks/xss/\nhttps://cwe.mitre.org/data/definitions/79.html",
        solution: "Validate all input.", description: "Cross-site Scripting (XSS) is an attack technique.",
        messageId: "42")

    @Test func everyFieldOfAnAlertIsMapped() throws {
        let finding = try #require(ZAPAlertMapping.finding(for: Self.xss))
        #expect(finding.ruleId == "zap.40012")
        #expect(finding.tool == "zap")
        #expect(finding.severity == .high)
        #expect(finding.confidence == .medium)
        #expect(finding.message == "Cross Site Scripting (Reflected) (parameter q)")
        #expect(finding.location == Location(url: "http://127.0.0.1:8080/search?q=%3Cscript%3E", method: "GET", parameter: "q"))
        #expect(finding.cwe == [79])
        #expect(finding.evidence == "attack: <scrIpt>alert(1);</scRipt>\nevidence: <scrIpt>alert(1);</scRipt>")
        #expect(
            finding.references == [
                "https://owasp.org/www-community/attacks/xss/", "https://cwe.mitre.org/data/definitions/79.html",
            ])
        #expect(
            finding.facts.properties == ["wascid": "8", "alertRef": "40012-1", "messageId": "42", "solution": "Validate all input."])
        #expect(finding.location.isWeb)
    }

    @Test func aPassiveAlertWithoutParameterOrCWEHasNoneOfThem() throws {
        let alert = ZAPAlert(
            pluginId: "10021", name: "X-Content-Type-Options Header Missing", risk: "Low", confidence: "Medium",
            url: "http://127.0.0.1:8080/", method: "GET", cweId: 0, wascId: 0)
        let finding = try #require(ZAPAlertMapping.finding(for: alert))
        #expect(finding.message == "X-Content-Type-Options Header Missing")
        #expect(finding.location.parameter == nil)
        #expect(finding.cwe.isEmpty)
        #expect(finding.evidence == nil)
        #expect(finding.facts.properties.isEmpty)
        #expect(finding.references.isEmpty)
    }

    @Test(arguments: [
        ("High", Severity.high), ("Medium", .medium), ("Low", .low), ("Informational", .info), ("", .info),
        ("bogus", .info),
    ])
    func riskBecomesSeverity(risk: String, severity: Severity) {
        #expect(ZAPAlertMapping.severity(risk) == severity)
    }

    @Test(arguments: [
        ("Confirmed", Confidence?.some(.high)), ("High", .high), ("Medium", .medium), ("Low", .low),
        ("False Positive", nil), ("", .medium),
    ])
    func confidenceIsMapped(text: String, confidence: Confidence?) {
        #expect(ZAPAlertMapping.confidence(text) == confidence)
    }

    @Test func falsePositivesAreDropped() {
        var falsePositive = Self.xss
        falsePositive.confidence = "False Positive"
        #expect(ZAPAlertMapping.finding(for: falsePositive) == nil)
        let result = ZAPAlertMapping.map([falsePositive, Self.xss])
        #expect(result.findings.count == 1)
        #expect(result.falsePositives == 1)
    }

    @Test func identicalAlertsBecomeOneFinding() {
        var again = Self.xss
        again.evidence = "other evidence"
        again.messageId = "43"
        var otherParameter = Self.xss
        otherParameter.param = "name"
        var otherMethod = Self.xss
        otherMethod.method = "POST"
        let result = ZAPAlertMapping.map([Self.xss, again, otherParameter, otherMethod])
        #expect(result.findings.map(\.location.parameter) == ["q", "name", "q"])
        #expect(result.findings.map(\.location.method) == ["GET", "GET", "POST"])
        #expect(result.duplicates == 1)
        #expect(result.findings[0].facts.properties["messageId"] == "42")
    }

    @Test func eachPluginSeenHasOneRuleDescriptor() throws {
        let csp = ZAPAlert(
            pluginId: "10038", name: "Content Security Policy (CSP) Header Not Set", risk: "Medium", confidence: "High",
            url: "http://127.0.0.1:8080/", cweId: 693, reference: "https://example.org/csp")
        var xss2 = Self.xss
        xss2.url = "http://127.0.0.1:8080/other"
        let result = ZAPAlertMapping.map([Self.xss, csp, xss2])
        #expect(result.rules.map(\.id) == ["zap.10038", "zap.40012"])
        let rule = try #require(result.rules.last)
        #expect(rule.tool == "zap")
        #expect(rule.name == "Cross Site Scripting (Reflected)")
        #expect(rule.fullDescription == "Cross-site Scripting (XSS) is an attack technique.")
        #expect(rule.help == "Validate all input.")
        #expect(rule.helpURI == "https://owasp.org/www-community/attacks/xss/")
        #expect(rule.defaultSeverity == .high)
        #expect(rule.cwe == [79])
    }

    @Test func hostileTextIsCleanedAndBounded() throws {
        let secret = "zap-key-0123456789"
        var alert = Self.xss
        alert.pluginId = "400../../12\u{0}"
        alert.name = "XSS\u{1b}[31m \(secret)\nsecond line"
        alert.evidence = String(repeating: "A", count: 100_000)
        alert.solution = "use \(secret)"
        alert.reference = "javascript:alert(1) https://ok.example/ \(secret)"
        let finding = try #require(ZAPAlertMapping.finding(for: alert, secret: secret))
        #expect(finding.ruleId == "zap.400....12")
        #expect(finding.message == "XSS[31m [redacted] second line (parameter q)")
        #expect((finding.evidence?.count ?? 0) < 2200)
        #expect(finding.references == ["https://ok.example/"])
        #expect(finding.facts.properties["solution"] == "use [redacted]")
        let encoded = String(decoding: try JSONEncoder().encode(finding), as: UTF8.self)
        #expect(!encoded.contains(secret))
    }
}
