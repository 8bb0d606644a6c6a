import Findings
import Testing
@testable import SAST

@Suite struct SecretsDetectorTests {
    private func scan(_ text: String) -> [Finding] {
        SecretsDetector().scan(file: "x.py", bytes: Array(text.utf8))
    }

    // Assembled at run time so this test file itself holds no token-shaped strings.
    static let aws = "AKIA" + "Q3EGZT7RKMXJ4HVN"
    static let github = "ghp_" + String(repeating: "aB3dE5gH7jK9", count: 3)
    static let slack = "xoxb-" + "2837465019-9182736450-" + "QwErTyUiOpAsDfGhJkLzXcVb"

    @Test(arguments: [
        ("key = \"\(aws)\"", "secrets.aws-access-key-id"),
        ("token: \(github)", "secrets.github-token"),
        ("SLACK = '\(slack)'", "secrets.slack-token"),
        ("-----BEGIN RSA PRIVATE KEY-----", "secrets.private-key"),
        ("-----BEGIN OPENSSH PRIVATE KEY-----", "secrets.private-key"),
        ("DB_PASSWORD = \"Xk9#mQ2$vLp8@wZ\"", "secrets.generic-password"),
        ("{\"api_key\": \"9f8e7d6c5b4a3f2e1d0c\"}", "secrets.generic-password"),
    ])
    func detects(line: String, rule: String) {
        let findings = scan(line)
        #expect(findings.map(\.ruleId) == [rule], "\(line)")
    }

    @Test(arguments: [
        "password = \"changeme\"",
        "password = os.environ[\"DB_PASSWORD\"]",
        "password = \"${DB_PASSWORD}\"",
        "if password == \"aaaaaaaaaaaa\": pass",
        "password = \"short\"",
        "api_key = \"your-api-key-here\"",
        "-----BEGIN PUBLIC KEY-----",
        "XAKIAQ3EGZT7RKMXJ4HVNQQQ",
        "token = get_token()",
    ])
    func ignores(line: String) {
        #expect(scan(line).isEmpty, "\(line)")
    }

    @Test func redactsTheSecretEverywhere() throws {
        let finding = try #require(scan("aws_key = \"\(Self.aws)\"\n").first)
        let secret = Self.aws
        #expect(!finding.message.contains(secret))
        #expect(!(finding.snippet ?? "").contains(secret))
        #expect(!(finding.evidence ?? "").contains(secret))
        #expect(finding.message.contains("AKIA…(redacted, 20 chars)"))
        #expect(finding.location.startLine == 1)
        #expect(finding.location.startColumn == 12)
        #expect(finding.cwe == [798])
    }

    @Test func reportsTheRightLine() {
        let findings = scan("a = 1\nb = 2\nk = \"\(Self.aws)\"\n")
        #expect(findings.first?.location.startLine == 3)
    }

    /// CRLF and lone-CR files count lines as LF files do, and the CR stays out of the snippet.
    @Test(arguments: ["\r\n", "\r"])
    func reportsTheRightLineWhateverTheLineEnding(newline: String) {
        let lines = ["a = 1", "b = 2", "k = \"\(Self.aws)\"", "password = \"Zq8#rT2!vLp9@wXs\"", ""]
        let findings = scan(lines.joined(separator: newline))
        #expect(findings.map(\.location.startLine) == [3, 4])
        #expect(findings.map(\.location.startColumn) == [6, 13])
        #expect(!findings.contains { $0.snippet?.contains("\r") ?? false })
    }
}
