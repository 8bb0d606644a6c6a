import Foundation
import Testing

/// `--min-confidence` and `.sentinel.yml` `minConfidence`: low-confidence findings stay out of the
/// default report (and out of the gate), the summary says how many, the flag wins over the file.
/// Two project rules stand in for an audit rule (low) and a proven one (high), so the test does
/// not depend on the shipped rules' confidences. Native tools only: no sandbox needed.
@Suite(.serialized) struct ScanConfidenceCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
    var environment: [String: String] {
        CLI.environment(home: home)
    }

    static let auditRule = """
        id: project.audit-call
        message: audit_me() with a value from somewhere
        severity: high
        confidence: low
        languages: [python]
        cwe: [78]
        pattern: audit_me(...)

        """
    static let provenRule = """
        id: project.proven-call
        message: sure_thing() with a value from a request
        severity: medium
        confidence: high
        languages: [python]
        cwe: [89]
        pattern: sure_thing(...)

        """

    /// A project with both rules in `my-rules/` and `config` as its `.sentinel.yml`.
    static func project(config: String = "") throws -> String {
        let root = NSTemporaryDirectory() + "sentinel-confidence-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/my-rules", withIntermediateDirectories: true)
        try auditRule.write(toFile: root + "/my-rules/audit-call.yaml", atomically: true, encoding: .utf8)
        try provenRule.write(toFile: root + "/my-rules/proven-call.yaml", atomically: true, encoding: .utf8)
        try "audit_me(value)\nsure_thing(value)\n".write(toFile: root + "/app.py", atomically: true, encoding: .utf8)
        try ("rules: [my-rules]\n" + config).write(toFile: root + "/.sentinel.yml", atomically: true, encoding: .utf8)
        return root
    }

    static func ruleIds(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            line.range(of: #"\[project\.[a-z-]+\]"#, options: .regularExpression).map { String(line[$0].dropFirst().dropLast()) }
        }
    }

    @Test func lowConfidenceIsLeftOutByDefaultAndCounted() throws {
        let root = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scan = try CLI.run(["scan", root, "--tools", "native"], environment: environment)
        // The only high-severity finding is the audit one: hidden, it does not fail the scan.
        #expect(scan.status == 0, "\(scan.stdout)\(scan.stderr)")
        #expect(Self.ruleIds(scan.stdout) == ["project.proven-call"])
        let summary = scan.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.hasPrefix("1 finding: 1 medium ("), "\(summary)")
        #expect(summary.hasSuffix("; 1 low-confidence finding not shown (--min-confidence low shows them)"), "\(summary)")

        let all = try CLI.run(["scan", root, "--tools", "native", "--min-confidence", "low"], environment: environment)
        #expect(all.status == 1, "\(all.stderr)")
        #expect(Self.ruleIds(all.stdout) == ["project.audit-call", "project.proven-call"])
        #expect(!all.stdout.contains("not shown"))

        let high = try CLI.run(["scan", root, "--tools", "native", "--min-confidence", "HIGH"], environment: environment)
        #expect(Self.ruleIds(high.stdout) == ["project.proven-call"])
    }

    @Test func jsonSummaryCountsWhatWasLeftOut() throws {
        let root = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scan = try CLI.run(["scan", root, "--tools", "native", "--format", "json"], environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["belowMinConfidence"] as? Int == 1)
        #expect(summary["minConfidence"] as? String == "medium")
        #expect(summary["total"] as? Int == 1)
    }

    @Test func theConfigSetsItAndTheFlagWins() throws {
        let root = try Self.project(config: "minConfidence: low\n")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let configured = try CLI.run(["scan", root, "--tools", "native"], environment: environment)
        #expect(configured.status == 1)
        #expect(Self.ruleIds(configured.stdout) == ["project.audit-call", "project.proven-call"])
        let flag = try CLI.run(["scan", root, "--tools", "native", "--min-confidence", "medium"], environment: environment)
        #expect(flag.status == 0)
        #expect(Self.ruleIds(flag.stdout) == ["project.proven-call"])
    }

    @Test func aBadConfigValueIsAUsageError() throws {
        let root = try Self.project(config: "minConfidence: sometimes\n")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scan = try CLI.run(["scan", root, "--tools", "native"], environment: environment)
        #expect(scan.status == 2)
        #expect(
            scan.stderr == "sentinel: \(root)/.sentinel.yml:2: minConfidence: 'sometimes' is not one of low, medium, high\n",
            "\(scan.stderr)")
    }
}
