#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// Issue 78, W1 and W3: what root lends its unprivileged analysis is exactly what the job needs,
/// and a name another user could take first in a shared directory does not stop root's run.
@Suite("root's lends are exact and no squatter stops root's run")
struct RootLendsCLITests {
    func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// W1: `fleet worker --database sqlite:/var/lib/fleet.sqlite` lent `/var/lib` writable,
    /// idmapped as root, to the worker: a directory holding anything but the database is refused.
    @Test(
        "a root worker's SQLite database beside other files is refused with one line, its directory never lent",
        .enabled(if: TestHost.canSandbox))
    func aDatabaseBesideOtherFilesIsRefused() throws {
        let place = try CLI.tree(["dpkg/status": Array("Package: x\n".utf8)], prefix: "fleet-system-like")
        defer { try? FileManager.default.removeItem(atPath: place) }
        let file = place + "/fleet.sqlite"
        let worker = try FleetProcess(["worker"], environment: try CLI.fleetEnvironment(database: "sqlite:" + file))
        let status = worker.wait(timeout: 120)
        let log = (try? String(contentsOfFile: worker.logPath, encoding: .utf8)) ?? ""
        #expect(status == 2, "the worker started: \(log)")
        #expect(
            log.contains(
                "--database sqlite:\(file): a worker started as root lends its SQLite database's directory to its unprivileged analysis, and \(place) holds dpkg"
            ), "\(log)")
        #expect(log.split(separator: "\n").count == 1, "\(log)")
        #expect(!exists(file))
    }

    /// Issue 81: rules named by root's `SENTINEL_RULES` outside the install tree were invisible to
    /// the unprivileged analysis ("no such rule directory", exit 2, every scan of a root worker).
    /// The named directory itself is lent read-only, at its own path; its parent is not.
    @Test("rules root's SENTINEL_RULES names outside the install tree reach the analysis", .enabled(if: TestHost.canSandbox))
    func configuredRulesOutsideTheInstallReachTheAnalysis() throws {
        let place = try CLI.tree(
            [
                "rules/custom-marker.yaml": Array(
                    """
                    id: custom.marker-call
                    message: the marker call of a rule directory of the operator's own
                    severity: high
                    languages: [python]
                    pattern: custom_marker_call(...)

                    """.utf8),
                "repo/app.py": Array("custom_marker_call(1)\n".utf8),
            ], prefix: "root-custom-rules")
        defer { try? FileManager.default.removeItem(atPath: place) }
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_RULES"] = place + "/rules"
        environment["SENTINEL_HOME"] = place + "/home"
        let scan = try CLI.run(
            ["scan", place + "/repo", "--tools", "native", "--format", "json", "--fail-on", "high"], environment: environment)
        #expect(scan.status == 1, "\(scan.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any]
        let rules = (report?["findings"] as? [[String: Any]] ?? []).compactMap { $0["ruleId"] as? String }
        #expect(rules == ["custom.marker-call"], "\(scan.stdout)")
        #expect(!scan.stderr.contains("as root"), "\(scan.stderr)")
        #expect(!scan.stderr.contains("no such rule directory"), "\(scan.stderr)")
    }

    /// W1: a directory of the database's own (made by root for it when missing) is what is lent.
    @Test("a root worker's SQLite database in a directory of its own is served", .enabled(if: TestHost.canSandbox))
    func aDatabaseInADirectoryOfItsOwnIsServed() throws {
        let place = NSTemporaryDirectory() + "fleet-own-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: place) }
        let worker = try FleetProcess(["worker"], environment: try CLI.fleetEnvironment(database: "sqlite:" + place + "/fleet.sqlite"))
        #expect(eventually(timeout: 120) { !worker.events("worker.started").isEmpty || !worker.process.isRunning }, "\(worker.events)")
        #expect(exists(place + "/fleet.sqlite"))
        var info = stat()
        #expect(stat(place, &info) == 0 && info.st_mode & 0o777 == 0o700)
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 120) == 0, "\(worker.events)")
    }

    /// W3: README's CI recipe keeps the state in `/tmp/sentinel`; another user who makes
    /// `/tmp/sentinel.scratch` first made every root heal fail. Root's scratch goes to a
    /// directory of its own with a name nobody can compute instead, and hers is left untouched.
    @Test(
        "a directory another user made first at <SENTINEL_HOME>.scratch does not stop a root heal",
        .enabled(if: TestHost.canSandbox))
    func aSquattedScratchBesideTheStateDoesNotStopAHeal() throws {
        let scratch = try RootHealCLITests.ownedScratch()
        // A /tmp of the test's own: root's, sticky, everyone may add to it.
        let shared = scratch.root + "/shared"
        #expect(mkdir(shared, 0o700) == 0 && chmod(shared, 0o1777) == 0)
        let squatted = shared + "/sentinel.scratch"
        #expect(mkdir(squatted, 0o700) == 0 && chown(squatted, 65_534, 65_534) == 0)
        var environment = scratch.environment
        environment["SENTINEL_HOME"] = shared + "/sentinel"
        environment["TMPDIR"] = shared
        let report = scratch.root + "/report.sarif"
        let scan = try CLI.run(
            ["scan", scratch.repo, "--format", "sarif", "--output", report, "--allow-missing-db"], environment: environment)
        #expect(scan.status == 1, "\(scan.stderr)")
        let heal = try CLI.run(
            [
                "heal", "--signal", report, "--repo", scratch.repo, "--verify", "python3 -m pytest -q", "--level", "proposer",
                "--out", scratch.out,
            ], environment: environment, timeout: 600)
        #expect(heal.status == 0, "\(heal.stdout)\(heal.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.out + "/evidence.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: squatted).isEmpty)
        var info = stat()
        #expect(lstat(squatted, &info) == 0 && info.st_uid == 65_534)
    }
}
