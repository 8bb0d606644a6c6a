import Foundation
import Support
import Testing

@testable import Findings

@Suite struct SeverityTests {
    @Test(arguments: [
        ("info", Severity.info), ("LOW", .low), (" Medium ", .medium), ("high", .high),
        ("critical", .critical), ("moderate", .medium), ("error", .high), ("warning", .medium),
    ])
    func parses(text: String, expected: Severity) throws {
        #expect(try Severity(parsing: text) == expected)
    }

    @Test(arguments: ["", "severe", "none", "hgh"])
    func rejectsUnknownWithClearError(text: String) {
        #expect {
            try Severity(parsing: text, context: ".sentinel.yml: severity")
        } throws: { error in
            guard let error = error as? SentinelError else { return false }
            return error.code == .invalidInput && error.message.hasPrefix(".sentinel.yml: severity: unknown severity")
                && error.message.contains("expected info, low, medium, high or critical")
        }
    }

    @Test func ordersFromInfoToCritical() {
        #expect(Severity.allCases.sorted() == [.info, .low, .medium, .high, .unknown, .critical])
        #expect(Severity.high > .medium)
        #expect(Confidence.high > .low)
    }

    @Test(arguments: [
        (Severity.critical, "error"), (.unknown, "error"), (.high, "error"), (.medium, "warning"), (.low, "note"), (.info, "note"),
    ])
    func sarifLevels(severity: Severity, level: String) {
        #expect(severity.sarifLevel == level)
    }

    @Test func unknownHasNoSecuritySeverityButIsAnError() {
        #expect(Severity.unknown.securitySeverity == nil)
        #expect(Severity.unknown > .high && Severity.unknown < .critical)
        #expect(try! Severity(parsing: "Unknown") == .unknown)
    }

    @Test func codableAsLowercaseNames() throws {
        let data = try JSONEncoder().encode([Severity.critical, .info])
        #expect(String(decoding: data, as: UTF8.self) == #"["critical","info"]"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Severity].self, from: Data(#"["severe"]"#.utf8)) }
    }

    @Test func confidenceParses() throws {
        #expect(try Confidence(parsing: "HIGH") == .high)
        #expect(throws: SentinelError.self) { try Confidence(parsing: "certain") }
    }
}

@Suite struct FindingModelTests {
    @Test func roundTripsThroughJSON() throws {
        let findings = Fixtures.sampleReport().findings
        let data = try JSONEncoder().encode(findings)
        let decoded = try JSONDecoder().decode([Finding].self, from: data)
        #expect(decoded == findings)
    }

    @Test func decodesMinimalJSONWithDefaults() throws {
        let json = #"{"ruleId": "r", "severity": "low", "message": "m", "location": {"file": "a.py", "startLine": 2}}"#
        let finding = try JSONDecoder().decode(Finding.self, from: Data(json.utf8))
        #expect(finding.tool == "native")
        #expect(finding.confidence == .medium)
        #expect(finding.cwe.isEmpty && finding.facts.properties.isEmpty && finding.references.isEmpty)
        #expect(
            finding.fingerprint
                == Finding(ruleId: "r", severity: .low, message: "m", location: Location(file: "a.py", startLine: 2)).fingerprint)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Finding.self, from: Data(#"{"ruleId": "r", "message": "m", "location": {}}"#.utf8))
        }
    }

    @Test func locationDisplay() {
        #expect(Location(file: "a/b.py", startLine: 3, startColumn: 7).displayString == "a/b.py:3:7")
        #expect(Location(file: "req.txt").displayString == "req.txt")
        #expect(Location(url: "http://h/x", method: "POST", parameter: "name").displayString == "POST http://h/x [name]")
        #expect(Location(url: "http://h/x").isWeb)
        #expect(!Location(file: "x.py", startLine: 1).isWeb)
        #expect(Location(file: "x.py", startLine: 4, endLine: 6).lineRange == 4...6)
    }

    @Test(
        arguments: [
            ("./app/x.py", nil, "app/x.py"), ("app//x.py", nil, "app/x.py"), ("/workspace/app/x.py", "/workspace", "app/x.py"),
            ("/workspace/app/x.py", "/workspace/", "app/x.py"), ("/other/x.py", "/workspace", "/other/x.py"),
            ("app/x.py", "/workspace", "app/x.py"), ("./x.py", ".", "x.py"), ("/workspace", "/workspace", "."),
            ("/workspacex/a.py", "/workspace", "/workspacex/a.py"),
        ] as [(String, String?, String)])
    func relativePaths(path: String, root: String?, expected: String) {
        #expect(Location.relativePath(path, root: root) == expected)
    }

    @Test func defaultFingerprintIsComputed() {
        let finding = Fixtures.sqlInjection()
        #expect(finding.fingerprint.count == 64)
        #expect(finding.fingerprint.allSatisfy { $0.isHexDigit })
        #expect(finding.cweTags == ["CWE-89"])
    }
}
