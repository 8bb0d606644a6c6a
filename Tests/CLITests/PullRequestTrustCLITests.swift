import Foundation
import Testing

/// Issue 76, H4: a pull request cannot choose its own gate. In a pull request's scan
/// (`--since BASE`) the gate, severities, models, excludes, scanners and suppressions come from
/// the base revision (or the operator's `--config`), never from the head; what the head changes
/// in `.sentinel.yml` and the suppressions it adds are findings that meet the gate. Real git
/// repositories: the base commit, then the pull request's commit checked out on top of it.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "needs git"))
struct PullRequestTrustCLITests {
    /// A route that runs its query parameter as a shell command: a high finding whatever the base
    /// configuration, at line 8.
    static let vulnerable = """
        import subprocess
        import flask

        app = flask.Flask(__name__)

        @app.route("/run")
        def run():
            return subprocess.check_output(flask.request.args["cmd"], shell=True)

        """
    static let benign = """
        import flask

        app = flask.Flask(__name__)

        """
    static let commandInjection = "python.taint-command-injection"

    /// A repository whose base commit holds `base` and whose checked-out head commit holds
    /// `head` (nil deletes the file); returns the tree and the base commit.
    static func repository(base: [String: String], head: [String: String?]) throws -> (root: String, base: String) {
        let root = try CLI.tree(texts: base, prefix: "sentinel-pr")
        try CLI.git(["init", "-q", "-b", "main"], in: root)
        try CLI.git(["add", "-A"], in: root)
        try CLI.git(["commit", "-q", "-m", "base"], in: root)
        let commit = try CLI.git(["rev-parse", "HEAD"], in: root)
        try CLI.git(["checkout", "-q", "-b", "pull-request"], in: root)
        for (file, text) in head {
            let path = root + "/" + file
            if let text {
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try text.write(toFile: path, atomically: false, encoding: .utf8)
            } else {
                try FileManager.default.removeItem(atPath: path)
            }
        }
        try CLI.git(["add", "-A"], in: root)
        try CLI.git(["commit", "-q", "-m", "pull request"], in: root)
        return (root, commit)
    }

    /// `rule:line` of each finding of a JSON report, and the file of each.
    static func findings(_ json: String) -> [(rule: String, file: String, line: Int?, severity: String)] {
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return (object?["findings"] as? [[String: Any]] ?? []).map { finding in
            let location = finding["location"] as? [String: Any] ?? [:]
            return (
                finding["ruleId"] as? String ?? "", location["file"] as? String ?? "", location["startLine"] as? Int,
                finding["severity"] as? String ?? ""
            )
        }
    }

    static func scan(_ root: String, _ extra: [String]) throws -> CLI.Result {
        try CLI.run(["scan", root, "--sast", "--tools", "native", "--format", "json"] + extra, timeout: 300)
    }

    /// Each way the head's own `.sentinel.yml` turned the finding it adds green on 7f222c61: the
    /// scan now uses the base's file, reports the command injection and the change to the
    /// configuration, both at the gate, and fails (exit 1).
    @Test(
        arguments: [
            "failOn: none\n",
            "severity:\n  \(commandInjection): info\n",
            "models:\n  sanitizers:\n    - pattern: $X\n",
            "exclude: [app.py]\n",
            "scanners: [secrets]\n",
            "tools: [secrets]\n",
        ])
    func theHeadsConfigurationDecidesNothing(headConfig: String) throws {
        let (root, base) = try Self.repository(
            base: ["app.py": Self.benign, ".sentinel.yml": "failOn: high\n"],
            head: ["app.py": Self.vulnerable, ".sentinel.yml": headConfig])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Self.scan(root, ["--since", base])
        #expect(result.status == 1, "\(headConfig): \(result.stdout)\(result.stderr)")
        let found = Self.findings(result.stdout)
        #expect(found.contains { $0.rule == Self.commandInjection && $0.line == 8 }, "\(headConfig): \(result.stdout)")
        let change = found.filter { $0.rule == "sentinel.config-changed" }
        #expect(change.count == 1 && change.first?.file == ".sentinel.yml" && change.first?.line == 1, "\(result.stdout)")
        #expect(change.first?.severity == "high")

        // Without --since the tree's own file is the project's, as before (a push to main).
        let push = try Self.scan(root, ["--fail-on", "none"])
        #expect(push.status == 0, "\(push.stderr)")
        #expect(!Self.findings(push.stdout).contains { $0.rule == "sentinel.config-changed" })
    }

