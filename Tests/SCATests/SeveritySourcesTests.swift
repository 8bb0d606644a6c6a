import Foundation
import Testing
import Support
@testable import SCA
import TestSupport

/// Where a match's severity comes from: own CVSS, an alias record (both directions), labels, unknown.
@Suite("Severity sources")
struct SeveritySourcesTests {
    static let critical = #""severity": [{"type": "CVSS_V3", "score": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"}],"#

    func lookup(_ files: [(String, String)], name: String = "demo", version: String = "1.0") throws -> [VulnerabilityMatch] {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (file, text) in files { try RecordFiles.write(text, file, in: dir) }
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        _ = try db.import(paths: [dir.path])
        return try db.lookup(Dependency(ecosystem: .pypi, name: name, version: version, file: "r.txt", line: 1))
    }

    /// A record in another ecosystem (so it never matches itself) with `aliases`.
    static func alias(_ id: String, aliases: [String], extra: String) -> String {
        """
        {"id": "\(id)", "modified": "2024-01-01T00:00:00Z", "aliases": [\(aliases.map { "\"\($0)\"" }.joined(separator: ", "))], \(extra)
         "affected": [{"package": {"ecosystem": "npm", "name": "other"}, "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}]}]}]}
        """
    }

    @Test func noSeverityAnywhereIsUnknown() throws {
        let found = try lookup([("P-1.json", RecordFiles.json(id: "P-1"))])
        #expect(found.map(\.advisory.severity.severity) == [.unknown])
        #expect(found.first?.advisory.severity.source == "unknown")
    }

