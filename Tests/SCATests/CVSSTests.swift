import Foundation
import Testing
import Support
@testable import SCA

@Suite("CVSS")
struct CVSSTests {
    /// Published vector → base score pairs (NVD / FIRST calculator).
    @Test("v3 base scores", arguments: [
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

    @Test("rejected vectors", arguments: [
        "AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "CVSS:2.0/AV:N", "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H",
        "CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "CVSS:3.1/AV:N/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
        "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/ZZ:1", "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A",
    ])
    func rejected(_ vector: String) {
        #expect(throws: SentinelError.self) { try CVSS3(vector) }
    }

    @Test("qualitative ratings", arguments: [
        (0.0, AdvisorySeverity.info), (0.1, .low), (3.9, .low), (4.0, .medium), (6.9, .medium), (7.0, .high),
        (8.9, .high), (9.0, .critical), (10.0, .critical),
    ])
    func ratings(_ score: Double, _ severity: AdvisorySeverity) {
        #expect(AdvisorySeverity(score: score) == severity)
    }

    @Test("assessment prefers v3, then database labels, then medium")
    func assessment() {
        let v3 = OSVSeverity(type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N")
        let v4 = OSVSeverity(type: "CVSS_V4", score: "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N")
        let a = SeverityAssessment.assess(severity: [v4, v3], databaseLabels: ["CRITICAL"])
        #expect(a.severity == .medium && a.score == 6.1 && a.source == "cvss3")
        let b = SeverityAssessment.assess(severity: [v4], databaseLabels: [nil, "Moderate"])
        #expect(b.severity == .medium && b.score == nil && b.vector == v4.score && b.source == "database")
        let c = SeverityAssessment.assess(severity: [], databaseLabels: [])
        #expect(c.severity == .medium && c.source == "default")
        let d = SeverityAssessment.assess(severity: [OSVSeverity(type: "CVSS_V3", score: "garbage")], databaseLabels: ["high"])
        #expect(d.severity == .high)
    }

    /// An independent oracle: the `cvss` Python library on every v3 vector of the corpora.
    @Test("agrees with the cvss library on corpus vectors",
          .enabled(if: Fixtures.pythonHas("cvss") && Fixtures.exists(Fixtures.rustsec), "needs python3 cvss and the corpora"))
    func corpusVectors() throws {
        var vectors = Set<String>()
        for dir in [Fixtures.rustsec, Fixtures.golang] {
            for file in try OSVDatabase.collectFiles([dir]) {
                guard let data = FileManager.default.contents(atPath: file),
                      let record = try? OSVDecoder.decodeJSON(data, source: file) else { continue }
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
