#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Synchronization
import Testing
import TestSupport

/// The corpus and fixtures these tests read in place.
enum DatabaseFixtures {
    static let pypa = URL(fileURLWithPath: CLI.packageRoot).deletingLastPathComponent().path + "/shared/corpora/osv/pypa/vulns"
    static let ghsa = CLI.packageRoot + "/Tests/SCATests/Fixtures/ghsa"
    static let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/zip")
}

/// `sentinel db update|status` against a loopback server, and what SCA then reports.
@Suite(.serialized, .enabled(if: DatabaseFixtures.available, "needs /usr/bin/zip"), .needsCorpus("osv/pypa/vulns"))
struct DatabaseCLITests {
    static let pypa = DatabaseFixtures.pypa
    static let ghsa = DatabaseFixtures.ghsa
    let home = NSTemporaryDirectory() + "sentinel-db-\(UUID().uuidString)"

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_HOME"] = home
        environment.removeValue(forKey: "SENTINEL_OSV_URL")
        return environment.merging(extra) { _, new in new }
    }

    /// A zip of the PyPA corpus records of `packages`.
    func zip(_ packages: [String]) throws -> [UInt8] {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let path = home + "/export-\(UUID().uuidString).zip"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
        process.arguments = ["-q", "-r", "-j", path] + packages.map { Self.pypa + "/" + $0 }
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func updateThenNotModifiedThenFailuresKeepTheData() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let export = try zip(["jinja2"])
        let step = Mutex(0)
        let server = try LoopbackHTTPServer { request in
            let n = step.withLock { value in
                defer { value += 1 }; return value
            }
            switch n {
            case 0: return .init(status: 200, headers: [("ETag", "\"e1\"")], body: export)
            case 1: return request.headers["if-none-match"] == "\"e1\"" ? .init(status: 304) : .init(status: 400)
            case 2: return .init(status: 500)
            default: return .init(status: 200, headers: [("ETag", "\"e2\"")], body: Array(export.prefix(export.count - 30)))
            }
        }
        defer { server.stop() }
        let url = server.baseURL + "/PyPI/all.zip"

        let first = try CLI.run(["db", "update", "--ecosystem", "PyPI", "--url", server.baseURL], environment: environment())
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "PyPI: imported 5 files: 5 new, 0 updated, 0 unchanged, 0 problems\n")

        // The base URL from the environment; the ecosystem from the database.
        let second = try CLI.run(["db", "update"], environment: environment(["SENTINEL_OSV_URL": server.baseURL]))
        #expect(second.status == 0 && second.stdout == "PyPI: up to date (not modified)\n", "\(second.stderr)")

        let failed = try CLI.run(["db", "update", "--url", server.baseURL], environment: environment())
        #expect(failed.status == 1)
        #expect(failed.stderr == "sentinel: PyPI: GET \(url): HTTP 500; its data is unchanged\n")

        let truncated = try CLI.run(["db", "update", "--url", server.baseURL], environment: environment())
        #expect(truncated.status == 1)
        #expect(truncated.stderr == "sentinel: PyPI: \(url): no zip end-of-central-directory record; its data is unchanged\n")

        let status = try CLI.run(["db", "status"], environment: environment())
        #expect(status.status == 0)
        let lines = status.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("records   5 (0 withdrawn)"))
        #expect(lines.last?.hasPrefix("  PyPI         5 records, newest ") == true)
        // The age is the data's own (its newest `modified`); the update time is apart.
        #expect(lines.last?.hasSuffix(", source \(url), updated 0m ago") == true, "\(lines)")
        #expect(lines.last?.contains(", age ") == true && lines.last?.contains(", age 0m") == false, "\(lines)")
    }

    @Test func badUpdateArguments() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try CLI.run(["db", "update", "--url", "ftp://example.org"], environment: environment())
        #expect(result.status == 2)
        #expect(result.stderr.contains("--url: 'ftp://example.org' is not an http:// or https:// URL"))
    }

    /// Issue 78, W4: `db import DIR` ran as root, so a record another user kept private (mode 600)
    /// in the directory was read with root's rights (and a 2 GiB file there read whole). Started as
    /// root it now runs as the unprivileged analysis, as `db update` does, with the named paths
    /// lent read-only: that file is a problem of the import, the readable ones are imported.
    @Test(.enabled(if: TestHost.canSandbox, "runs the import in the analysis sandbox: needs root and user namespaces"))
    func importAsRootReadsWithTheAnalysisRights() throws {
        // Outside the state directory: a lend may not overlap the state root lends writable.
        let records = NSTemporaryDirectory() + "sentinel-records-\(UUID().uuidString)"
        defer { for path in [home, records] { try? FileManager.default.removeItem(atPath: path) } }
        try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
        for name in ["jinja2", "pyyaml"] {
            let source = try #require(try FileManager.default.contentsOfDirectory(atPath: Self.pypa + "/" + name).sorted().first)
            try FileManager.default.copyItem(atPath: Self.pypa + "/" + name + "/" + source, toPath: records + "/" + name + ".yaml")
        }
        let hidden = records + "/pyyaml.yaml"
        #expect(chown(hidden, 4242, 4242) == 0 && chmod(hidden, 0o600) == 0)
        let imported = try CLI.run(["db", "import", records], environment: environment())
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("imported 2 files: 1 new, "), "\(imported.stdout)")
        #expect(imported.stderr.contains("\(hidden): cannot open: Permission denied"), "\(imported.stderr)")
    }

    /// The reproducer: three pins, the PyPA corpus plus the GitHub records of the two
    /// CVSS 9.8 advisories; the default gate now fails.
    @Test func knownCriticalCVEsFailTheDefaultGate() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        // 2,662 advisories: seconds idle, so more room than a command's default under load.
        let imported = try CLI.run(["db", "import", Self.pypa, Self.ghsa], environment: environment(), timeout: 300)
        #expect(imported.status == 0, "\(imported.stderr)")
        let project = home + "/project"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try "django==3.2.0\npyyaml==5.3\njinja2==2.10\n".write(toFile: project + "/requirements.txt", atomically: true, encoding: .utf8)

        let json = try CLI.run(
            ["scan", project, "--sca", "--allow-stale-db", "--format", "json"], environment: environment(), timeout: 300)
        #expect(json.status == 1, "\(json.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let findings = report?["findings"] as? [[String: Any]] ?? []
        let severity = Dictionary(
            findings.map { ($0["ruleId"] as? String ?? "", $0["severity"] as? String ?? "") },
            uniquingKeysWith: { a, _ in a })
        // One finding per vulnerability: the GitHub record that carries the CVSS vector, the PyPA
        // record of the same issue named beside it.
        #expect(severity["GHSA-xpfp-f569-q3p2"] == "critical")  // CVE-2021-35042, Django order_by SQL injection
        #expect(severity["GHSA-6757-jp84-gxfx"] == "critical")  // CVE-2020-1747, PyYAML full_load
        #expect(severity["PYSEC-2021-109"] == nil && severity["PYSEC-2020-96"] == nil)
        let sameAs = findings.first { $0["ruleId"] as? String == "GHSA-6757-jp84-gxfx" }
            .flatMap { ($0["properties"] as? [String: Any])?["sameAs"] as? String }
        #expect(sameAs == "PYSEC-2020-96")
        #expect(!severity.values.contains("medium") || findings.count > 2)
        #expect(severity.values.contains("unknown"), "advisories without any severity are reported as unknown")

        let text = try CLI.run(
            ["scan", project, "--sca", "--allow-stale-db", "--fail-on", "critical"], environment: environment(), timeout: 300)
        #expect(text.status == 1)
        #expect(
            text.stdout.contains(
                "requirements.txt:1: critical: [GHSA-xpfp-f569-q3p2] django 3.2.0 is affected by GHSA-xpfp-f569-q3p2 (CVE-2021-35042, PYSEC-2021-109)"
            ))

        let sarif = try CLI.run(
            ["scan", project, "--sca", "--allow-stale-db", "--format", "sarif", "--fail-on", "none"], environment: environment(),
            timeout: 300)
        #expect(sarif.status == 0)
        let log = try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any]
        let osv = log.flatMap { SARIFEngines.view($0, tool: "osv") }
        let rules = ((osv?["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]] ?? []
        let rule = rules.first { $0["id"] as? String == "GHSA-6757-jp84-gxfx" }
        let help = (rule?["help"] as? [String: Any])?["text"] as? String ?? ""
        #expect(help.hasPrefix("GHSA-6757-jp84-gxfx (CVE-2020-1747): "), "\(help)")
        #expect(help.contains("Severity: critical (CVSS 9.8, CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H)."), "\(help)")
        // GitHub ranks results by the advisory's own score, not by a bucket of the level.
        #expect((rule?["properties"] as? [String: Any])?["security-severity"] as? String == "9.8")
        #expect(help.contains("Fix: upgrade pyyaml to 5.3.1 or later."))
        #expect((rule?["defaultConfiguration"] as? [String: Any])?["level"] as? String == "error")
    }

    /// Issue 27: the corpus's jinja2 advisories were last modified in 2021; imported today, they
    /// are still old, and a scan fails (exit 3) unless the limit or the user accepts them.
    @Test func scanJudgesStalenessByTheDataItself() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let imported = try CLI.run(["db", "import", Self.pypa + "/jinja2"], environment: environment())
        #expect(imported.status == 0, "\(imported.stderr)")
        let project = home + "/project"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try "jinja2==2.10\n".write(toFile: project + "/requirements.txt", atomically: true, encoding: .utf8)

        let stale = try CLI.run(["scan", project, "--sca", "--fail-on", "none"], environment: environment(), timeout: 300)
        #expect(stale.status == 3)
        #expect(stale.stderr.hasPrefix("sentinel: osv: the PyPI advisories are "), "\(stale.stderr)")
        #expect(
            stale.stderr.hasSuffix(
                "d old (newest modified 2021-11-22T04:57:52.929678Z), over the 7d limit: run `sentinel db update`, or pass --allow-stale-db\n"
            ), "\(stale.stderr)")

        let accepted = try CLI.run(
            ["scan", project, "--sca", "--fail-on", "none", "--max-db-age", "100000d"], environment: environment(), timeout: 300)
        #expect(accepted.status == 0 && accepted.stderr.isEmpty, "\(accepted.stderr)")

        try "sca:\n  max-db-age: 0s\n".write(toFile: project + "/.sentinel.yml", atomically: true, encoding: .utf8)
        let configured = try CLI.run(
            ["scan", project, "--sca", "--fail-on", "none", "--allow-stale-db"], environment: environment(), timeout: 300)
        #expect(configured.status == 0)
        #expect(configured.stderr.contains("), over the 0m limit: scanned with them as --allow-stale-db asks"), "\(configured.stderr)")

        let bad = try CLI.run(["scan", project, "--sca", "--max-db-age", "soon"], environment: environment())
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("Error: The value 'soon' is invalid for '--max-db-age <max-db-age>'\n"))
    }
}
