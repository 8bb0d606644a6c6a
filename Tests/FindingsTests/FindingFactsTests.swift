import Foundation
import Testing

@testable import Findings

/// The typed facts of a finding and their `properties` encoding (issue 28: typed, byte-identical).
@Suite struct FindingFactsTests {
    /// The `properties` of findings as the previous version wrote them (SCA, DAST, Bandit, merged).
    static let written: [String: String] = [
        "package": "flask", "installedVersion": "0.12.2", "ecosystem": "PyPI", "affectedRange": "<0.12.3",
        "fixedVersions": "0.12.3,1.0", "fixedVersion": "0.12.3", "fixSameMajor": "true", "aliases": "",
        "sameAs": "PYSEC-2018-66", "direct": "false", "dependencyPath": "app > flask", "cvssScore": "7.5",
        "cvssVector": "CVSS:3.1/AV:N", "severitySource": "cvss", "parameterIn": "query", "technique": "out-of-band",
        "occurrences": "3", "wascid": "8", "wstg": "WSTG-INPV-01, WSTG-INPV-02", "context": "attribute",
        "source": "remote", "sourceEncoding": "utf-16", "testId": "B602", "banditLine": "20",
        "alsoReportedBy": "bandit,semgrep", "alsoReportedAs": "bandit.B602", "suppressionReason": "",
        "suppressionKind": "nosec", "tool": "native",
    ]

    @Test func readsEveryKnownKeyIntoItsTypedField() {
        let facts = FindingFacts(properties: Self.written)
        #expect(facts.dependency.package == "flask" && facts.dependency.installedVersion == "0.12.2")
        #expect(facts.dependency.fixedVersions == ["0.12.3", "1.0"] && facts.dependency.smallestFixedVersion == "0.12.3")
        #expect(facts.dependency.aliases == [] && facts.dependency.sameAs == ["PYSEC-2018-66"])
        #expect(facts.dependency.isDirect == false && facts.dependency.fixIsSameMajor == true)
        #expect(facts.dependency.path == ["app", "flask"] && facts.dependency.cvssScore == 7.5)
        #expect(facts.web.technique == .outOfBand && facts.web.occurrences == 3 && facts.web.wascId == 8)
        #expect(facts.web.wstg == ["WSTG-INPV-01", "WSTG-INPV-02"] && facts.web.reflectionContext == "attribute")
        #expect(facts.code.taintSource == .remote && facts.code.sourceEncoding == "utf-16")
        #expect(facts.external.testId == "B602" && facts.external.reportedLine == 20)
        #expect(facts.pipeline.alsoReportedBy == ["bandit", "semgrep"] && facts.pipeline.suppressionReason == "")
        #expect(facts.other == ["tool": "native"], "a key no facet knows stays free-form")
        #expect(facts.properties == Self.written)
    }

    @Test func aValueAFieldCannotHoldExactlyStaysVerbatim() {
        let odd = [
            "cvssScore": "9.80", "fixSameMajor": "yes", "occurrences": "03", "technique": "sideways",
            "aliases": "CVE-1,,CVE-2", "source": "REMOTE",
        ]
        let facts = FindingFacts(properties: odd)
        #expect(facts.dependency.cvssScore == nil && facts.dependency.fixIsSameMajor == nil)
        #expect(facts.web.occurrences == nil && facts.web.technique == nil && facts.code.taintSource == nil)
        #expect(facts.other == odd)
        #expect(facts.properties == odd)
    }

    @Test func aFindingRoundTripsThroughJSONByteForByte() throws {
        let finding = Finding(
            ruleId: "PYSEC-1", tool: "osv", severity: .high, message: "m", location: Location(file: "r.txt", startLine: 1),
            facts: FindingFacts(properties: Self.written))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let first = try encoder.encode(finding)
        let decoded = try JSONDecoder().decode(Finding.self, from: first)
        #expect(decoded.facts.dependency.package == "flask")
        #expect(try encoder.encode(decoded) == first)
        let object = try JSONSerialization.jsonObject(with: first) as? [String: Any]
        #expect(object?["properties"] as? [String: String] == Self.written)
    }

    @Test func typedFieldsWriteTheDocumentedKeys() {
        var facts = FindingFacts(
            dependency: DependencyFacts(package: "a", installedVersion: "1", fixedVersions: [], path: ["x", "a"]))
        facts.web.technique = .time
        facts.pipeline.noteCopy(tool: "bandit", ruleId: "bandit.B1")
        facts.pipeline.noteCopy(tool: "bandit", ruleId: nil)
        #expect(
            facts.properties == [
                "package": "a", "installedVersion": "1", "fixedVersions": "", "dependencyPath": "x > a",
                "technique": "time", "alsoReportedBy": "bandit", "alsoReportedAs": "bandit.B1",
            ])
    }

    @Test func adoptingKeepsTheWinnersFactsAndFillsTheRest() {
        var winner = FindingFacts(properties: ["testId": "B1", "alsoReportedBy": "x"])
        winner.adoptMissing(
            from: FindingFacts(properties: ["testId": "B2", "testName": "n", "alsoReportedBy": "y", "note": "k"]))
        #expect(winner.properties == ["testId": "B1", "testName": "n", "alsoReportedBy": "x", "note": "k"])
        #expect(winner == FindingFacts(properties: winner.properties), "equal by encoding")
    }
}
