import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `sentinel scan FILE...` as pre-commit hooks call it, results that do not depend on which
/// external tools are installed, one name per tool, and files the scan reports skipping.
@Suite(.serialized)
struct ScanTargetsCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
    var environment: [String: String] {
        CLI.environment(home: home)
    }

    static let banditInstalled = FileManager.default.isExecutableFile(atPath: "/opt/sentinel-tools/venv/bin/bandit")
    static let semgrepInstalled = FileManager.default.isExecutableFile(atPath: "/opt/sentinel-tools/venv/bin/semgrep")

    static let vulnerable = """
        import os
        from flask import request


        def run():
            os.system("ls " + request.args["q"])

        """

    /// Every way to suppress, each on its own line; only the last `eval` stays.
    static let suppressed = """
        import subprocess


        def run(cmd):
            subprocess.call(cmd, shell=True)  # nosec B602
            subprocess.call(cmd, shell=True)  # nosec: B602,B607
            eval(cmd)  # nosec
            eval(cmd)  # nosemgrep
            eval(cmd)  # nosemgrep: python.lang.security.audit.eval-detected.eval-detected
            eval(cmd)  # sentinel: ignore[python.eval-used] reviewed
            eval(cmd)

        """

    /// A fresh directory holding `files` (relative path → contents).
    static func project(_ files: [String: String]) throws -> String {
        let root = NSTemporaryDirectory() + "sentinel-targets-cli-\(UUID().uuidString)"
        for (path, text) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        return root
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func findings(_ object: [String: Any]) -> [[String: Any]] {
        object["findings"] as? [[String: Any]] ?? []
    }

    /// The text report without its last line (which holds the duration), and that last line.
    static func split(_ stdout: String) -> (body: String, summary: String) {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let summary = lines.popLast() ?? ""
        return (lines.joined(separator: "\n"), summary)
    }

    // MARK: - A file target

    @Test func aFileTargetIsScannedAndFailsTheGate() throws {
        let root = try Self.project(["vuln.py": Self.vulnerable, "other.py": "eval(input())\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (arguments, directory) in [(["vuln.py"], root), ([root + "/vuln.py"], "/")] {
            let result = try CLI.run(["scan"] + arguments, environment: environment, directory: directory)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "")
            let (body, summary) = Self.split(result.stdout)
            #expect(
                // The proven flow supersedes the audit findings on its line (os-system, partial path).
                body == """
                    vuln.py:6:5: critical: [python.taint-command-injection] user input reaches a shell command: an attacker can run arbitrary commands
                        vuln.py:6:23  source: request.args
                        vuln.py:6:5  sink: os.system

                    """)
            #expect(summary.hasPrefix("1 finding: 1 critical (1 file scanned in "), "\(summary)")
        }
    }

    @Test func aListOfFilesAndDirectoriesScansExactlyThose() throws {
        let root = try Self.project([
            "a.py": Self.vulnerable, "lib/b.py": "def f(x):\n    return eval(x)\n",
            "unlisted.py": "def g(x):\n    return eval(x)\n", "lib/keys.txt": "aws_secret_access_key = 'x'\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(
            ["scan", "a.py", "lib", "--format", "json", "--min-confidence", "low"], environment: environment, directory: root)
        #expect(result.status == 1, "\(result.stderr)")
        let object = try Self.json(result.stdout)
        let files = Set(Self.findings(object).compactMap { ($0["location"] as? [String: Any])?["file"] as? String })
        #expect(files == ["a.py", "lib/b.py"])
        #expect((object["summary"] as? [String: Any])?["filesScanned"] as? Int == 3)
    }

    @Test func aNamedLockfileIsCheckedAndOnlyWhenNamed() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let examples = CLI.packageRoot + "/examples"
        #expect(try CLI.run(["db", "import", examples + "/osv"], environment: environment).status == 0)
        let named = try CLI.run(
            ["scan", "requirements.txt", "app.py", "--format", "json"], environment: environment,
            directory: examples)
        let rules = Set(Self.findings(try Self.json(named.stdout)).compactMap { $0["ruleId"] as? String })
        #expect(rules.contains("PYSEC-2018-66"), "\(rules.sorted())")
        let unnamed = try CLI.run(["scan", "app.py", "--format", "json"], environment: environment, directory: examples)
        let tools = Self.findings(try Self.json(unnamed.stdout)).compactMap { $0["tool"] as? String }
        #expect(!tools.contains("osv"))
    }

    @Test(.enabled(if: TestHost.canSandbox && banditInstalled, "needs root, user namespaces and Bandit (/opt/sentinel-tools)"))
    func banditOnAFileScansItAndReportsTheSameFindings() throws {
        let root = try Self.project(["vuln.py": Self.vulnerable + "\n\ndef e(x):\n    return eval(x)\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        // eval-used is an audit (low confidence): shown on request, merged with Bandit's B307 all the same.
        let native = try CLI.run(
            ["scan", "vuln.py", "--format", "json", "--min-confidence", "low"], environment: environment, directory: root)
        let both = try CLI.run(
            ["scan", "vuln.py", "--tools", "native,bandit", "--format", "json", "--min-confidence", "low"],
            environment: environment, timeout: 300, directory: root)
        #expect(both.status == 1, "\(both.stderr)")
        #expect(both.stderr == "")
        let withBandit = Self.findings(try Self.json(both.stdout))
        func identity(_ findings: [[String: Any]]) -> [String] {
            findings.map { "\($0["ruleId"] ?? "") \($0["severity"] ?? "") \($0["fingerprint"] ?? "")" }
        }
        // Same ids, severities and fingerprints whether or not Bandit ran: the gate and baselines hold.
        #expect(identity(withBandit) == identity(Self.findings(try Self.json(native.stdout))))
        let eval = withBandit.first { $0["ruleId"] as? String == "python.eval-used" }
        let properties = eval?["properties"] as? [String: String] ?? [:]
        #expect(properties["alsoReportedBy"] == "bandit")
        #expect(properties["alsoReportedAs"] == "bandit.B307")
        #expect(!withBandit.contains { ($0["tool"] as? String) == "bandit" })
    }

    /// Bandit runs as an unprivileged user in the sandbox: a root-only project (0700 directory,
    /// 0600 file) must still be read, not reported clean with a warning.
    @Test(.enabled(if: TestHost.canSandbox && banditInstalled, "needs root, user namespaces and Bandit (/opt/sentinel-tools)"))
    func banditReadsARootOnlyProject() throws {
        let root = try Self.project(["vuln.py": "def e(x):\n    return eval(x)\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(chmod(root, 0o700) == 0 && chmod(root + "/vuln.py", 0o600) == 0)
        let result = try CLI.run(
            ["scan", ".", "--tools", "bandit", "--format", "json"],
            environment: environment, timeout: 300, directory: root)
        // B307 is medium: below the default gate.
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr == "")
        let findings = Self.findings(try Self.json(result.stdout))
        #expect(findings.compactMap { $0["ruleId"] as? String } == ["bandit.B307"])
    }

    @Test func aToolErrorIsPrintedOnce() throws {
        let root = try Self.project(["vuln.py": Self.vulnerable])
        defer { try? FileManager.default.removeItem(atPath: root) }
        var environment = self.environment
        environment["SENTINEL_TOOLS"] = "/nonexistent"
        let result = try CLI.run(["scan", "vuln.py", "--tools", "native,bandit"], environment: environment, directory: root)
        #expect(result.status == 3)
        #expect(result.stderr == "sentinel: bandit is not installed (/nonexistent/bin/bandit not found; run scripts/install-tools.sh)\n")
        #expect(!result.stdout.contains("bandit"), "\(result.stdout)")
        // Written to a file, the report still names the failure (stderr says it once too).
        let output = root + "/report.txt"
        let written = try CLI.run(
            ["scan", "vuln.py", "--tools", "native,bandit", "--output", output],
            environment: environment, directory: root)
        #expect(written.status == 3)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.components(separatedBy: "bandit is not installed").count == 2, "\(text)")
    }

    // MARK: - Suppressions whichever tool reported the issue

    /// Every suppression syntax hides its finding with LF, CRLF or lone-CR line endings (a CRLF
    /// file used to be one line to the suppression step, so none did); with the last `eval` gone
    /// the gate passes.
    @Test(arguments: ["\n", "\r\n", "\r"])
    func everySuppressionSyntaxWorksWithTheNativeEngine(newline: String) throws {
        let text = Self.suppressed.replacingOccurrences(of: "\n", with: newline)
        let passing = Self.suppressed.replacingOccurrences(of: "    eval(cmd)\n", with: "")
            .replacingOccurrences(of: "\n", with: newline)
        let root = try Self.project(["sup.py": text, "ok.py": passing])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(
            ["scan", "sup.py", "--fail-on", "none", "--min-confidence", "low"], environment: environment, directory: root)
        #expect(result.status == 0, "\(result.stderr)")
        let (body, summary) = Self.split(result.stdout)
        #expect(
            body == """
                sup.py:1:1: low: [python.import-subprocess] subprocess is imported; review how commands are built where it is used
                sup.py:11:5: medium: [python.eval-used] eval() of a value computed at run time; if it comes from outside, it is code injection (use ast.literal_eval for data)

                """)
        #expect(summary.hasPrefix("2 findings: 1 medium, 1 low (1 file scanned in "))
        #expect(summary.hasSuffix(" s); 6 suppressed"), "\(summary)")
        let gate = try CLI.run(["scan", "ok.py", "--fail-on", "high"], environment: environment, directory: root)
        #expect(gate.status == 0, "\(gate.stdout)")
    }

    @Test(.enabled(if: TestHost.canSandbox && banditInstalled, "needs root, user namespaces and Bandit (/opt/sentinel-tools)"))
    func everySuppressionSyntaxWorksWithBandit() throws {
        let root = try Self.project(["sup.py": Self.suppressed])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(
            ["scan", "sup.py", "--tools", "native,bandit", "--format", "json", "--fail-on", "none", "--min-confidence", "low"],
            environment: environment, timeout: 300, directory: root)
        #expect(result.status == 0, "\(result.stderr)")
        let findings = Self.findings(try Self.json(result.stdout))
        #expect(findings.compactMap { $0["ruleId"] as? String } == ["python.import-subprocess", "python.eval-used"])
        #expect(findings.compactMap { ($0["location"] as? [String: Any])?["startLine"] as? Int } == [1, 11])
    }

    /// `eval-used` and the taint rule both cover Bandit's B307, and Bandit's copy folds into the
    /// taint finding: an ignore of `eval-used` must leave the taint finding, with or without Bandit.
    @Test(.enabled(if: TestHost.canSandbox && banditInstalled, "needs root, user namespaces and Bandit (/opt/sentinel-tools)"))
    func anIgnoreHidesTheSameWhicheverToolsRan() throws {
        let root = try Self.project([
            "e.py": "from flask import request\nx = eval(request.args['x'])  # sentinel: ignore[python.eval-used] reviewed\n"
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        var kept: [[String]] = []
        for tools in ["native", "native,bandit"] {
            let result = try CLI.run(
                ["scan", "e.py", "--tools", tools, "--format", "json"], environment: environment, timeout: 300,
                directory: root)
            #expect(result.status == 1, "\(tools): \(result.stderr)")
            kept.append(Self.findings(try Self.json(result.stdout)).compactMap { $0["ruleId"] as? String })
        }
        #expect(kept[0] == ["python.taint-code-injection"])
        #expect(kept[1] == kept[0])
    }

    @Test(.enabled(if: TestHost.canSandbox && semgrepInstalled, "needs root, user namespaces and Semgrep (/opt/sentinel-tools)"))
    func semgrepFindingsMergeIntoNativeOnesAndNosemgrepHidesThem() throws {
        let rule = """
            rules:
              - id: my-eval
                pattern: eval(...)
                message: eval of dynamic code
                languages: [python]
                severity: WARNING
                metadata:
                  cwe: ["CWE-95: Improper Neutralization of Directives in Dynamically Evaluated Code"]

            """
        let root = try Self.project([
            "sup.py": Self.suppressed, "rules/eval.yaml": rule, ".sentinel.yml": "semgrep:\n  config: [rules/eval.yaml]\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(
            ["scan", "sup.py", "--tools", "native,semgrep", "--format", "json", "--fail-on", "none", "--min-confidence", "low"],
            environment: environment, timeout: 300, directory: root)
        #expect(result.status == 0, "\(result.stderr)")
        let findings = Self.findings(try Self.json(result.stdout))
        #expect(findings.compactMap { $0["ruleId"] as? String } == ["python.import-subprocess", "python.eval-used"])
        let properties = findings.last?["properties"] as? [String: String] ?? [:]
        #expect(properties["alsoReportedAs"] == "semgrep.my-eval")
    }

    // MARK: - One name per tool

    @Test func everyReportUsesOneNamePerTool() throws {
        let root = try Self.project(["vuln.py": Self.vulnerable, "keys.py": "password = 'k3Jx9#Lm2vQz8$Wp4rTy'\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let json = try Self.json(try CLI.run(["scan", ".", "--format", "json"], environment: environment, directory: root).stdout)
        let summary = try #require(json["summary"] as? [String: Any])
        let names = Set((summary["tools"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        #expect(names.isSubset(of: ["native", "secrets", "osv"]) && names.contains("native"), "\(names)")
        #expect(Set((summary["byTool"] as? [String: Int] ?? [:]).keys) == ["native", "secrets"])
        #expect(Set(Self.findings(json).compactMap { $0["tool"] as? String }).isSubset(of: names))

        let html = try CLI.run(["scan", ".", "--format", "html"], environment: environment, directory: root).stdout
        #expect(html.contains("<tr data-tool=\"native\">"))
        #expect(!html.contains("data-tool=\"sentinel\""))

        let sarif = try Self.json(try CLI.run(["scan", ".", "--format", "sarif"], environment: environment, directory: root).stdout)
        let drivers = SARIFEngines.names(sarif)
        #expect(Set(drivers) == names.union(["native", "secrets"]), "\(drivers)")

        let unknown = try CLI.run(["scan", ".", "--tools", "sentinel"], environment: environment, directory: root)
        #expect(unknown.status == 2)
        // A usage error from ArgumentParser; the whole text is in Golden/usage-bad-tools-entry.txt.
        #expect(
            unknown.stderr.hasPrefix(
                "Error: The value 'sentinel' is invalid for '--tools <tools>'. Please provide one of the following:\n  - native\n"
            ))

        // The same word in the config file is named by file and key.
        try "tools: [native, sentinel]\n".write(toFile: root + "/.sentinel.yml", atomically: true, encoding: .utf8)
        let configured = try CLI.run(["scan", "."], environment: environment, directory: root)
        #expect(configured.status == 2)
        #expect(
            configured.stderr
                == "sentinel: \(root)/.sentinel.yml:1: tools[1]: 'sentinel' is not one of native, secrets, osv, bandit, semgrep, dast, zap, wapiti\n"
        )
    }

    // MARK: - Skipped files are reported

    /// A data file over the limit is listed as skipped; code over it is a high finding, the
    /// default gate failing on it (issue 76, H3: a 5 MB comment made a critical finding "skipped").
    @Test func aFileOverTheSizeLimitIsListedAndScannedWhenTheLimitIsRaised() throws {
        let padding = String(repeating: "# padding line\n", count: 420_000)  // 6.0 MiB
        let root = try Self.project(["small.py": "x = 1\n", "big.py": Self.vulnerable + padding, "big.csv": padding])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let text = try CLI.run(["scan", "."], environment: environment, directory: root)
        #expect(text.status == 1, "\(text.stderr)")
        let (body, summary) = Self.split(text.stdout)
        #expect(
            body.split(separator: "\n").filter { !$0.isEmpty } == [
                "big.py: high: [sentinel.file-not-analysed] not analysed: larger than --max-file-size (6.0M > 5.0M); raise --max-file-size, or exclude the file if it is generated",
                "big.csv: note: skipped: larger than --max-file-size (6.0M > 5.0M)",
            ], "\(body)")
        #expect(summary.hasPrefix("1 finding: 1 high (1 file scanned in "))
        #expect(summary.hasSuffix(" s); 1 file skipped"), "\(summary)")

        let json = try Self.json(try CLI.run(["scan", ".", "--format", "json"], environment: environment, directory: root).stdout)
        let skipped = (json["summary"] as? [String: Any])?["skippedFiles"] as? [[String: String]]
        #expect(skipped == [["file": "big.csv", "reason": "larger than --max-file-size (6.0M > 5.0M)"]])

        let sarif = try Self.json(try CLI.run(["scan", ".", "--format", "sarif"], environment: environment, directory: root).stdout)
        let notifications = (sarif["runs"] as? [[String: Any]] ?? []).flatMap { run in
            (run["invocations"] as? [[String: Any]] ?? []).flatMap { $0["toolExecutionNotifications"] as? [[String: Any]] ?? [] }
        }
        let texts = notifications.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
        #expect(texts == ["skipped: larger than --max-file-size (6.0M > 5.0M)"])

        let raised = try CLI.run(
            ["scan", ".", "--max-file-size", "8M", "--format", "json"], environment: environment,
            timeout: 300, directory: root)
        #expect(raised.status == 1, "\(raised.stderr)")
        let found = Self.findings(try Self.json(raised.stdout))
        #expect(found.contains { $0["ruleId"] as? String == "python.taint-command-injection" })
        #expect(!found.contains { $0["ruleId"] as? String == "sentinel.file-not-analysed" })
        #expect(((try Self.json(raised.stdout))["summary"] as? [String: Any])?["skippedFiles"] as? [Any] != nil)
        #expect((((try Self.json(raised.stdout))["summary"] as? [String: Any])?["skippedFiles"] as? [Any])?.isEmpty == true)

        let lowered = try CLI.run(["scan", "small.py", "--max-file-size", "3"], environment: environment, directory: root)
        #expect(lowered.stdout.contains("small.py: high: [sentinel.file-not-analysed] not analysed: larger than --max-file-size (6B > 3B)"))
    }

    @Test func aBadSizeIsAUsageError() throws {
        let result = try CLI.run(
            ["scan", ".", "--max-file-size", "5X"], environment: environment, directory: CLI.packageRoot + "/examples")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: The value '5X' is invalid for '--max-file-size <max-file-size>'\n"))
    }

    @Test func aMissingTargetIsAUsageError() throws {
        let result = try CLI.run(["scan", "app.py", "nope.py"], environment: environment, directory: CLI.packageRoot + "/examples")
        #expect(result.status == 2)
        #expect(result.stderr == "sentinel: nope.py: no such file or directory\n")
    }

    @Test(
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root to run the scan as nobody (root reads every file)"))
    func unreadableFilesAndDirectoriesAreListed() throws {
        let root = try Self.project(["app.py": Self.vulnerable, "secret.py": Self.vulnerable, "locked/inner.py": Self.vulnerable])
        defer {
            chmod(root + "/locked", 0o755)
            try? FileManager.default.removeItem(atPath: root)
        }
        chmod(root, 0o755)
        chmod(root + "/app.py", 0o644)
        chmod(root + "/secret.py", 0o000)
        chmod(root + "/locked", 0o000)
        let state = NSTemporaryDirectory() + "sentinel-nobody-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        chmod(state, 0o777)
        defer { try? FileManager.default.removeItem(atPath: state) }
        var environment = self.environment
        environment["SENTINEL_HOME"] = state
        environment["SENTINEL_RULES"] = CLI.packageRoot + "/rules"
        // The binary runs as nobody, who cannot read the 000 file or list the 000 directory.
        // Every finding, so that the summary ends with the skipped files (no low-confidence notice).
        let result = try CLI.runAs(nobody: ["scan", root, "--fail-on", "none", "--min-confidence", "low"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("locked/: note: skipped: cannot list directory: Permission denied"), "\(result.stdout)")
        #expect(lines.contains("secret.py: note: skipped: cannot read: Permission denied"))
        #expect(lines.last?.hasSuffix("; 2 files skipped") == true)
        #expect(lines.contains { $0.hasPrefix("app.py:6:5: critical: [python.taint-command-injection]") })
    }
}

extension CLI {
    /// Runs `sentinel ARGS` as uid/gid 65534 through setpriv.
    static func runAs(nobody arguments: [String], environment: [String: String]) throws -> Result {
        try runProgram(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments,
            environment: environment, timeout: 600)
    }
}