    @Test func aliasNamedByTheRecord() throws {
        // P-1's aliases (CVE-P-1 from RecordFiles, plus G-1) name G-1, which has a CVSS vector.
        let record = RecordFiles.json(id: "P-1").replacingOccurrences(
            of: #""aliases": ["CVE-P-1"]"#,
            with: #""aliases": ["CVE-P-1", "G-1"]"#)
        let found = try lookup([("P-1.json", record), ("G-1.json", Self.alias("G-1", aliases: [], extra: Self.critical))])
        let severity = try #require(found.first?.advisory.severity)
        #expect(severity.severity == .critical && severity.score == 9.8 && severity.source == "alias:cvss3 G-1")
    }

    @Test func aliasThatNamesTheRecord() throws {
        let found = try lookup([
            ("P-1.json", RecordFiles.json(id: "P-1")),
            ("G-2.json", Self.alias("G-2", aliases: ["P-1"], extra: Self.critical)),
        ])
        #expect(found.first?.advisory.severity.source == "alias:cvss3 G-2")
    }

    @Test func siblingThroughASharedCVE() throws {
        let found = try lookup([
            ("P-1.json", RecordFiles.json(id: "P-1")),
            ("G-3.json", Self.alias("G-3", aliases: ["CVE-P-1"], extra: #""database_specific": {"severity": "HIGH"},"#)),
        ])
        #expect(found.first?.advisory.severity.severity == .high)
        #expect(found.first?.advisory.severity.source == "alias:database G-3")
    }

    @Test func aHigherAliasLabelOrScoreBeatsTheOwnLabel() throws {
        let own = RecordFiles.json(id: "P-1", extra: #""database_specific": {"severity": "LOW"},"#)
        let labelled = try lookup([
            ("P-1.json", own),
            ("G-4.json", Self.alias("G-4", aliases: ["P-1"], extra: #""database_specific": {"severity": "HIGH"},"#)),
        ])
        #expect(labelled.first?.advisory.severity.severity == .high)
        #expect(labelled.first?.advisory.severity.source == "alias:database G-4")
        let scored = try lookup([("P-1.json", own), ("G-5.json", Self.alias("G-5", aliases: ["P-1"], extra: Self.critical))])
        #expect(scored.first?.advisory.severity.severity == .critical)
    }

    @Test func ownCVSSIsKeptOverALowerOrEqualAlias() throws {
        let own = RecordFiles.json(
            id: "P-1",
            extra: #""severity": [{"type": "CVSS_V4", "score": "CVSS:4.0/AV:L/AC:L/AT:N/PR:N/UI:A/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N"}],"#)
        let found = try lookup([
            ("P-1.json", own), ("G-6.json", Self.alias("G-6", aliases: ["P-1"], extra: Self.low)),
            ("G-7.json", Self.alias("G-7", aliases: ["P-1"], extra: #""database_specific": {"severity": "MODERATE"},"#)),
        ])
        let severity = try #require(found.first?.advisory.severity)
        #expect(severity.severity == .medium && severity.score == 4.6 && severity.source == "cvss4")
    }

    /// CVSS 3.1 base 1.6 (low).
    static let low = #""severity": [{"type": "CVSS_V3", "score": "CVSS:3.1/AV:P/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N"}],"#

    /// Hostile inputs round 4, H8: the record a package matched carries its own CVSS 1.6 and its
    /// alias 9.8: the issue is critical (on 7f222c6 the record's own score was kept, `low`).
    @Test func theHighestOfARecordAndItsAliasesIsReported() throws {
        let own = RecordFiles.json(id: "P-1", extra: Self.low)
        let found = try lookup([("P-1.json", own), ("G-8.json", Self.alias("G-8", aliases: ["P-1"], extra: Self.critical))])
        let severity = try #require(found.first?.advisory.severity)
        #expect(severity.severity == .critical && severity.score == 9.8 && severity.source == "alias:cvss3 G-8")
    }

    /// H8, both records matching the package: merged into one finding, the 9.8 one's severity is
    /// reported, whichever sorts first (on 7f222c6: the 1.6 record, `A-1`, was chosen, `low`).
    @Test func mergedRecordsReportTheHighest() throws {
        let weak = RecordFiles.json(id: "A-1", extra: Self.low).replacingOccurrences(
            of: #""aliases": ["CVE-A-1"]"#, with: #""aliases": ["CVE-2024-1"]"#)
        let strong = RecordFiles.json(id: "B-1", extra: Self.critical).replacingOccurrences(
            of: #""aliases": ["CVE-B-1"]"#, with: #""aliases": ["CVE-2024-1"]"#)
        let groups = AliasGroup.group(try lookup([("A-1.json", weak), ("B-1.json", strong)]))
        #expect(groups.count == 1)
        #expect(groups.first?.primary.advisory.severity.severity == .critical)
        #expect(groups.first?.primary.advisory.severity.score == 9.8)
        #expect(groups.first?.otherIDs.count == 1)
    }

    /// The issue's reproducer: django 3.2.0, pyyaml 5.3, jinja2 2.10 against the PyPA corpus plus
    /// the GitHub records of the two CVSS 9.8 advisories.
    @Test(.needsCorpus("osv/pypa/vulns"))
    func knownCriticalsAreCritical() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        let ghsa = Fixtures.packageRoot.appendingPathComponent("Tests/SCATests/Fixtures/ghsa").path
        _ = try db.import(paths: [Fixtures.pypa, ghsa])
        let deps = [("django", "3.2.0"), ("pyyaml", "5.3"), ("jinja2", "2.10")].map {
            Dependency(ecosystem: .pypi, name: $0.0, version: $0.1, file: "requirements.txt", line: 1)
        }
        let matches = try db.lookup(deps).flatMap { $0 }
        let byId = Dictionary(matches.map { ($0.advisory.id, $0.advisory.severity) }, uniquingKeysWith: { a, _ in a })
        #expect(byId["PYSEC-2021-109"]?.severity == .critical)  // CVE-2021-35042
        #expect(byId["PYSEC-2021-109"]?.source == "alias:cvss3 GHSA-xpfp-f569-q3p2")
        #expect(byId["PYSEC-2020-96"]?.severity == .critical)  // CVE-2020-1747
        #expect(!matches.contains { $0.advisory.severity.severity == .medium && $0.advisory.severity.source == "default" })
    }
}
