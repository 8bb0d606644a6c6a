import Foundation
import Testing

/// Hostile inputs round 3, finding 10: a lockfile the scan counts is a lockfile it reads. Those
/// under `target/`, `.nox/` or `bower_components/` (not ignored by default) and, with
/// --no-default-excludes, under `vendor/` were counted as scanned and never read.
struct LockfileSelectionCLITests {
    @Test("every lockfile the file selection keeps is read")
    func selectedLockfilesAreRead() throws {
        let root = try CLI.tree([:], prefix: "lockfile-selection")
        defer { try? FileManager.default.removeItem(atPath: root) }
        for directory in ["target", ".nox/py311", "vendor/lib", "bower_components/x"] {
            try FileManager.default.createDirectory(atPath: root + "/" + directory, withIntermediateDirectories: true)
            try "jinja2==2.10\n".write(toFile: root + "/" + directory + "/requirements.txt", atomically: false, encoding: .utf8)
        }
        let home = root + "-home"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = CLI.environment(home: home)
        let imported = try CLI.run(["db", "import", CLI.packageRoot + "/examples/osv"], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        func located(_ extra: [String]) throws -> Set<String> {
            let result = try CLI.run(
                ["scan", root, "--sca", "--tools", "osv", "--allow-stale-db", "--fail-on", "none", "--format", "json"] + extra,
                environment: environment, timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let findings = report["findings"] as? [[String: Any]] ?? []
            return Set(findings.compactMap { ($0["location"] as? [String: Any])?["file"] as? String })
        }
        let defaults = try located([])
        #expect(
            defaults == ["target/requirements.txt", ".nox/py311/requirements.txt", "bower_components/x/requirements.txt"], "\(defaults)")
        #expect(
            try located(["--no-default-excludes"]) == [
                "target/requirements.txt", ".nox/py311/requirements.txt", "vendor/lib/requirements.txt",
                "bower_components/x/requirements.txt",
            ])
    }
}
