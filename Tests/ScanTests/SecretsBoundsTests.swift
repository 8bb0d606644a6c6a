import Findings
import Testing
import TestSupport

@testable import Secrets

/// Issue 26: the secrets scan is linear in its input (no match attempt rescans what an earlier
/// one read, and what it reports per finding is bounded), and a NUL byte hides nothing.
@Suite struct SecretsBoundsTests {
    static let aws = "AKIA" + "Q3EGZT7RKMXJ4HVN"
    static let slack = "xoxb-" + "2837465019-9182736450-" + "QwErTyUiOpAsDfGhJkLzXcVb"

    private func scan(_ bytes: [UInt8]) -> [Finding] {
        SecretsDetector().scan(file: "x.txt", bytes: bytes)
    }

    /// 5 MB inputs that took quadratic time: each finishes in seconds when the work is linear;
    /// the limit only keeps a regression from hanging the suite.
    @Test(
        .exhaustive, .timeLimit(.minutes(10)),
        arguments: [
            // Every `xoxb-` starts a body run reaching the end of the line.
            String(repeating: "xoxb-", count: 1_000_000),
            // Every `token` starts an identifier reaching the end of the line.
            String(repeating: "token", count: 1_000_000) + " = \"x\"",
            // Every `glpat-` starts a body run reaching the end of the line.
            String(repeating: "glpat-", count: 850_000),
        ])
    func aFiveMegabyteLineOfPrefixesIsScannedInLinearTime(text: String) {
        // At most the run's tail, which has a token's shape (`xoxb-` + 255 body bytes).
        #expect(scan(Array(text.utf8)).count <= 1)
    }

    // 12 s alone on this machine; the limit keeps far more than 10x headroom for a loaded CI (it
    // ran past 2 minutes under the full suite), while a quadratic scan of 5 MB would take hours.
    @Test(.exhaustive, .timeLimit(.minutes(10)))
    func aFiveMegabyteLineOfSecretsIsScannedInLinearTime() {
        let line = String(repeating: "token = \"\(Self.slack)\"; password = \"Zq8#rT2!vLp9@wXs\"; ", count: 60_000)
        let findings = scan(Array(line.utf8))
        #expect(findings.count == 120_000)
        #expect(Set(findings.map(\.ruleId)) == ["secrets.slack-token", "secrets.generic-password"])
    }

    @Test func whatIsReportedPerFindingIsBounded() throws {
        // 3,000 tokens on one 177 KB line: each finding quotes the line around its own secret.
        let line = String(repeating: "k = \"\(Self.slack)\"; ", count: 3_000)
        let findings = scan(Array(line.utf8))
        #expect(findings.count == 3_000)
        let longest = findings.map { $0.snippet?.utf8.count ?? 0 }.max() ?? 0
        #expect(longest <= SecretsDetector.maxSnippetBytes + 200, "\(longest)")
        let last = try #require(findings.last)
        #expect(last.snippet?.contains("xoxb…(redacted, 51 chars)") == true)
        #expect(last.location.startColumn == 2_999 * 59 + 6)
    }

    @Test func aNulByteInTheFirstKilobytesHidesNoKey() throws {
        let bytes: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0, 0, 0, 1] + Array("\naws = \"\(Self.aws)\"\n".utf8)
        let finding = try #require(scan(bytes).first)
        #expect(finding.ruleId == "secrets.aws-access-key-id")
        #expect(finding.location.startLine == 2)
        #expect(SecretsDetector().scan(file: "bin", bytes: [0, 1, 2] + Array(Self.aws.utf8)).count == 1)
    }

    /// CPython decodes a file as its `coding:` cookie says: a key written in UTF-7 base64 runs
    /// (or as `unicode_escape` escapes) is a plain key to Python, so it is one to the scan too.
    @Test(arguments: [
        "# coding: utf-7\naws_key = \"+AEEASwBJAEEAUQAzAEUARwBaAFQANwBSAEsATQBYAEoANABIAFYATg-\"\n",
        "# -*- coding: unicode_escape -*-\naws_key = \"\\x41KIAQ3EGZT7RKMXJ4HVN\"\n",
    ])
    func aKeyHiddenByTheDeclaredEncodingIsFound(source: String) throws {
        let findings = SecretsDetector().scan(file: "settings.py", bytes: Array(source.utf8))
        let finding = try #require(findings.first { $0.ruleId == "secrets.aws-access-key-id" }, "\(findings)")
        #expect(finding.location.startLine == 2)
        #expect(finding.evidence == "AKIA…(redacted, 20 chars)")
        #expect(findings.count == 1)
    }

    @Test func aBinarySnippetCarriesNoControlBytes() throws {
        let bytes: [UInt8] = [0, 1, 2, 0x1B] + Array("k=\"\(Self.aws)\"".utf8) + [0, 0xFF, 7]
        let finding = try #require(scan(bytes).first)
        let snippet = try #require(finding.snippet)
        #expect(!snippet.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(snippet.debugDescription)")
        #expect(!snippet.contains(Self.aws))
    }
}
