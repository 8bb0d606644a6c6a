import Foundation
import Testing
import Support
@testable import SCA
import TestSupport

@Suite("CVSS")
struct CVSSTests {
    /// Published vector → base score pairs (NVD / FIRST calculator).
    @Test(
        "v3 base scores",
        arguments: [
            ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 9.8), ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H", 10.0),
            ("CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N", 6.1), ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H", 7.5),
            ("CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", 7.8), ("CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", 8.8),
            ("CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N", 5.9), ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N", 5.3),
            ("CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H", 8.8), ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N", 0.0),
            ("CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N", 6.4), ("CVSS:3.1/AV:P/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N", 4.6),
            ("CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N", 3.1), ("CVSS:3.1/AV:L/AC:H/PR:L/UI:N/S:U/C:H/I:N/A:N", 4.7),
            ("CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H", 7.2), ("CVSS:3.1/AV:A/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 8.8),
            ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N", 9.1), ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:L/A:N", 6.5),
            ("CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H", 5.5), ("CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:H/A:H", 9.9),
            ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:L/I:N/A:N", 5.8), ("CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:H/I:H/A:H", 9.6),
            ("CVSS:3.1/AV:L/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H", 6.2), ("CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 9.8),
            ("CVSS:3.0/AV:N/AC:H/PR:N/UI:R/S:C/C:L/I:L/A:N", 4.7),
            ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/E:P/RL:O/RC:C", 9.8),
        ])
    func scores(_ vector: String, _ score: Double) throws {
        #expect(try CVSS3(vector).baseScore == score)
    }

    @Test(
        "rejected vectors",
        arguments: [
            "AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "CVSS:2.0/AV:N", "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H",
            "CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "CVSS:3.1/AV:N/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
            "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/ZZ:1", "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A",
        ])
    func rejected(_ vector: String) {
        #expect(throws: SentinelError.self) { try CVSS3(vector) }
    }

    @Test(
        "qualitative ratings",
        arguments: [
            (0.0, AdvisorySeverity.info), (0.1, .low), (3.9, .low), (4.0, .medium), (6.9, .medium), (7.0, .high),
            (8.9, .high), (9.0, .critical), (10.0, .critical),
        ])
    func ratings(_ score: Double, _ severity: AdvisorySeverity) {
        #expect(AdvisorySeverity(score: score) == severity)
    }

    @Test("assessment takes the highest CVSS score (v3 or v4), then database labels, then unknown")
    func assessment() {
        let v3 = OSVSeverity(type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N")
        let v4 = OSVSeverity(type: "CVSS_V4", score: "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N")
        let a = SeverityAssessment.assess(severity: [v4, v3], databaseLabels: ["LOW"])
        #expect(a.severity == .critical && a.score == 9.3 && a.source == "cvss4" && a.vector == v4.score)
        let v4Low = OSVSeverity(type: "CVSS_V4", score: "CVSS:4.0/AV:L/AC:L/AT:N/PR:N/UI:A/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N")
        let b = SeverityAssessment.assess(severity: [v4Low, v3], databaseLabels: [])
        #expect(b.severity == .medium && b.score == 6.1 && b.source == "cvss3")
        let c = SeverityAssessment.assess(severity: [], databaseLabels: [nil, "Moderate"])
        #expect(c.severity == .medium && c.score == nil && c.source == "database")
        let d = SeverityAssessment.assess(severity: [], databaseLabels: [])
        #expect(d.severity == .unknown && d.source == "unknown")
        let e = SeverityAssessment.assess(severity: [OSVSeverity(type: "CVSS_V4", score: "garbage")], databaseLabels: ["high"])
        #expect(e.severity == .high)
    }

    /// Issue 76, H8: the issue is as severe as its most severe record (on 7f222c6 an own label
    /// or score was kept over a higher alias).
    @Test("the higher of a record's and its alias's severity wins; at the same severity a CVSS score over a label")
    func borrowing() {
        let own = SeverityAssessment(severity: .medium, score: nil, vector: nil, source: "database")
        let aliasCVSS = SeverityAssessment(severity: .critical, score: 9.8, vector: "CVSS:3.1/AV:N", source: "cvss3")
        let aliasLabel = SeverityAssessment(severity: .high, score: nil, vector: nil, source: "database")
        #expect(own.borrowing(from: aliasCVSS, id: "GHSA-1").source == "alias:cvss3 GHSA-1")
        #expect(own.borrowing(from: aliasLabel, id: "GHSA-1").source == "alias:database GHSA-1")
        let ownMedium = SeverityAssessment(severity: .medium, score: 5.0, vector: "v", source: "cvss3")
        #expect(
            ownMedium.borrowing(from: SeverityAssessment(severity: .medium, score: nil, vector: nil, source: "database"), id: "G")
                == ownMedium)
        let lowScore = SeverityAssessment(severity: .low, score: 1.6, vector: "v", source: "cvss3")
        #expect(lowScore.borrowing(from: aliasCVSS, id: "GHSA-3").severity == .critical)
        let unknown = SeverityAssessment(severity: .unknown, score: nil, vector: nil, source: "unknown")
        #expect(unknown.borrowing(from: aliasLabel, id: "GHSA-2").severity == .high)
        #expect(aliasCVSS.borrowing(from: SeverityAssessment(severity: .low, score: 2, vector: "v", source: "cvss4"), id: "X") == aliasCVSS)
    }

