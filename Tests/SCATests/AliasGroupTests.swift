import Testing

@testable import SCA

/// The same vulnerability published under several ids is reported once.
struct AliasGroupTests {
    static func match(_ id: String, aliases: [String], score: Double? = nil) -> VulnerabilityMatch {
        let severity = SeverityAssessment(
            severity: score == nil ? .unknown : .critical, score: score, vector: nil, source: score == nil ? "none" : "cvss")
        return VulnerabilityMatch(
            advisory: Advisory(
                id: id, aliases: aliases, summary: nil, modified: "", published: nil,
                severity: severity, references: []),
            ecosystem: .pypi, package: "django", version: "3.2.0", affectedRange: "", fixedVersions: [],
            smallestFix: nil, fixIsSameMajor: nil)
    }

    @Test func aliasesOfOneIssueFormOneGroup() {
        let groups = AliasGroup.group([
            Self.match("PYSEC-2021-109", aliases: ["CVE-2021-35042", "GHSA-xpfp-f569-q3p2"]),
            Self.match("GHSA-68w8-qjq3-2gfm", aliases: ["CVE-2021-33203"]),
            Self.match("GHSA-xpfp-f569-q3p2", aliases: ["CVE-2021-35042"], score: 9.8),
            Self.match("PYSEC-2021-98", aliases: ["CVE-2021-33203"]),
        ])
        #expect(groups.map(\.primary.advisory.id) == ["GHSA-xpfp-f569-q3p2", "GHSA-68w8-qjq3-2gfm"])
        #expect(groups.map(\.otherIDs) == [["PYSEC-2021-109"], ["PYSEC-2021-98"]])
    }

    @Test func unrelatedAdvisoriesStayApart() {
        let groups = AliasGroup.group([
            Self.match("PYSEC-1", aliases: ["CVE-1"]), Self.match("PYSEC-2", aliases: []),
            Self.match("PYSEC-3", aliases: ["CVE-3"]),
        ])
        #expect(groups.map(\.primary.advisory.id) == ["PYSEC-1", "PYSEC-2", "PYSEC-3"])
        #expect(groups.allSatisfy { $0.otherIDs.isEmpty })
    }

    /// Hostile inputs round 4, H8: a 9.8 record and a 1.6 alias of it: the group reports the 9.8
    /// one (on 7f222c6 both were "own CVSS" and the earlier id, the 1.6 one, was reported: `low`).
    @Test func theMostSevereRecordIsReported() {
        func scored(_ id: String, _ score: Double, aliases: [String]) -> VulnerabilityMatch {
            var match = Self.match(id, aliases: aliases, score: score)
            match.advisory.severity = SeverityAssessment(
                severity: AdvisorySeverity(score: score), score: score, vector: nil, source: "cvss3")
            return match
        }
        let groups = AliasGroup.group([
            scored("GHSA-aaaa", 1.6, aliases: ["CVE-2024-1"]), scored("PYSEC-2024-1", 9.8, aliases: ["CVE-2024-1"]),
        ])
        #expect(groups.map(\.primary.advisory.id) == ["PYSEC-2024-1"])
        #expect(groups.first?.primary.advisory.severity.severity == .critical)
        #expect(groups.first?.otherIDs == ["GHSA-aaaa"])
    }

    @Test func aChainThroughASharedCVEJoinsThree() {
        let groups = AliasGroup.group([
            Self.match("A", aliases: ["CVE-9"]), Self.match("B", aliases: ["CVE-9", "OSV-7"]), Self.match("C", aliases: ["OSV-7"]),
        ])
        #expect(groups.count == 1)
        #expect(groups.first?.primary.advisory.id == "A")
        #expect(groups.first?.otherIDs == ["B", "C"])
    }
}
