import Foundation
import CLICore
import SentinelCLI
import TestSupport
import Testing

/// Issue 27, "Polish": what a team wiring Sentinel into CI noticed first, each on the real binary.
@Suite(.serialized) struct PolishCLITests {
    let home = NSTemporaryDirectory() + "sentinel-polish-home-\(UUID().uuidString)"
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_HOME"] = home
        environment["SENTINEL_PROGRESS_INTERVAL"] = nil
        return environment
    }

    static let vulnerable = "import os\n\ndef run(cmd):\n    os.system(cmd)\n"

    @Test("scan --write-baseline exits 0 when it wrote the baseline, and says so on stderr")
    func writeBaselineExitsZero() throws {
        let tree = try ScanNoiseCLITests.tree(["app.py": Self.vulnerable])
        let baseline = home + "/baseline.json"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: tree)
            try? FileManager.default.removeItem(atPath: home)
        }
        let gate = ["--sast", "--fail-on", "low", "--min-confidence", "low"]
        let plain = try CLI.run(["scan", tree] + gate, environment: environment)
        #expect(plain.status == 1, "\(plain.stdout)\(plain.stderr)")
        let written = try CLI.run(["scan", tree, "--write-baseline", baseline] + gate, environment: environment)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stderr.contains("sentinel: wrote "), "\(written.stderr)")
        #expect(written.stderr.contains(" to the baseline \(baseline)"), "\(written.stderr)")
        #expect(FileManager.default.fileExists(atPath: baseline))
        let after = try CLI.run(["scan", tree, "--baseline", baseline] + gate, environment: environment)
        #expect(after.status == 0, "\(after.stdout)")
    }

    @Test("scan --since outside git, or with an unknown revision: one line in Sentinel's words, exit 2")
    func sinceOutsideGit() throws {
        let tree = try ScanNoiseCLITests.tree(["app.py": Self.vulnerable])
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let outside = try CLI.run(["scan", tree, "--since", "HEAD~1"], environment: environment)
        #expect(outside.status == 2, "\(outside.stderr)")
        #expect(outside.stderr.contains("--since HEAD~1: \(tree) is not in a git work tree"), "\(outside.stderr)")
        #expect(!outside.stderr.lowercased().contains("fatal"), "\(outside.stderr)")
        #expect(outside.stderr.split(separator: "\n").count == 1, "\(outside.stderr)")

        for arguments in [["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"]] {
            let git = try CLI.runProgram("/usr/bin/git", arguments, directory: tree)
            #expect(git.status == 0, "\(git.stderr)")
        }
        let unknown = try CLI.run(["scan", tree, "--since", "no-such-branch"], environment: environment)
        #expect(unknown.status == 2, "\(unknown.stderr)")
        #expect(
            unknown.stderr.contains("--since no-such-branch: no such commit in the git repository at \(tree)"),
            "\(unknown.stderr)")
        #expect(!unknown.stderr.lowercased().contains("fatal"), "\(unknown.stderr)")
        #expect(unknown.stderr.split(separator: "\n").count == 1, "\(unknown.stderr)")
    }

    @Test("SARIF: the driver is Sentinel, each engine an extension its results point at")
    func sarifDriverIsSentinelWithEnginesAsExtensions() throws {
        let key = "AKIA" + "Z7QX3MBN5KLP2WHT"  // split so this file is not itself a finding
        let tree = try ScanNoiseCLITests.tree(["app.py": Self.vulnerable, "settings.py": "AWS_KEY = \"\(key)\"\n"])
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let result = try CLI.run(
            ["scan", tree, "--sast", "--secrets", "--format", "sarif", "--fail-on", "none", "--min-confidence", "low"],
            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let tool = try #require(runs.first?["tool"] as? [String: Any])
        let driver = try #require(tool["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "Sentinel")
        #expect(driver["version"] as? String == SentinelVersion.current)
        #expect(SARIFEngines.names(log) == ["native", "secrets"])
        let extensions = try #require(tool["extensions"] as? [[String: Any]])
        let results = try #require(runs.first?["results"] as? [[String: Any]])
        var engines: Set<String> = []
        for result in results {
            let rule = try #require(result["rule"] as? [String: Any])
            let component = try #require((rule["toolComponent"] as? [String: Any])?["index"] as? Int)
            let rules = try #require(extensions[component]["rules"] as? [[String: Any]])
            let index = try #require(rule["index"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
            engines.insert(extensions[component]["name"] as? String ?? "")
        }
        #expect(engines == ["native", "secrets"], "\(results)")
    }

    @Test("HTML: severity badges never wrap, headers break only between words, every engine shows a version")
    func htmlBadgesAndVersions() throws {
        let tree = try ScanNoiseCLITests.tree(["app.py": Self.vulnerable])
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let result = try CLI.run(
            ["scan", tree, "--sast", "--secrets", "--format", "html", "--fail-on", "none", "--min-confidence", "low"],
            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let html = result.stdout
        // At 1400 px Chromium drew "mediu|m" in two lines and "Confiden|ce" in the header.
        #expect(html.contains(".badge{padding:.1em .5em;border-radius:4px;color:#fff;font-weight:600;white-space:nowrap"))
        #expect(html.contains("th{white-space:nowrap;overflow-wrap:normal;word-break:normal}"))
        for engine in ["native", "secrets"] {
            #expect(
                html.contains("<tr data-tool=\"\(engine)\"><td>\(engine)</td><td>Sentinel \(SentinelVersion.current)</td>"),
                "\(engine): the version cell was empty")
        }
    }

    @Test("Progress reaches a CI log: plain lines, no escape codes, when stderr is a pipe")
    func progressWhenStderrIsNotATerminal() throws {
        var files: [String: String] = [:]
        for index in 0..<160 { files["pkg/module\(index).py"] = "def f\(index)(x):\n    return x + \(index)\n" }
        let tree = try ScanNoiseCLITests.tree(files)
        defer { try? FileManager.default.removeItem(atPath: tree) }
        var environment = self.environment
        environment["SENTINEL_PROGRESS_INTERVAL"] = "0"  // every update, so the test never waits on a clock
        let result = try CLI.run(["scan", tree, "--sast"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("sentinel: scanning ") }
        #expect(lines.contains("sentinel: scanning 50/160 files (native)"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"), "\(result.stderr.debugDescription)")
        #expect(!result.stdout.contains("sentinel: scanning"))

        let quiet = try CLI.run(["scan", tree, "--sast", "--quiet"], environment: environment)
        #expect(!quiet.stderr.contains("sentinel: scanning"), "\(quiet.stderr)")
    }

    @Test("The vulnerable app's shell runs in its own directory: an injected >NAME lands nowhere in the checkout")
    func injectedRedirectStaysInTheAppsDirectory() throws {
        let app = try VulnerableApp()
        defer { app.stop() }
        let name = "sentinel-injected-\(UUID().uuidString)"
        let here = FileManager.default.currentDirectoryPath
        defer {
            try? FileManager.default.removeItem(atPath: here + "/" + name)
            try? FileManager.default.removeItem(atPath: CLI.packageRoot + "/" + name)
        }
        let curl = try CLI.runProgram(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", app.url + "tools/ping?host=x%3E" + name])
        #expect(curl.stdout == "200", "\(curl.stdout) \(curl.stderr)")
        #expect(!FileManager.default.fileExists(atPath: here + "/" + name))
        #expect(!FileManager.default.fileExists(atPath: CLI.packageRoot + "/" + name))
        let tracked = try CLI.runProgram("/usr/bin/git", ["ls-files", "XSS"], directory: CLI.packageRoot)
        #expect(tracked.stdout.isEmpty, "a stray file from an injected redirect is tracked: \(tracked.stdout)")
    }

    @Test(
        "Semgrep without rules says where rules go, and the scan fails (exit 3)",
        .enabled(
            if: FileManager.default.isExecutableFile(
                atPath: (ProcessInfo.processInfo.environment["SENTINEL_TOOLS"] ?? "/opt/sentinel-tools/venv") + "/bin/semgrep"),
            "needs Semgrep installed by scripts/install-tools.sh"))
    func semgrepSaysHowToGiveItRules() throws {
        let tree = try ScanNoiseCLITests.tree(["app.py": Self.vulnerable])
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let result = try CLI.run(["scan", tree, "--tools", "semgrep"], environment: environment)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr
                == "sentinel: semgrep needs rules: list rule files or directories under `semgrep: {config: [PATH, ...]}` in the "
                + "scanned tree's .sentinel.yml or in your --config file (e.g. a checkout of semgrep-rules); the Semgrep "
                + "registry is not reachable from the sandbox\n")
    }
}
