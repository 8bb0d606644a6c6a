import Foundation
import TestSupport
import Testing

/// `sentinel init` and `sentinel config show` (issue 56): a fresh repository set up by `init`
/// passes its first CI run — the workflow `init` wrote, run as GitHub runs it, against an OSV
/// mirror serving the ecosystems of its PyPI and npm lockfiles — and `config show` says what is
/// in force and where each value came from.
@Suite(
    "init and config show", .serialized,
    .enabled(
        if: TestHost.canSandbox && FileManager.default.isExecutableFile(atPath: "/usr/bin/zip"),
        "runs the workflow's scan in the sandbox and builds an OSV export: needs root, user namespaces and zip"))
struct InitCLITests {
    /// A small, clean src-layout service with tests, a pinned requirement and a web lockfile.
    static let project: [String: String] = Runner.lockfiles.merging([
        "src/shop/__init__.py": "",
        "src/shop/prices.py": "def total(items):\n    return sum(price for _, price in items)\n",
        "tests/test_prices.py": "from shop.prices import total\n\n\ndef test_total():\n    assert total([(\"a\", 2), (\"b\", 3)]) == 5\n",
    ]) { _, new in new }

    @Test func initInAFreshRepositoryYieldsAPassingFirstCIRun() throws {
        var initOutput = ""
        let runner = try Runner(fixture: nil, files: Self.project) { origin in
            let result = try CLI.run(["init"], directory: origin)
            #expect(result.status == 0, "\(result.stderr)")
            initOutput = result.stdout
        }
        defer { runner.cleanUp() }
        #expect(
            initOutput == """
                wrote .sentinel.yml
                wrote .github/workflows/sentinel.yml
                wrote .pre-commit-config.yaml
                next:
                  sentinel db update --for .   # PyPI, npm advisories
                  sentinel scan .
                  sentinel config show
                  sentinel heal --signal sentinel.sarif --repo . --verify "PYTHONPATH=src python3 -m pytest -q"   # once a scan fails

                """)
        let workflow = try Workflow.load(runner.origin + "/.github/workflows/sentinel.yml")
        #expect(workflow.jobs.map(\.name) == ["scan"])
        let scan = try runner.run(try #require(workflow.job("scan")), needsFailed: false)
        #expect(!scan.failed, "\(scan.log)")
        #expect(runner.mirrorRequests.names.withLock { Set($0) } == ["PyPI", "npm"])
        let sarif = try #require(runner.uploadedSARIF.first, "upload-sarif ran")
        #expect(sarif.category == "sentinel" && sarif.ruleIds.isEmpty, "\(sarif.ruleIds)")

        // Issue 76, H4: a pull request whose own .sentinel.yml says `failOn: none` and whose new
        // module runs a query parameter as a command fails the job: the workflow scans it
        // against its base commit, with the base's configuration (on 7f222c61 it passed).
        let base = try Runner.git(["rev-parse", "HEAD"], in: runner.origin)
        try Runner.git(["checkout", "-q", "-b", "pull-request"], in: runner.origin)
        try "failOn: none\n".write(toFile: runner.origin + "/.sentinel.yml", atomically: false, encoding: .utf8)
        try """
        import subprocess
        import flask

        app = flask.Flask(__name__)

        @app.route("/run")
        def run():
            return subprocess.check_output(flask.request.args["cmd"], shell=True)

        """.write(toFile: runner.origin + "/src/shop/admin.py", atomically: false, encoding: .utf8)
        try Runner.git(["add", "-A"], in: runner.origin)
        try Runner.git(["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "pull request"], in: runner.origin)
        try Runner.git(["checkout", "-q", "main"], in: runner.origin)
        runner.pullRequest = (head: "pull-request", base: base)
        let pull = try runner.run(try #require(workflow.job("scan")), needsFailed: false)
        #expect(pull.failed, "\(pull.log)")
        let gated = try #require(pull.exits.first { $0.command.contains("sentinel scan .") }, "\(pull.log)")
        #expect(gated.status == 1, "\(pull.log)")
        #expect(
            Set(runner.uploadedSARIF.last?.ruleIds ?? []) == ["python.taint-command-injection", "sentinel.config-changed"],
            "\(runner.uploadedSARIF.last?.ruleIds ?? [])")

        // The hook init wrote is the repository's own hook, the same files.
        let hooks = try String(contentsOfFile: CLI.packageRoot + "/.pre-commit-hooks.yaml", encoding: .utf8)
        let written = try String(contentsOfFile: runner.origin + "/.pre-commit-config.yaml", encoding: .utf8)
        let files = try #require(hooks.split(separator: "\n").first { $0.hasPrefix("  files: ") })
        #expect(written.contains("        " + files.dropFirst(2) + "\n"))
    }

    @Test func initKeepsWhatExistsAndNeverEditsTheProjectsPreCommitConfig() throws {
        let root = try CLI.tree([:], prefix: "sentinel-init")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "failOn: low\n".write(toFile: root + "/.sentinel.yml", atomically: false, encoding: .utf8)
        let own = "repos:\n  - repo: https://example.org/hooks\n    rev: v1\n    hooks: [{id: black}]\n"
        try own.write(toFile: root + "/.pre-commit-config.yaml", atomically: false, encoding: .utf8)
        let result = try CLI.run(["init", root, "--no-workflow"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix(
                "kept .sentinel.yml (exists; --force replaces it)\nkept .pre-commit-config.yaml (the project's own): add this hook to it:\nrepos:\n  - repo: local\n"
            ))
        #expect(try String(contentsOfFile: root + "/.sentinel.yml", encoding: .utf8) == "failOn: low\n")
        #expect(try String(contentsOfFile: root + "/.pre-commit-config.yaml", encoding: .utf8) == own)
        #expect(!FileManager.default.fileExists(atPath: root + "/.github"))

        let forced = try CLI.run(["init", root, "--no-workflow", "--no-pre-commit", "--force"])
        #expect(forced.stdout.hasPrefix("wrote .sentinel.yml\nnext:\n"), "\(forced.stdout)")
        #expect(try String(contentsOfFile: root + "/.sentinel.yml", encoding: .utf8).contains("\nfailOn: high\n"))
    }

    @Test func initRefusesALinkWhereItWouldWrite() throws {
        let root = try CLI.tree([:], prefix: "sentinel-init")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: root + "/.github", withDestinationPath: "/etc")
        let result = try CLI.run(["init", root, "--no-pre-commit"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.hasPrefix("sentinel: \(root)/.github/workflows/sentinel.yml: "), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/etc/workflows"))
    }

    @Test func configShowSaysWhereEachValueCameFrom() throws {
        let root = try CLI.tree([:], prefix: "sentinel-init")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "failOn: medium\nexclude: [docs/**]\nsca:\n  max-db-age: 3d\n".write(
            toFile: root + "/.sentinel.yml", atomically: false, encoding: .utf8)
        let result = try CLI.run(["config", "show", root, "--exclude", "build/**", "--min-confidence", "high"])
        #expect(result.status == 0, "\(result.stderr)")
        // Keys in 21 columns, values in 32 (a longer one is followed by two spaces), then the origin.
        func row(_ key: String, _ value: String, _ origin: String) -> String {
            key.padding(toLength: 21, withPad: " ", startingAt: 0)
                + (value.count < 32 ? value.padding(toLength: 32, withPad: " ", startingAt: 0) : value + "  ") + "# " + origin + "\n"
        }
        let expected = [
            row("config", root + "/.sentinel.yml", "the scanned tree's"), row("include", "-", "default"),
            row("exclude", "docs/**, build/**", ".sentinel.yml + --exclude"), row("default-excludes", "true", "default"),
            row("failOn", "medium", ".sentinel.yml"), row("minConfidence", "high", "--min-confidence"),
            row("scanners", "every one that applies", "default"), row("tools", "native, secrets, osv", "default"),
            row("severity", "-", "default"), row("rules", "-", "default"), row("semgrep.config", "-", "default"),
            row("models", "-", "default"), row("prove.run", "-", "default"), row("sca.max-db-age", "3d", ".sentinel.yml"),
            row("sca.missing-db", "fail", "default"), row("sca.stale-db", "fail", "default"),
            row("inline-suppressions", "honoured", "default"),
        ]
        #expect(result.stdout == "# sentinel scan \(root) would use:\n" + expected.joined())

        try "failOn: sometimes\n".write(toFile: root + "/.sentinel.yml", atomically: false, encoding: .utf8)
        let bad = try CLI.run(["config", "show", root])
        #expect(bad.status == 2 && bad.stdout.isEmpty)
        #expect(
            bad.stderr
                == "sentinel: \(root)/.sentinel.yml:1: failOn: 'sometimes' is not one of none, info, low, medium, high, critical, "
                + "proven\n")
    }
}