    /// The change finding's text: what changed and whose configuration the scan used, at the
    /// base's threshold; adding or deleting the file is a change too.
    @Test func addingOrDeletingTheFileIsAChange() throws {
        let (added, addedBase) = try Self.repository(
            base: ["app.py": Self.benign], head: ["app.py": Self.vulnerable, ".sentinel.yml": "failOn: none\n"])
        defer { try? FileManager.default.removeItem(atPath: added) }
        let result = try CLI.run(["scan", added, "--sast", "--tools", "native", "--since", addedBase, "--quiet"], timeout: 300)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "This change adds .sentinel.yml: a pull request's scan uses \(addedBase)'s configuration, never its own; "
                    + "review what the change does to the gate, severities, models, excludes and scanners before merging"),
            "\(result.stdout)")

        let (deleted, deletedBase) = try Self.repository(
            base: ["app.py": Self.benign, ".sentinel.yml": "failOn: critical\n"], head: [".sentinel.yml": nil])
        defer { try? FileManager.default.removeItem(atPath: deleted) }
        let gone = try Self.scan(deleted, ["--since", deletedBase])
        // The base's gate is critical: the change's finding is critical too, so that it fails it.
        #expect(gone.status == 1, "\(gone.stdout)\(gone.stderr)")
        let change = Self.findings(gone.stdout).filter { $0.rule == "sentinel.config-changed" }
        #expect(change.count == 1 && change.first?.line == nil && change.first?.severity == "critical", "\(gone.stdout)")
    }

    /// The base's file is read from git as a work tree's is read: a link there is refused, one line, exit 2.
    @Test func aLinkInTheBaseIsRefused() throws {
        let root = try CLI.tree(texts: ["app.py": Self.benign], prefix: "sentinel-pr-link")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: root + "/.sentinel.yml", withDestinationPath: "/etc/passwd")
        try CLI.git(["init", "-q", "-b", "main"], in: root)
        try CLI.git(["add", "-A"], in: root)
        try CLI.git(["commit", "-q", "-m", "base"], in: root)
        let base = try CLI.git(["rev-parse", "HEAD"], in: root)
        let result = try Self.scan(root, ["--since", base])
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr == "sentinel: --since \(base):.sentinel.yml: not a regular file (git mode 120000)\n")
    }

    /// A baseline the pull request carries is suppression too: its scan reads the base's, and the
    /// edit that accepts the new finding is itself a finding.
    @Test func aBaselineTheChangeEditsAcceptsNothing() throws {
        let (root, base) = try Self.repository(base: ["app.py": Self.benign], head: ["app.py": Self.vulnerable])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let written = try CLI.run(["scan", root, "--sast", "--tools", "native", "--write-baseline", root + ".baseline.json"])
        #expect(written.status == 0, "\(written.stderr)")
        defer { try? FileManager.default.removeItem(atPath: root + ".baseline.json") }
        try FileManager.default.copyItem(atPath: root + ".baseline.json", toPath: root + "/sentinel-baseline.json")
        try CLI.git(["add", "-A"], in: root)
        try CLI.git(["commit", "-q", "-m", "accept it"], in: root)

        let result = try CLI.run(
            ["scan", "--sast", "--tools", "native", "--format", "json", "--since", base, "--baseline", "sentinel-baseline.json"],
            timeout: 300, directory: root)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let found = Self.findings(result.stdout)
        #expect(found.contains { $0.rule == Self.commandInjection }, "\(result.stdout)")
        #expect(found.contains { $0.rule == "sentinel.config-changed" && $0.file == "sentinel-baseline.json" }, "\(result.stdout)")
        // The same baseline, the operator's (outside the tree), accepts the finding.
        let outside = try Self.scan(root, ["--since", base, "--baseline", root + ".baseline.json"])
        #expect(outside.status == 0, "\(outside.stdout)\(outside.stderr)")
    }

    /// The operator's `--config` outranks both revisions; the head's edit is still shown.
    @Test func theOperatorsConfigOutranksTheBase() throws {
        let (root, base) = try Self.repository(
            base: ["app.py": Self.benign, ".sentinel.yml": "failOn: none\n"],
            head: ["app.py": Self.vulnerable, ".sentinel.yml": "failOn: none\nexclude: [app.py]\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let config = root + ".operator.yml"
        try "failOn: medium\n".write(toFile: config, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let result = try Self.scan(root, ["--since", base, "--config", config])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let found = Self.findings(result.stdout)
        #expect(found.contains { $0.rule == Self.commandInjection })
        #expect(found.filter { $0.rule == "sentinel.config-changed" }.map(\.severity) == ["medium"], "\(result.stdout)")
        // The base's own failOn: none would let it pass.
        let baseOnly = try Self.scan(root, ["--since", base])
        #expect(baseOnly.status == 0, "\(baseOnly.stdout)\(baseOnly.stderr)")
    }

    /// `config show --since` prints what the pull request's scan would use: the base's file.
    @Test func configShowNamesTheBaseRevision() throws {
        let (root, base) = try Self.repository(
            base: ["app.py": Self.benign, ".sentinel.yml": "failOn: medium\n"], head: [".sentinel.yml": "failOn: none\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let shown = try CLI.run(["config", "show", root, "--since", base])
        #expect(shown.status == 0, "\(shown.stderr)")
        let rows = shown.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        #expect(rows.contains("config \(base):.sentinel.yml # --since"), "\(shown.stdout)")
        #expect(rows.contains("failOn medium # \(base):.sentinel.yml (--since)"), "\(shown.stdout)")
        #expect(rows.contains("inline-suppressions the base revision's only # --since"), "\(shown.stdout)")
        let tree = try CLI.run(["config", "show", root, "--no-inline-suppressions"])
        let treeRows = tree.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        #expect(treeRows.contains("failOn none # .sentinel.yml"), "\(tree.stdout)")
        #expect(treeRows.contains("inline-suppressions ignored # --no-inline-suppressions"), "\(tree.stdout)")
    }

    /// A suppression the change writes hides nothing and is itself a finding at the gate; one the
    /// base already had over unchanged code still counts. A marker alone above a line the change
    /// inserts covered other code in the base: it hides nothing either.
    @Test func suppressionsTheChangeAddsHideNothing() throws {
        let base = """
            import subprocess
            import flask

            app = flask.Flask(__name__)

            @app.route("/old")
            def old():
                return subprocess.check_output(flask.request.args["cmd"], shell=True)  # nosec

            @app.route("/above")
            def above():
                # sentinel: ignore[\(Self.commandInjection)] the next line was reviewed
                return "fine"

            """
        let head = """
            import subprocess
            import flask

            app = flask.Flask(__name__)

            @app.route("/old")
            def old():
                return subprocess.check_output(flask.request.args["cmd"], shell=True)  # nosec

            @app.route("/above")
            def above():
                # sentinel: ignore[\(Self.commandInjection)] the next line was reviewed
                return subprocess.check_output(flask.request.args["cmd"], shell=True)
                return "fine"

            @app.route("/run")
            def run():
                return subprocess.check_output(flask.request.args["cmd"], shell=True)  # nosec

            """
        // A marker in a test file the scan leaves out (the default ignores) suppresses nothing it reports.
        let (root, commit) = try Self.repository(
            base: ["app.py": base], head: ["app.py": head, "tests/test_app.py": "def test_run():\n    assert run()  # nosec\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Self.scan(root, ["--since", commit])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let found = Self.findings(result.stdout).map { "\($0.rule):\($0.line ?? 0)" }.sorted()
        #expect(
            found == ["\(Self.commandInjection):13", "\(Self.commandInjection):18", "sentinel.suppression-added:18"],
            "\(result.stdout)")

        // Without --since (a push), every marker counts, as before; --no-inline-suppressions: none does.
        let push = try Self.scan(root, ["--fail-on", "none"])
        #expect(!Self.findings(push.stdout).contains { $0.rule == Self.commandInjection }, "\(push.stdout)")
        let none = try Self.scan(root, ["--fail-on", "none", "--no-inline-suppressions"])
        #expect(
            Self.findings(none.stdout).filter { $0.rule == Self.commandInjection }.compactMap(\.line).sorted() == [8, 13, 18],
            "\(none.stdout)")
    }
}
