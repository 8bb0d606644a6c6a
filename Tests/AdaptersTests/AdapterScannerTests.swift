import Findings
import Foundation
import Sandbox
import ScanCore
import Support
import Testing

@testable import Adapters

/// The adapters' run logic against scripted sandbox results: every failure mode, without tools.
@Suite struct AdapterScannerTests {
    let target = ScanTarget(root: AdapterFixtures.tree, files: ["app/views.py", "app/broken.py", "notes.txt"])

    func context() throws -> (ScanContext, String) {
        let tools = try AdapterFixtures.fakeToolsDirectory()
        return (ScanContext(toolsDirectory: tools), tools)
    }

    /// Runs `scanner` and returns the `.toolFailed` message it throws.
    func failure(_ scanner: some ScanCore.Scanner) throws -> String? {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        do {
            _ = try scanner.scan(target, context: context)
            return nil
        } catch let error as SentinelError {
            #expect(error.code == .toolFailed)
            #expect(!error.message.contains("\n"))
            return error.message
        }
    }

    @Test func banditRunsInItsProfileOverTheSelectedPythonFiles() throws {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let executor = ScriptedExecutor(exitCode: 1, stdout: try AdapterFixtures.data("bandit/report.json"))
        let output = try BanditScanner(executor: executor, timeout: 30).scan(target, context: context)
        #expect(output.findings.count == 5)
        #expect(output.tool.durationSeconds == 1.5)
        let invocation = try #require(executor.invocations.first)
        #expect(executor.invocations.count == 1)
        #expect(invocation.profile == "scan-bandit")
        #expect(invocation.command == [tools + "/bin/bandit", "-r", "-f", "json", "-q", "--", "app/views.py", "app/broken.py"])
        #expect(invocation.workspace == AdapterFixtures.tree)
        #expect(invocation.timeout == 30)
        // A venv outside /opt/sentinel-tools is bound read-only.
        #expect(invocation.extraReadOnly.contains((tools as NSString).standardizingPath))
    }

    /// Issue 76, H4: where only the findings pipeline may decide which comments count (a pull
    /// request's scan, `--no-inline-suppressions`), the tools report what their own markers hide.
    @Test func theToolsIgnoreTheirMarkersWhenSentinelDecides() throws {
        var (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        context.toolsApplySuppressions = false
        let bandit = BanditScanner().invocation(for: target, context: context).0
        #expect(
            bandit.command == [
                tools + "/bin/bandit", "-r", "-f", "json", "-q", "--ignore-nosec", "--ini", "/dev/null", "--", "app/views.py",
                "app/broken.py",
            ])
        let rules = AdapterFixtures.semgrepRules
        let semgrep = SemgrepScanner(configPaths: [rules]).invocation(for: target, context: context).0
        #expect(Array(semgrep.command.suffix(5)) == [rules, "--disable-nosem", "--", "app/views.py", "app/broken.py"])
    }

    @Test func banditSkipsTargetsWithoutPython() throws {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let scanner = BanditScanner(executor: ScriptedExecutor(exitCode: 2))
        let text = ScanTarget(root: AdapterFixtures.tree, files: ["notes.txt", "README"])
        #expect(!scanner.applies(to: text))
        #expect(scanner.applies(to: target))
        #expect(try scanner.scan(text, context: context).findings.isEmpty)
    }

    @Test func findingsOutsideTheSelectionAreDroppedWhenTheWholeTreeIsScanned() throws {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let many = ScanTarget(
            root: AdapterFixtures.tree,
            files: ["app/broken.py"] + (0..<3000).map { "generated/module_number_\($0)_with_a_long_name.py" })
        let executor = ScriptedExecutor(exitCode: 1, stdout: try AdapterFixtures.data("bandit/report.json"))
        let output = try BanditScanner(executor: executor).scan(many, context: context)
        #expect(executor.invocations.first?.command.last == ".")
        // app/views.py was not selected: its findings and their rules are gone; notices stay.
        #expect(output.findings.isEmpty)
        #expect(output.rules.isEmpty)
        #expect(output.notices.count == 2)
    }

