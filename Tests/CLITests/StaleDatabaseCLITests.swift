import Foundation
import Testing

/// Issue 27: advisory data is judged by its own newest `modified`, not by when it was imported;
/// data older than `--max-db-age` (default 7d) fails the scan (exit 3) naming the command that
/// refreshes it, unless the user opts out with `--allow-stale-db`.
@Suite(.serialized) struct StaleDatabaseCLITests {
    let root = NSTemporaryDirectory() + "sentinel-stale-\(UUID().uuidString)"
    var home: String { root + "/home" }
    var project: String { root + "/project" }
    var environment: [String: String] { CLI.environment(home: home) }

    static func date(daysAgo days: Double) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date().addingTimeInterval(-days * 86_400))
    }

    /// Imports (now) one advisory per `(id, package, modified)` and a project pinning each package at 1.0.
    func setUp(_ advisories: [(id: String, package: String, modified: String)]) throws {
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/osv", withIntermediateDirectories: true)
        for advisory in advisories {
            let record = """
                {"schema_version": "1.6.0", "id": "\(advisory.id)", "modified": "\(advisory.modified)",
                 "summary": "test advisory",
                 "affected": [{"package": {"ecosystem": "PyPI", "name": "\(advisory.package)"},
                               "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"fixed": "2.0"}]}]}]}
                """
            try record.write(toFile: root + "/osv/\(advisory.id).json", atomically: true, encoding: .utf8)
        }
        let pins = Set(advisories.map(\.package)).sorted().map { "\($0)==1.0\n" }.joined()
        try pins.write(toFile: project + "/requirements.txt", atomically: true, encoding: .utf8)
        let imported = try CLI.run(["db", "import", root + "/osv"], environment: environment)
        try #require(imported.status == 0, "\(imported.stderr)")
    }

    @Test func dataOlderThanTheLimitFailsClosedUnlessAllowed() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let modified = Self.date(daysAgo: 30)
        try setUp([("TEST-2024-1", "stalepkg", modified)])
        let clause = "the PyPI advisories are 30d old (newest modified \(modified)), over the 7d limit"

        // Imported a moment ago, but its newest advisory is 30 days old.
        let stale = try CLI.run(["scan", project, "--sca"], environment: environment)
        #expect(stale.status == 3, "\(stale.stderr)")
        #expect(stale.stderr == "sentinel: osv: \(clause): run `sentinel db update`, or pass --allow-stale-db\n")
        #expect(stale.stdout.contains("stalepkg 1.0 is affected by TEST-2024-1"), "\(stale.stdout)")

        let allowed = try CLI.run(["scan", project, "--sca", "--allow-stale-db", "--fail-on", "none"], environment: environment)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(
            allowed.stderr
                == "sentinel: warning: \(clause): scanned with them as --allow-stale-db asks; `sentinel db update` refreshes them\n")

        let longer = try CLI.run(["scan", project, "--sca", "--max-db-age", "60d", "--fail-on", "none"], environment: environment)
        #expect(longer.status == 0 && longer.stderr.isEmpty, "\(longer.stderr)")

        // The scanned repository may not accept older data for the operator; a --config file may.
        try "sca:\n  max-db-age: 400d\n".write(toFile: project + "/.sentinel.yml", atomically: true, encoding: .utf8)
        let inTree = try CLI.run(["scan", project, "--sca", "--fail-on", "none"], environment: environment)
        #expect(inTree.status == 3, "\(inTree.stderr)")
        try "sca:\n  max-db-age: 400d\n".write(toFile: root + "/operator.yml", atomically: true, encoding: .utf8)
        let operatorConfig = try CLI.run(
            ["scan", project, "--sca", "--fail-on", "none", "--config", root + "/operator.yml"], environment: environment)
        #expect(operatorConfig.status == 0, "\(operatorConfig.stderr)")
        // ...and may ask for fresher data.
        try "sca:\n  max-db-age: 1d\n".write(toFile: project + "/.sentinel.yml", atomically: true, encoding: .utf8)
        let stricter = try CLI.run(["scan", project, "--sca", "--max-db-age", "60d", "--fail-on", "none"], environment: environment)
        #expect(stricter.status == 0, "the command line is the operator's: \(stricter.stderr)")

        // `db status` shows the same age.
        let status = try CLI.run(["db", "status"], environment: environment)
        #expect(status.status == 0)
        let line = status.stdout.split(separator: "\n").first { $0.hasPrefix("  PyPI") }.map(String.init) ?? ""
        #expect(line.contains("1 records, newest \(modified), age 30d, source import \(root)/osv, updated 0m ago"), "\(line)")
    }

    @Test func currentDataPassesAndAFutureDateDoesNotMakeOldDataCurrent() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try setUp([("TEST-2026-1", "freshpkg", Self.date(daysAgo: 1))])
        let fresh = try CLI.run(["scan", project, "--sca", "--fail-on", "none"], environment: environment)
        #expect(fresh.status == 0 && fresh.stderr.isEmpty, "\(fresh.stderr)")
        try FileManager.default.removeItem(atPath: root)

        // A record dated 2999 (a hostile or broken mirror) does not count as the data's newest.
        let old = Self.date(daysAgo: 30)
        try setUp([("TEST-2024-2", "stalepkg", old), ("TEST-2999-1", "futurepkg", "2999-01-01T00:00:00Z")])
        let stale = try CLI.run(["scan", project, "--sca", "--fail-on", "none"], environment: environment)
        #expect(stale.status == 3)
        #expect(stale.stderr.hasPrefix("sentinel: osv: the PyPI advisories are 30d old (newest modified \(old)),"), "\(stale.stderr)")
    }

    /// Lockfiles of an ecosystem the database holds nothing for are unchecked, not clean.
    @Test func anEcosystemWithoutAdvisoriesFailsClosedUnlessAllowed() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try setUp([("TEST-2026-2", "freshpkg", Self.date(daysAgo: 1))])
        let lock = """
            {"name": "p", "lockfileVersion": 3, "packages": {"": {"name": "p", "dependencies": {"left-pad": "1.3.0"}},
             "node_modules/left-pad": {"version": "1.3.0"}}}
            """
        try lock.write(toFile: project + "/package-lock.json", atomically: true, encoding: .utf8)

        let missing = try CLI.run(["scan", project, "--sca", "--fail-on", "none"], environment: environment)
        #expect(missing.status == 3)
        #expect(
            missing.stderr
                == "sentinel: osv: the OSV database holds no npm advisories: run `sentinel db update --ecosystem npm`, or pass --allow-missing-db\n"
        )
        let allowed = try CLI.run(["scan", project, "--sca", "--fail-on", "none", "--allow-missing-db"], environment: environment)
        #expect(allowed.status == 0)
        #expect(
            allowed.stderr
                == "sentinel: warning: the OSV database holds no npm advisories: those dependencies were not checked, as --allow-missing-db asks\n"
        )
    }
}
