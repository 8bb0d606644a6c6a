import Foundation
import TestSupport
import Testing

/// `sentinel scan --sca` over a requirements file that hides a vulnerable pin behind a form
/// feed after a comment: pip installs `requests==2.19.1`, so the scan must report it (issue 26).
@Suite(.serialized) struct HostileLockfileCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
    var environment: [String: String] {
        CLI.environment(home: home)
    }

    @Test func aPinAfterAFormFeedIsReported() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let imported = try CLI.run(["db", "import", CLI.packageRoot + "/examples/osv"], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let project = home + "/project"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try Data("# reviewed\u{0C}requests==2.19.1\n".utf8).write(to: URL(fileURLWithPath: project + "/requirements.txt"))

        let result = try CLI.run(
            ["scan", project, "--sca", "--format", "json", "--allow-stale-db"], environment: environment, timeout: 300)
        #expect(result.status == 1, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let findings = report?["findings"] as? [[String: Any]] ?? []
        let rules = Set(findings.compactMap { $0["ruleId"] as? String })
        #expect(rules.contains("PYSEC-2018-28"), "rules: \(rules.sorted())")
    }
}
