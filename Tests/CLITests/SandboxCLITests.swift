import Foundation
import TestSupport
import Testing

@Suite struct HelpAndUsageTests {
    @Test func helpListsTheSubcommands() throws {
        let result = try CLI.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("sandbox"))
        #expect(result.stdout.contains("doctor"))
    }

    @Test func sandboxRunWithoutCommandIsAUsageError() throws {
        let result = try CLI.run(["sandbox", "run"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("missing command"))
    }

    @Test func badSizeIsAUsageError() throws {
        let result = try CLI.run(["sandbox", "run", "--memory", "lots", "--", "true"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'lots' is invalid for '--memory"))
    }

    @Test func unknownProfileIsNamed() throws {
        let result = try CLI.run(["sandbox", "run", "--profile", "nope", "--", "true"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown profile 'nope'"))
    }

    @Test func profilesListsTheShippedProfiles() throws {
        let result = try CLI.run(["sandbox", "profiles"])
        #expect(result.status == 0)
        for name in ["minimal", "scan-bandit", "scan-semgrep", "scan-wapiti", "fix-verify", "dast"] {
            #expect(result.stdout.contains(name))
        }
    }

    @Test func checkReportsTheBadKeyWithExitTwo() throws {
        let directory = NSTemporaryDirectory() + "sentinel-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/bad.yaml"
        try "name: bad\nfilesystem:\n  readonly: [/usr]\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try CLI.run(["sandbox", "check", path])
        #expect(result.status == 2)
        #expect(result.stderr == "sentinel: \(path):3: unknown key 'filesystem.readonly'\n")
    }

    @Test func checkDescribesAGoodProfile() throws {
        let result = try CLI.run(["sandbox", "check", "minimal"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("profile minimal: ok"))
        #expect(result.stdout.contains("default deny-list"))
        #expect(result.stdout.contains(" workspace-size 268435456\n"))
    }

    @Test func workspaceSizeBelowOneMegabyteIsAUsageError() throws {
        let result = try CLI.run(["sandbox", "run", "--workspace-size", "0", "--", "true"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--workspace-size must be at least 1M"))
    }
}

@Suite(.enabled(if: TestHost.canSandbox, "needs root and user namespaces"))
struct SandboxRunCLITests {
    private func statusFile() -> String { NSTemporaryDirectory() + "sentinel-status-\(UUID().uuidString).json" }

    private func status(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test func passesTheCommandsStatusAndOutputThrough() throws {
        let result = try CLI.run(["sandbox", "run", "--", "/bin/sh", "-c", "echo hello; exit 3"])
        #expect(result.status == 3)
        #expect(result.stdout == "hello\n")
    }

    @Test func timeoutExits124AndSaysSo() throws {
        let path = statusFile()
        defer { unlink(path) }
        let result = try CLI.run(["sandbox", "run", "--timeout", "1", "--status-json", path, "--", "sleep", "20"])
        #expect(result.status == 124)
        #expect(result.stderr.contains("timed out after 1s"))
        let json = try status(path)
        #expect(json["reason"] as? String == "timeout")
        #expect(json["exitCode"] as? Int == 124)
        #expect((json["wallMs"] as? Int ?? 0) >= 1000)
        #expect(json["egress"] as? [Any] != nil)
    }

    @Test func oomExits137() throws {
        let path = statusFile()
        defer { unlink(path) }
        let result = try CLI.run([
            "sandbox", "run", "--memory", "48M", "--status-json", path, "--",
            "python3", "-c", "b = bytearray(256 << 20)",
        ])
        #expect(result.status == 137)
        #expect(try status(path)["reason"] as? String == "oom")
        #expect((try status(path)["peakMemoryBytes"] as? Int ?? 0) > 0)
    }

    @Test func signalExitsWith128PlusN() throws {
        let result = try CLI.run(["sandbox", "run", "--", "/bin/sh", "-c", "kill -KILL $$"])
        #expect(result.status == 137)
    }

    @Test func missingCommandExits127() throws {
        let result = try CLI.run(["sandbox", "run", "--", "no-such-tool"])
        #expect(result.status == 127)
        #expect(result.stderr.contains("No such file or directory"))
    }

    @Test func setupFailureExits125NamingTheStage() throws {
        let directory = NSTemporaryDirectory() + "sentinel-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A tmpfs under the read-only /usr bind cannot get its mount point.
        try "name: broken\nfilesystem:\n  tmpfs:\n    /usr/sentinel-test: 1M\n"
            .write(toFile: directory + "/broken.yaml", atomically: true, encoding: .utf8)
        let path = directory + "/status.json"
        let result = try CLI.run([
            "sandbox", "run", "--profile", directory + "/broken.yaml", "--status-json", path,
            "--", "true",
        ])
        #expect(result.status == 125)
        #expect(result.stderr.hasPrefix("sentinel: sandbox setup failed at mkdir (/"))
        let json = try status(path)
        #expect(json["reason"] as? String == "setup-failed")
        #expect(json["stage"] as? String == "mkdir")
        #expect(json["errno"] as? Int != nil)
    }

    @Test func workspaceIsTheWorkingDirectory() throws {
        let directory = NSTemporaryDirectory() + "sentinel-ws-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "x".write(toFile: directory + "/marker", atomically: true, encoding: .utf8)
        let result = try CLI.run(["sandbox", "run", "--workspace", directory, "--", "/bin/sh", "-c", "pwd; ls"])
        #expect(result.stdout == "/workspace\nmarker\n")
    }

    /// `doctor` and `--tools` decide the same way: an external scanner installed in its venv (Wapiti
    /// lives beside the tools venv, in `wapiti/`) is usable, whatever `PATH` says.
    @Test func doctorAgreesWithTheScanOnExternalTools() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/usr/bin:/bin"
        let tools = environment["SENTINEL_TOOLS"] ?? "/opt/sentinel-tools/venv"
        let result = try CLI.run(["doctor"], environment: environment)
        let executables = [
            "bandit": tools + "/bin/bandit", "semgrep": tools + "/bin/semgrep",
            "wapiti": (tools as NSString).deletingLastPathComponent + "/wapiti/bin/wapiti",
        ]
        for (tool, executable) in executables {
            let line = result.stdout.split(separator: "\n").first { $0.dropFirst(6).hasPrefix(tool + " ") }
            let installed = FileManager.default.isExecutableFile(atPath: executable)
            #expect(line?.hasPrefix(installed ? "ok    " : "warn  ") == true, "\(tool): \(line ?? "no line")")
        }
    }

    @Test func doctorRunsASandbox() throws {
        let result = try CLI.run(["doctor"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("ok    sandbox"))
        #expect(result.stdout.contains("cgroups"))
    }
}

@Suite struct RulesCLITests {
    @Test func shippedRulesPassTheirOwnTests() throws {
        let result = try CLI.run(["rules", "test"], timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("rule test files passed"))
    }

    @Test func aRuleTestFailureExitsOne() throws {
        let directory = NSTemporaryDirectory() + "sentinel-rules-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/python", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
        id: python.test-eval
        message: eval
        severity: high
        confidence: high
        languages: [python]
        cwe: [95]
        pattern: eval(...)
        """.write(toFile: directory + "/python/test-eval.yaml", atomically: true, encoding: .utf8)
        try "# ruleid: python.test-eval\nexec(x)\n# ok: python.test-eval\nprint(x)\n"
            .write(toFile: directory + "/python/test-eval.py", atomically: true, encoding: .utf8)
        let result = try CLI.run(["rules", "test", directory])
        #expect(result.status == 1)
        #expect(result.stderr.contains("test-eval.py:2"), "\(result.stderr)")
    }
}
