#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// `sentinel scan` end to end over the bundled example project.
@Suite(.serialized, .enabled(if: TestHost.canSandbox, "needs root and user namespaces (external tools run sandboxed)"))
struct ScanCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
    var environment: [String: String] {
        CLI.environment(home: home)
    }
    var examples: String { CLI.packageRoot + "/examples" }

    /// The example advisories were last modified on 2024-10-01: scans with them pass --allow-stale-db.
    private func importExampleAdvisories() throws {
        let result = try CLI.run(["db", "import", examples + "/osv"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("imported 11 files: 11 new"))
    }

    @Test func exampleProjectFindingsAndExitOne() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try importExampleAdvisories()
        let result = try CLI.run(["scan", examples, "--format", "json", "--allow-stale-db"], environment: environment, timeout: 300)
        #expect(result.status == 1, "\(result.stderr)")
        // Without the opt-out, the same scan fails closed on the data's age (issue 27).
        let stale = try CLI.run(["scan", examples, "--sca"], environment: environment, timeout: 300)
        #expect(stale.status == 3)
        #expect(
            stale.stderr.hasSuffix(
                "d old (newest modified 2024-10-01T00:00:00Z), over the 7d limit: run `sentinel db update`, or pass --allow-stale-db\n"),
            "\(stale.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let findings = json?["findings"] as? [[String: Any]] ?? []
        let rules = Set(findings.compactMap { $0["ruleId"] as? String })
        for expected in [
            "secrets.aws-access-key-id", "secrets.generic-password", "PYSEC-2018-66", "PYSEC-2021-142",
            "PYSEC-2019-217", "sca.not-pinned",
        ] {
            #expect(rules.contains(expected), "missing \(expected) in \(rules.sorted())")
        }
        // Secrets never appear in the report, whatever the tool.
        #expect(!result.stdout.contains("AKIAZ7QM3XKD4HTVRN2P"))
        #expect(!result.stdout.contains("k3Jx9#Lm2vQz8$Wp4rTy"))
        // The fix data travels with SCA findings.
        let flask = findings.first { $0["ruleId"] as? String == "PYSEC-2018-66" }
        let properties = flask?["properties"] as? [String: String]
        #expect(properties?["fixedVersion"] == "0.12.3")
        #expect(properties?["installedVersion"] == "0.12.2")
    }

    @Test func sarifOutputIsValidAgainstTheSchema() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try importExampleAdvisories()
        let output = home + "/report.sarif"
        let result = try CLI.run(
            ["scan", examples, "--format", "sarif", "--output", output, "--fail-on", "none", "--allow-stale-db"],
            environment: environment, timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        let schema =
            URL(fileURLWithPath: CLI.packageRoot).deletingLastPathComponent().path
            + "/shared/corpora/sarif/sarif-schema-2.1.0.json"
        let python = CLI.packageRoot + "/.venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: schema) else {
            return  // validated in FindingsTests where the venv exists; here the file was at least written
        }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = [
            "-c",
            "import json,sys,jsonschema; jsonschema.Draft4Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2]))); print('valid')",
            schema, output,
        ]
        let pipe = Pipe()
        check.standardOutput = pipe
        check.standardError = pipe
        try check.run()
        check.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(check.terminationStatus == 0, "\(text)")
    }

    @Test func baselineThenOnlyNewFindings() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try importExampleAdvisories()
        let baseline = home + "/baseline.json"
        let first = try CLI.run(
            ["scan", examples, "--write-baseline", baseline, "--format", "json", "--allow-stale-db"],
            environment: environment, timeout: 300)
        #expect(first.status == 0, "\(first.stderr)")  // writing a baseline accepts its findings
        let second = try CLI.run(
            ["scan", examples, "--baseline", baseline, "--format", "json", "--allow-stale-db"],
            environment: environment, timeout: 300)
        #expect(second.status == 0, "\(second.stdout)")
        let json = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any]
        #expect((json?["findings"] as? [Any])?.isEmpty == true)
    }

    /// Issue 27: lockfiles without advisory data are not "no findings". The scan fails closed
    /// (exit 3, naming the command that fetches the data) unless the user accepts it.
    @Test func missingDatabaseFailsClosedUnlessAllowed() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let defaults = try CLI.run(["scan", examples, "--sca", "--format", "json"], environment: environment)
        #expect(defaults.status == 3, "\(defaults.stderr)")
        #expect(defaults.stderr.contains("no OSV database") && defaults.stderr.contains("sentinel db update"))
        let allowed = try CLI.run(["scan", examples, "--sca", "--format", "json", "--allow-missing-db"], environment: environment)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("no OSV database"))
        let named = try CLI.run(["scan", examples, "--sca", "--tools", "osv", "--allow-missing-db"], environment: environment)
        #expect(named.status == 3)
        #expect(named.stderr.contains("no OSV database"))
    }

    @Test func badConfigExitsTwoNamingTheKey() throws {
        let directory = NSTemporaryDirectory() + "sentinel-scan-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "scanners: [sast]\nfail_on: high\n".write(toFile: directory + "/.sentinel.yml", atomically: true, encoding: .utf8)
        let result = try CLI.run(["scan", directory], environment: environment)
        #expect(result.status == 2)
        #expect(result.stderr.contains(".sentinel.yml:2: unknown key 'fail_on'"), "\(result.stderr)")
    }

    @Test func unknownToolAndFormatAreUsageErrors() throws {
        #expect(try CLI.run(["scan", examples, "--tools", "nope"], environment: environment).status == 2)
        #expect(try CLI.run(["scan", examples, "--format", "xml"], environment: environment).status == 2)
        #expect(try CLI.run(["scan", "/nonexistent/path"], environment: environment).status == 2)
    }
}