    /// Published vector → score pairs: the FIRST CVSS v4.0 specification and user guide examples.
    @Test(
        "v4 scores",
        arguments: [
            ("CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:H/SI:H/SA:H", 10.0),
            ("CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N", 0.0),
            ("CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N", 9.3),
            ("CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:H/SI:H/SA:H", 7.9),
            ("CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:H/SI:H/SA:H/E:U", 9.1),
            ("CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:H/SI:H/SA:H/MVI:L/MSA:S", 9.8),
            ("CVSS:4.0/AV:L/AC:L/AT:P/PR:L/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N", 7.3),
            ("CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:P/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N", 7.7),
            ("CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:P/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/E:U", 5.2),
            ("CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:N/VC:H/VI:L/VA:L/SC:N/SI:N/SA:N", 8.3),
            ("CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:N/VC:H/VI:L/VA:L/SC:N/SI:N/SA:N/CR:H/IR:L/AR:L/MAV:N/MAC:H/MVC:H/MVI:L/MVA:L", 8.1),
            ("CVSS:4.0/AV:L/AC:L/AT:N/PR:N/UI:A/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N", 4.6),
            ("CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:L/VI:L/VA:L/SC:N/SI:N/SA:N", 6.9),
        ])
    func v4Scores(_ vector: String, _ score: Double) throws {
        #expect(try CVSS4(vector).score == score)
    }

    @Test(
        "rejected v4 vectors",
        arguments: [
            "CVSS:3.1/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N",
            "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N",
            "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:S",
            "CVSS:4.0/AV:N/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N",
            "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/ZZ:1",
        ])
    func v4Rejected(_ vector: String) {
        #expect(throws: SentinelError.self) { try CVSS4(vector) }
    }

    @Test("the macro-vector table holds 270 scores")
    func macroTable() {
        #expect(CVSS4Tables.macroScores.filter { $0 >= 0 }.count == 270)
        #expect(CVSS4Tables.score([0, 0, 0, 0, 0, 0]) == 10)
        #expect(CVSS4Tables.score([2, 1, 2, 2, 2, 1]) == 0.1)
        #expect(CVSS4Tables.score([0, 0, 2, 0, 0, 0]) == nil)
        #expect(CVSS4Tables.score([3, 0, 0, 0, 0, 0]) == nil)
    }

    /// An independent oracle: the `cvss` Python library (RedHat's, which follows FIRST's
    /// reference calculator) on every v4 vector of the corpora.
    @Test(
        "v4 agrees with the cvss library on corpus vectors",
        .enabled(if: Fixtures.pythonHas("cvss"), "needs python3 cvss"), .needsCorpus("osv/rustsec/crates"))
    func corpusV4Vectors() throws {
        var vectors = Set<String>()
        for dir in [Fixtures.rustsec, Fixtures.golang, Fixtures.pypa] {
            for file in try OSVDatabase.collectFiles([dir]) {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                let text = String(decoding: data, as: UTF8.self)
                guard text.contains("CVSS:4.0") else { continue }
                for match in text.matches(of: /CVSS:4\.0[A-Za-z:\/]+/) { vectors.insert(String(match.output)) }
            }
        }
        // Extra vectors that walk every EQ level and the modified metrics.
        for av in ["N", "A", "L", "P"] {
            for ui in ["N", "P", "A"] {
                for (vc, sc) in [("H", "N"), ("L", "H"), ("N", "L")] {
                    vectors.insert("CVSS:4.0/AV:\(av)/AC:H/AT:P/PR:L/UI:\(ui)/VC:\(vc)/VI:L/VA:H/SC:\(sc)/SI:N/SA:L/E:P/CR:M")
                }
            }
        }
        let list = vectors.sorted()
        #expect(list.count > 60)
        let script = """
            import sys
            from cvss import CVSS4
            for line in sys.stdin.read().split("\\n")[:-1]:
                print(CVSS4(line).base_score)
            """
        let result = try Fixtures.run("/usr/bin/env", ["python3", "-c", script], input: list.joined(separator: "\n") + "\n")
        let scores = result.output.split(separator: "\n").map { Double($0) }
        try #require(scores.count == list.count, "\(result.output)")
        for (vector, expected) in zip(list, scores) {
            #expect(try CVSS4(vector).score == expected, "\(vector)")
        }
    }

    /// An independent oracle: the `cvss` Python library on every v3 vector of the corpora.
    @Test(
        "agrees with the cvss library on corpus vectors",
        .enabled(if: Fixtures.pythonHas("cvss"), "needs python3 cvss"), .needsCorpus("osv/rustsec/crates"))
    func corpusVectors() throws {
        var vectors = Set<String>()
        for dir in [Fixtures.rustsec, Fixtures.golang] {
            for file in try OSVDatabase.collectFiles([dir]) {
                guard let data = FileManager.default.contents(atPath: file),
                    let record = try? OSVDecoder.decodeJSON(data, source: file)
                else { continue }
                for s in record.severity where s.type == "CVSS_V3" { vectors.insert(s.score) }
            }
        }
        let list = vectors.sorted()
        #expect(list.count > 50)
        let script = """
            import sys
            from cvss import CVSS3
            for line in sys.stdin.read().split("\\n")[:-1]:
                print(CVSS3(line).base_score)
            """
        let result = try Fixtures.run("/usr/bin/env", ["python3", "-c", script], input: list.joined(separator: "\n") + "\n")
        let scores = result.output.split(separator: "\n").map { Double($0) }
        try #require(scores.count == list.count)
        for (vector, expected) in zip(list, scores) {
            #expect(try CVSS3(vector).baseScore == expected, "\(vector)")
        }
    }
}
