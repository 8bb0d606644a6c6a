#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// Issue 8, what a new user hits first: noise controls, SARIF locations, bad input that used to
/// pass, the HTML report in a browser. The native tools only, so no sandbox is needed.
@Suite(.serialized) struct ScanNoiseCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_HOME"] = home
        for name in ["GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA", "CI_PROJECT_URL", "SENTINEL_SOURCE_URL"] {
            environment[name] = nil
        }
        return environment
    }

    /// A fresh directory holding `files` (path → contents).
    static func tree(_ files: [String: String]) throws -> String { try CLI.tree(texts: files, prefix: "sentinel-noise") }

    static let project: [String: String] = [
        "app.py": "import os\n\ndef run(cmd):\n    assert cmd\n    os.system(cmd)\n",
        "tests/test_app.py": "def test_run():\n    assert eval(input()) == 1\n",
        "conftest.py": "assert True\n",
        ".venv/lib/site.py": "eval(input())\n",
    ]

    /// What the summary says of the project's test and environment files.
    static let excludedSummary =
        "3 files left out of code analysis by the default ignores: 2 test code (tests/, conftest.py), "
        + "1 dependencies (.venv/); secrets are still searched in them (--no-default-excludes analyses them)"

    /// The summary line without its varying time.
    static func summary(_ text: String) -> String? {
        text.split(separator: "\n").last.map {
            String($0).replacingOccurrences(
                of: #"in \d+\.\d\d s\)"#, with: "in T s)", options: .regularExpression)
        }
    }

    // MARK: - Noise

    @Test func defaultIgnoresAreReportedAndCanBeTurnedOff() throws {
        let root = try Self.tree(Self.project)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The project's findings are audits (low confidence): every one is asked for.
        let scan = try CLI.run(
            ["scan", root, "--tools", "native", "--fail-on", "none", "--min-confidence", "low"], environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.contains("app.py:5:5: medium: [python.os-system]") || scan.stdout.contains("app.py:5:"), "\(scan.stdout)")
        #expect(!scan.stdout.contains("tests/test_app.py") && !scan.stdout.contains(".venv/lib"))
        #expect(scan.stdout.contains("app.py:4:5: low: [python.assert-used]"), "asserts outside tests are kept")
        #expect(
            Self.summary(scan.stdout)?.hasSuffix(
                "(1 file scanned in T s); \(Self.excludedSummary)") == true,
            "\(scan.stdout)")

        let all = try CLI.run(
            ["scan", root, "--tools", "native", "--fail-on", "none", "--no-default-excludes", "--min-confidence", "low"],
            environment: environment)
        #expect(all.stdout.contains("tests/test_app.py:2:12: medium: [python.eval-used]"), "\(all.stdout)")
        #expect(all.stdout.contains(".venv/lib/site.py:1:1: medium: [python.eval-used]"))
        #expect(!all.stdout.contains("tests/test_app.py:2:5: low: [python.assert-used]"), "asserts in tests never")
        #expect(!all.stdout.contains("conftest.py:1:1: low"))
        #expect(Self.summary(all.stdout)?.contains("(4 files scanned in T s)") == true)

        try "default-excludes: false\nexclude: [.venv/]\n".write(toFile: root + "/.sentinel.yml", atomically: true, encoding: .utf8)
        let configured = try CLI.run(
            ["scan", root, "--tools", "native", "--fail-on", "none", "--min-confidence", "low"], environment: environment)
        #expect(configured.stdout.contains("tests/test_app.py:2:12: medium: [python.eval-used]"))
        #expect(!configured.stdout.contains(".venv"))
    }

    @Test func excludeIncludeSeverityAndQuiet() throws {
        let util = "import pickle\nimport requests\npickle.loads(b'')\nrequests.get(URL, verify=False, timeout=5)\n"
        let root = try Self.tree(Self.project.merging(["lib/util.py": util]) { a, _ in a })
        defer { try? FileManager.default.removeItem(atPath: root) }
        let excluded = try CLI.run(
            ["scan", root, "--tools", "native", "--fail-on", "none", "--exclude", "lib/"],
            environment: environment)
        #expect(!excluded.stdout.contains("lib/util.py"), "\(excluded.stdout)")
        let included = try CLI.run(
            [
                "scan", root, "--tools", "native", "--fail-on", "none", "--include", "lib/**",
                "--include", "tests/**", "--min-confidence", "low",
            ], environment: environment)
        #expect(included.stdout.contains("lib/util.py:"), "\(included.stdout)")
        #expect(included.stdout.contains("tests/test_app.py:2:12: medium: [python.eval-used]"), "an include re-admits tests")
        #expect(!included.stdout.contains("app.py:4:"), "\(included.stdout)")

        let high = try CLI.run(
            ["scan", root, "--tools", "native", "--severity", "high", "--min-confidence", "low"], environment: environment)
        #expect(high.status == 1)
        #expect(!high.stdout.contains(": low: ") && !high.stdout.contains(": medium: "), "\(high.stdout)")
        #expect(high.stdout.contains(" below --severity; "), "\(high.stdout)")

        let quiet = try CLI.run(
            ["scan", root, "--tools", "native", "--fail-on", "none", "--quiet", "--min-confidence", "low"], environment: environment)
        #expect(!quiet.stdout.contains("files scanned") && quiet.stdout.contains("app.py:4:5: low: [python.assert-used]"))
        #expect(quiet.stderr == "")

        let bad = try CLI.run(["scan", root, "--severity", "urgent"], environment: environment)
        #expect(bad.status == 2)
        // A usage error from ArgumentParser; the whole text is in Golden/usage-bad-severity.txt.
        #expect(
            bad.stderr.hasPrefix(
                "Error: The value 'urgent' is invalid for '--severity <level>'. Please provide one of 'info', 'low', 'medium', 'high' or 'critical'.\n"
            ))
        let both = try CLI.run(["scan", root, "--quiet", "--verbose"], environment: environment)
        #expect(both.status == 2)
        #expect(both.stderr == "sentinel: --quiet and --verbose cannot be used together\n")
    }

    // MARK: - --output

    @Test func outputIntoAMissingDirectoryIsAUsageError() throws {
        let root = try Self.tree(Self.project)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let target = root + "/missing/report.json"
        let result = try CLI.run(["scan", root, "--tools", "native", "--output", target], environment: environment)
        #expect(result.status == 2)
        #expect(result.stderr == "sentinel: --output \(target): directory \(root)/missing does not exist\n")
        #expect(result.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: root + "/missing"))
    }

    @Test func withOutputTheSummaryStillReachesTheTerminal() throws {
        let root = try Self.tree(Self.project)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Beside the tree, as a report should be (one inside it adds a warning).
        defer { unlink(root + ".r.sarif") }
        let result = try CLI.run(
            [
                "scan", root, "--tools", "native", "--format", "sarif", "--output", root + ".r.sarif", "--min-confidence", "low",
                "--fail-on", "medium",
            ],
            environment: environment)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            Self.summary(result.stderr) == "2 findings: 1 medium, 1 low (1 file scanned in T s); "
                + Self.excludedSummary, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// Issue 26: an AWS key in `conftest.py` or `build/` is reported (the default ignores quiet
    /// code analysis, not the secrets scan), and JSON says which kinds of files were left out.
    @Test func secretsInTestAndBuildFilesAreReported() throws {
        let key = "aws_access_key_id = \"AKIA" + "Q3EGZT7RKMXJ4HVN\"\n"
        let root = try Self.tree(["app.py": "x = 1\n", "conftest.py": key, "build/lib/settings.py": key])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(["scan", root, "--tools", "secrets", "--format", "json"], environment: environment)
        #expect(result.status == 1, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let files = (document?["findings"] as? [[String: Any]] ?? []).compactMap { ($0["location"] as? [String: Any])?["file"] as? String }
        #expect(Set(files) == ["conftest.py", "build/lib/settings.py"], "\(result.stdout)")
        let summary = document?["summary"] as? [String: Any]
        let kinds = (summary?["defaultExclusions"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(kinds == ["tests", "build"], "\(result.stdout)")
    }

    // MARK: - Bad input

    static let corrupt: [(file: String, text: String)] = [
        ("package-lock.json", "{\n  \"name\": \"x\",\n  \"lockfileVersion\": 3,\n  \"packages\": {\n"),
        ("poetry.lock", "[[package]]\nname = \"requests\"\nversion = \n"),
        ("Cargo.lock", "[[package]]\nname = \"serde\nversion = \"1.0.0\"\n"),
        ("Pipfile.lock", "{\"default\": {\"requests\": {\"version\": \"==2.19.0\"}\n"),
        ("go.mod", "module example.com/x\n\nrequire (\n\tgithub.com/pkg/errors v0.9.1\n"),
        ("yarn.lock", "# yarn lockfile v1\n\nleft-pad@^1.0.0\n  version 1.3.0\n"),
    ]

    @Test(arguments: corrupt.map(\.file))
    func aCorruptLockfileIsReportedOnceTheScanFinishesAndExitsTwo(file: String) throws {
        let text = try #require(Self.corrupt.first { $0.file == file }?.text)
        let root = try Self.tree(["app.py": "eval(input())\n", "requirements.txt": "flask==0.12.2\n", file: text])
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        let imported = try CLI.run(["db", "import", CLI.packageRoot + "/examples/osv"], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")

        let result = try CLI.run(
            ["scan", root, "--tools", "native,osv", "--min-confidence", "low", "--allow-stale-db"], environment: environment)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let problems = result.stdout.split(separator: "\n").filter { $0.hasPrefix("error: \(file):") }
        #expect(problems.count == 1, "\(result.stdout)")
        #expect(problems.first.map { $0.range(of: #"^error: [^:]+:\d+: \S"#, options: .regularExpression) != nil } == true)
        #expect(!result.stderr.contains(file), "the text report already says it: \(result.stderr)")
        // The scan finished: the other files' findings are there.
        #expect(result.stdout.contains("app.py:1:1: medium: [python.eval-used]"))
        #expect(result.stdout.contains("requirements.txt:1: "), "\(result.stdout)")

        let json = try CLI.run(
            ["scan", root, "--tools", "native,osv", "--format", "json", "--output", root + ".r.json", "--allow-stale-db"],
            environment: environment)
        unlink(root + ".r.json")
        #expect(json.status == 2)
        // The example advisories are old: accepted above, with a warning line apart.
        let lines = json.stderr.split(separator: "\n").filter { !$0.hasPrefix("sentinel: warning: the PyPI advisories are ") }
        #expect(lines.count == 2, "\(json.stderr)")
        #expect(lines.first.map { $0.range(of: "^sentinel: osv: \(file):\\d+: \\S", options: .regularExpression) != nil } == true)
    }

    // MARK: - SARIF locations

    @Test func sarifURIsAreRelativeToTheRepositoryRoot() throws {
        let root = try Self.tree(["services/api/app.py": "eval(input())\n", "README.md": "x\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["-C", root, "init", "-q"]
        try git.run()
        git.waitUntilExit()
        let canonical = URL(fileURLWithPath: root).resolvingSymlinksInPath().path

        let result = try CLI.run(
            ["scan", root + "/services/api", "--tools", "native", "--format", "sarif", "--fail-on", "none", "--min-confidence", "low"],
            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first { !(($0["results"] as? [Any]) ?? []).isEmpty })
        let bases = run["originalUriBaseIds"] as? [String: [String: String]]
        #expect(bases?["%SRCROOT%"]?["uri"] == "file://\(canonical)/")
        let location = ((run["results"] as? [[String: Any]])?.first?["locations"] as? [[String: Any]])?.first
        let artifact = (location?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: String]
        #expect(artifact == ["uri": "services/api/app.py", "uriBaseId": "%SRCROOT%"])

        let explicit = try CLI.run(
            [
                "scan", root + "/services/api", "--tools", "native", "--format", "sarif",
                "--sarif-root", root + "/services", "--min-confidence", "low",
            ], environment: environment)
        #expect(explicit.stdout.contains("\"uri\": \"api/app.py\""), "\(explicit.stdout.prefix(300))")

        let outside = try CLI.run(
            ["scan", root + "/services/api", "--format", "sarif", "--sarif-root", "/usr"],
            environment: environment)
        #expect(outside.status == 2)
        #expect(outside.stderr == "sentinel: --sarif-root /usr: does not contain the scanned directory \(root)/services/api\n")
    }

    // MARK: - HTML in a browser

    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let corpus = CLI.packageRoot + "/../shared/corpora/bandit/examples"

    @Test(
        .enabled(
            if: chromium != nil, "needs chromium (make deps)"), .needsCorpus("bandit/examples"))
    func htmlReportOfARealProjectFitsA1400PixelWindowAndLinks() throws {
        let directory = try Self.tree([:])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var environment = environment
        environment["SENTINEL_SOURCE_URL"] = "https://github.com/PyCQA/bandit/blob/main/examples/"
        let report = directory + "/report.html"
        let scan = try CLI.run(
            [
                "scan", Self.corpus, "--tools", "native", "--format", "html", "--output", report,
                "--fail-on", "none",
            ], environment: environment, timeout: 300)
        #expect(scan.status == 0, "\(scan.stderr)")
        var html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.components(separatedBy: "<tr class=\"finding\"").count > 100, "a real report, not a toy")

        // Measure the laid-out page: the copy drops the report's CSP so a probe script may run.
        html = html.replacingOccurrences(
            of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, with: "",
            options: .regularExpression)
        html = html.replacingOccurrences(
            of: "</body>",
            with: """
                <script>document.body.setAttribute("data-width", String(document.documentElement.scrollWidth));
                var a = document.querySelectorAll("#findings a[href]");
                document.body.setAttribute("data-links", String(a.length));
                document.body.setAttribute("data-loc-links", String(document.querySelectorAll("td.loc a[href^='https://']").length));
                </script></body>
                """)
        let probe = directory + "/probe.html"
        try html.write(toFile: probe, atomically: true, encoding: .utf8)
        let chromium = try #require(Self.chromium)
        let flags = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
            "--user-data-dir=\(directory)/profile", "--window-size=1400,900",
        ]
        let dom = try CLI.runProgram("/usr/bin/timeout", ["120", chromium] + flags + ["--dump-dom", "file://" + probe], timeout: 600)
        #expect(dom.status == 0, "\(dom.stderr.suffix(400))")
        func attribute(_ name: String) -> Int? {
            guard let range = dom.stdout.range(of: name + #"="\d+""#, options: .regularExpression) else { return nil }
            return Int(dom.stdout[range].dropFirst(name.count + 2).dropLast())
        }
        let width = try #require(attribute("data-width"), "\(dom.stdout.prefix(300))")
        #expect(width <= 1400, "page is \(width) px wide")
        #expect((attribute("data-links") ?? 0) > 100, "rule help, references and locations are anchors")
        #expect((attribute("data-loc-links") ?? 0) > 100, "file locations link to the source URL")

        // The screenshot a reviewer looks at.
        let shot = try CLI.runProgram(
            "/usr/bin/timeout",
            ["120", chromium] + flags
                + ["--screenshot=\(directory)/report.png", "file://" + report], timeout: 600)
        #expect(shot.status == 0, "\(shot.stderr.suffix(400))")
        let png = try #require(FileManager.default.contents(atPath: directory + "/report.png"))
        #expect(png.count > 24 && png[16..<20].reduce(0) { $0 << 8 | Int($1) } == 1400, "a 1400-px-wide screenshot")
    }
}