    @Test func missingBanditIsUnavailableAndScanRefuses() throws {
        let tools = try AdapterFixtures.fakeToolsDirectory(["semgrep"])
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let context = ScanContext(toolsDirectory: tools)
        let executor = ScriptedExecutor(exitCode: 0)
        let scanner = BanditScanner(executor: executor)
        #expect(scanner.unavailableReason(context: context)?.hasPrefix("bandit is not installed") == true)
        #expect(throws: SentinelError.self) { try scanner.scan(target, context: context) }
        #expect(executor.invocations.isEmpty)
        // Opt-in: the native engine covers Bandit's checks, so the default results never depend on it.
        #expect(!scanner.isDefault)
        #expect(scanner.name == "bandit")
        #expect(scanner.kind == .sast)
    }

    @Test func exitOneWithAReportIsSuccess() throws {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let executor = ScriptedExecutor(
            exitCode: 1, stdout: try AdapterFixtures.data("bandit/report.json"),
            stderr: "[tester]\tWARNING nosec encountered (B602)\n")
        #expect(try BanditScanner(executor: executor).scan(target, context: context).findings.count == 5)
    }

    @Test func failingExitWithoutJSONNamesTheFirstStderrLine() throws {
        let executor = ScriptedExecutor(
            exitCode: 2, stderr: "\nusage: bandit [-h] [-r]\nbandit: error: unrecognized arguments: --bogus\n")
        #expect(try failure(BanditScanner(executor: executor)) == "bandit failed: usage: bandit [-h] [-r]")
    }

    @Test func truncatedJSONAfterExitOneNamesStderr() throws {
        let executor = ScriptedExecutor(
            exitCode: 1, stdout: try AdapterFixtures.data("bandit/truncated.json"),
            stderr: "Traceback (most recent call last):\n  File x\nMemoryError\n")
        #expect(try failure(BanditScanner(executor: executor)) == "bandit failed: MemoryError")
    }

    @Test func truncatedJSONAfterExitZeroNamesTheJSONProblem() throws {
        let executor = ScriptedExecutor(exitCode: 0, stdout: try AdapterFixtures.data("bandit/truncated.json"))
        #expect(try failure(BanditScanner(executor: executor))?.hasPrefix("bandit failed: unreadable JSON output (2976 bytes)") == true)
    }

    @Test func failingExitWithNoOutputAtAllNamesTheStatus() throws {
        #expect(try failure(BanditScanner(executor: ScriptedExecutor(exitCode: 127))) == "bandit failed: exit status 127")
    }

    @Test func timeoutNamesTheLimit() throws {
        let executor = ScriptedExecutor(exitCode: 124, stdout: Data("{\"results\": [".utf8), reason: .timeout)
        #expect(try failure(BanditScanner(executor: executor, timeout: 5)) == "bandit timed out after 5s")
        // Without an explicit limit, the profile's fired: the wall time is named.
        let profileLimit = ScriptedExecutor { _ in RunResult(exitCode: 124, reason: .timeout, wallMilliseconds: 900_000) }
        #expect(try failure(BanditScanner(executor: profileLimit)) == "bandit timed out after 900s")
    }

    @Test func outOfMemoryIsReported() throws {
        let executor = ScriptedExecutor { _ in
            RunResult(exitCode: 137, signal: 9, reason: .oom, peakMemoryBytes: 2 * 1_073_741_824)
        }
        #expect(try failure(BanditScanner(executor: executor)) == "bandit was killed by the sandbox memory limit (peak 2048 MiB)")
    }

