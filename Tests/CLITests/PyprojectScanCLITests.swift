import Foundation
import Testing

/// `sentinel scan --sca` reads pyproject.toml (issue 75): a vulnerable pin there is a finding at
/// its line, a lockfile beside it is read instead (one finding, not two), and a malformed one is a
/// one-line input error naming the file, as a malformed lockfile is.
@Suite(.serialized) struct PyprojectScanCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
    var environment: [String: String] { CLI.environment(home: home) }

    /// A fresh directory holding `files` (relative path → text), subdirectories made as needed.
    static func tree(_ files: [String: String]) throws -> String { try CLI.tree(texts: files, prefix: "sentinel-pyproject") }

    @Test func aPinInPyprojectIsReportedAtItsLineAndALockfileBesideItWins() throws {
        let manifest = "[project]\nname = \"svc\"\ndependencies = [\n  \"flask>=2\",\n  \"requests==2.19.1\",\n]\n"
        let root = try Self.tree([
            "app/pyproject.toml": manifest,
            "locked/pyproject.toml": manifest,
            "locked/poetry.lock": "[[package]]\nname = \"requests\"\nversion = \"2.19.1\"\n",
        ])
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        let imported = try CLI.run(["db", "import", CLI.packageRoot + "/examples/osv"], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let result = try CLI.run(
            ["scan", root, "--sca", "--tools", "osv", "--allow-stale-db", "--format", "json"], environment: environment,
            timeout: 300)
        #expect(result.status == 1, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = report["findings"] as? [[String: Any]] ?? []
        let advisories = findings.filter { ($0["ruleId"] as? String) == "PYSEC-2018-28" }.compactMap { finding -> String? in
            guard let location = finding["location"] as? [String: Any], let file = location["file"] as? String,
                let line = location["startLine"] as? Int
            else { return nil }
            return "\(file):\(line)"
        }
        #expect(advisories.sorted() == ["app/pyproject.toml:5", "locked/poetry.lock:2"], "\(findings)")
        let unpinned = findings.filter { ($0["ruleId"] as? String) == "sca.not-pinned" }.compactMap { $0["message"] as? String }
        #expect(unpinned == ["not pinned: flask (>=2)"])
    }

    /// Tools' settings alone declare no dependency: no advisory data is needed (exit 0, not 3).
    @Test func aPyprojectOfSettingsAloneNeedsNoDatabase() throws {
        let root = try Self.tree(["pyproject.toml": "[tool.ruff]\nline-length = 100\n", "app.py": "x = 1\n"])
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        let result = try CLI.run(["scan", root], environment: environment, timeout: 300)
        #expect(result.status == 0, "status \(result.status): \(result.stderr.suffix(300))")
    }

    @Test func aMalformedPyprojectIsAOneLineInputError() throws {
        let root = try Self.tree(["pyproject.toml": "[project]\nname = \"svc\ndependencies = []\n"])
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        let imported = try CLI.run(["db", "import", CLI.packageRoot + "/examples/osv"], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let result = try CLI.run(["scan", root, "--tools", "osv", "--allow-stale-db"], environment: environment, timeout: 300)
        #expect(result.status == 2, "status \(result.status): \(result.stderr.suffix(300))")
        #expect(result.stdout.contains("error: pyproject.toml:2: unterminated string"), "\(result.stdout.suffix(500))")
    }
}
