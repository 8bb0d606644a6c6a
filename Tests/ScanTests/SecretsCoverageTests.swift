import Findings
import Foundation
import ScanCore
import Testing

@testable import Scan

/// Issue 26: secrets are searched in every file the user did not exclude, test code and build
/// output included (as gitleaks and Trivy do): the default ignores quiet code analysis, not the
/// secrets scan, and the report says which kinds of files they left out. What one file can add
/// to a report is bounded: past `SecretsScanner.maxFindingsPerRule` findings of one rule in one
/// file, the rest are counted in a notice naming the file, not listed.
@Suite struct SecretsCoverageTests {
    static let aws = "AKIA" + "Q3EGZT7RKMXJ4HVN"
    static let slack = "xoxb-" + "2837465019-9182736450-" + "QwErTyUiOpAsDfGhJkLzXcVb"

    /// A fresh tree holding `files` (path → text).
    static func tree(_ files: [String: String]) throws -> String {
        let root = NSTemporaryDirectory() + "sentinel-secrets-\(UUID().uuidString)"
        for (file, text) in files {
            let path = root + "/" + file
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: false, encoding: .utf8)
        }
        return root
    }

    static func scan(_ root: String) throws -> Report {
        try ScanRunner(scanners: [SecretsScanner()]).run(ScanRequest(root: root), context: ScanContext()).report
    }

    @Test func secretsAreFoundInFilesTheDefaultIgnoresLeaveOut() throws {
        let key = "aws_access_key_id = \"\(Self.aws)\"\n"
        let root = try Self.tree([
            "app.py": "print(1)\n", "conftest.py": key, "tests/test_login.py": key, "build/lib/settings.py": key,
            "node_modules/pkg/index.js": key,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = try Self.scan(root)
        #expect(
            Set(report.findings.compactMap(\.location.file)) == [
                "conftest.py", "tests/test_login.py", "build/lib/settings.py", "node_modules/pkg/index.js",
            ])
        #expect(report.filesScanned == 1)
    }

    /// Test keys and example passwords are fixtures where the default ignores look (Trivy skips
    /// those paths outright); an issued credential there is reported, the fixtures counted.
    @Test func fixtureProneMatchesInDefaultIgnoredFilesAreCountedNotReported() throws {
        let fixtures =
            "-----BEGIN RSA PRIVATE KEY-----\n\(SecretsDetectorTests.keyBody)\n-----END RSA PRIVATE KEY-----\npassword = \"s3cr3t-Value-42\"\n"
        let root = try Self.tree([
            "app/settings.py": "password = \"s3cr3t-Value-42\"\n",
            "tests/certs/server.key": fixtures,
            "conftest.py": "aws_access_key_id = \"\(Self.aws)\"\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = try Self.scan(root)
        let reported = Set(report.findings.map { "\($0.location.file ?? "") \($0.ruleId)" })
        #expect(reported == ["app/settings.py secrets.generic-password", "conftest.py secrets.aws-access-key-id"])
        #expect(
            report.notices.contains {
                $0.tool == "secrets" && $0.message.hasPrefix("2 private-key or password matches in files the default ignores")
            }, "\(report.notices)")
    }

    @Test func oneFileAddsAtMostTheBoundPerRuleAndTheRestAreCounted() throws {
        let root = try Self.tree([
            "x.txt": String(repeating: "k = \"\(Self.slack)\"; ", count: 5_000) + "\naws = \"\(Self.aws)\"\n"
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = try Self.scan(root)
        let slack = report.findings.filter { $0.ruleId == "secrets.slack-token" }
        #expect(slack.count == 1_000)
        #expect(report.findings.filter { $0.ruleId == "secrets.aws-access-key-id" }.count == 1)
        #expect(
            report.notices.contains(
                Notice(
                    level: .warning,
                    message: "5000 secrets.slack-token findings in one file: the first 1000 are reported",
                    file: "x.txt", tool: "secrets")), "\(report.notices)")
    }
}