    @Test func signalsAreReported() throws {
        let executor = ScriptedExecutor { _ in
            RunResult(exitCode: 139, signal: 11, reason: .signaled, stderr: Data("Segmentation fault\n".utf8))
        }
        #expect(
            try failure(SemgrepScanner(configPaths: [AdapterFixtures.semgrepRules], executor: executor))
                == "semgrep was killed by signal 11: Segmentation fault")
    }

    @Test func setupFailureResultIsAToolFailure() throws {
        let executor = ScriptedExecutor { _ in RunResult(exitCode: 125, reason: .setupFailed, stage: "pivot_root", errno: EPERM) }
        #expect(
            try failure(BanditScanner(executor: executor))
                == "bandit failed: sandbox setup failed at pivot_root: \(Errno(rawValue: EPERM))")
    }

    @Test func thrownSandboxErrorIsAToolFailure() throws {
        let executor = ScriptedExecutor { _ in
            throw SentinelError.sandboxSetup(stage: "clone", errno: Errno(rawValue: EPERM))
        }
        let message = try failure(BanditScanner(executor: executor))
        #expect(message == "bandit failed: sandbox setup failed at clone: \(Errno(rawValue: EPERM).message)")
    }

    @Test func thrownConfigurationErrorIsAToolFailure() throws {
        let executor = ScriptedExecutor { _ in throw SentinelError(.invalidInput, "unknown profile 'scan-bandit'") }
        #expect(try failure(BanditScanner(executor: executor)) == "bandit failed: unknown profile 'scan-bandit'")
    }

    @Test func outputCutByTheProfileLimitIsReported() throws {
        let executor = ScriptedExecutor { _ in
            RunResult(exitCode: 1, reason: .exited, stdout: Data(repeating: 0x20, count: 64), stdoutTruncated: true)
        }
        #expect(
            try failure(BanditScanner(executor: executor))
                == "bandit failed: its output was cut at 64 bytes (the profile's outputBytes limit)")
    }

    @Test func semgrepRunsOfflineWithItsRulesBound() throws {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let executor = ScriptedExecutor(exitCode: 0, stdout: try AdapterFixtures.data("semgrep/report.json"))
        let rules = AdapterFixtures.semgrepRules
        let scanner = SemgrepScanner(configPaths: [rules], executor: executor)
        let output = try scanner.scan(target, context: context)
        #expect(output.findings.count == 6)
        let invocation = try #require(executor.invocations.first)
        #expect(invocation.profile == "scan-semgrep")
        #expect(
            invocation.command == [
                tools + "/bin/semgrep", "scan", "--json", "--metrics=off", "--disable-version-check", "--quiet",
                "--no-rewrite-rule-ids", "--config", rules, "--", "app/views.py", "app/broken.py",
            ])
        #expect(invocation.extraReadOnly.contains(rules))
        #expect(invocation.environment["HOME"] == "/tmp")
        #expect(invocation.environment["SEMGREP_ENABLE_VERSION_CHECK"] == "0")
        #expect(invocation.environment["SEMGREP_SEND_METRICS"] == "off")
        #expect(!scanner.isDefault)
        #expect(scanner.name == "semgrep")
    }

    @Test func semgrepNeedsRulesThatExist() throws {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        #expect(
            SemgrepScanner(configPaths: []).unavailableReason(context: context)
                == SemgrepScanner.noRules)
        #expect(
            SemgrepScanner(configPaths: ["/nonexistent/rules"]).unavailableReason(context: context)
                == "semgrep rules not found: /nonexistent/rules")
        #expect(SemgrepScanner(configPaths: [AdapterFixtures.semgrepRules]).unavailableReason(context: context) == nil)
        let bare = ScanContext(toolsDirectory: "/nonexistent/venv")
        #expect(
            SemgrepScanner(configPaths: [AdapterFixtures.semgrepRules]).unavailableReason(context: bare)?
                .hasPrefix("semgrep is not installed") == true)
    }

    @Test func semgrepAppliesToFilesItCanParse() {
        let scanner = SemgrepScanner(configPaths: [])
        #expect(scanner.applies(to: ScanTarget(root: "/r", files: ["web/app.TS"])))
        #expect(scanner.applies(to: ScanTarget(root: "/r", files: ["deploy/Dockerfile"])))
        #expect(!scanner.applies(to: ScanTarget(root: "/r", files: ["notes.txt", "Makefile", "image.png"])))
        #expect(scanner.files(in: target) == ["app/views.py", "app/broken.py"])
    }

    @Test func semgrepFatalExitNamesItsReportedError() throws {
        let executor = ScriptedExecutor(
            exitCode: 2, stdout: try AdapterFixtures.data("semgrep/fatal.json"),
            stderr: "[ERROR] something generic\n")
        let message = try failure(SemgrepScanner(configPaths: [AdapterFixtures.semgrepRules], executor: executor))
        #expect(message?.hasPrefix("semgrep failed: Rule parse error in rule tmp.bad: Invalid pattern for Python") == true)
    }

    @Test func semgrepFatalExitWithoutJSONNamesStderr() throws {
        let executor = ScriptedExecutor(exitCode: 7, stderr: "semgrep: error: invalid configuration file found\n")
        #expect(
            try failure(SemgrepScanner(configPaths: [AdapterFixtures.semgrepRules], executor: executor))
                == "semgrep failed: semgrep: error: invalid configuration file found")
    }

    @Test func semgrepTimeoutNamesTheLimit() throws {
        let executor = ScriptedExecutor(exitCode: 124, reason: .timeout)
        #expect(
            try failure(SemgrepScanner(configPaths: [AdapterFixtures.semgrepRules], executor: executor, timeout: 2.5))
                == "semgrep timed out after 2.5s")
    }
}
