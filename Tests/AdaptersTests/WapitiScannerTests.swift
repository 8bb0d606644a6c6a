import DAST
import Findings
import Foundation
import Sandbox
import ScanCore
import Support
import Testing
import Web

@testable import Adapters

/// `WapitiScanner` against scripted sandbox results: the command it runs, the egress it asks
/// for, and every way a run can fail, without Wapiti.
@Suite struct WapitiScannerTests {
    let files = ScanTarget(root: "/nonexistent", files: [])

    /// A context reading this checkout's profiles, and a fake Wapiti venv (removed by the caller).
    func context() throws -> (ScanContext, String) {
        let tools = try AdapterFixtures.fakeToolsDirectory(["wapiti"])
        let context = ScanContext(
            sandbox: SandboxRunner(profiles: ProfileStore(directories: [AdapterFixtures.profiles], syntax: .yaml)), toolsDirectory: tools)
        return (context, tools)
    }

    func report() throws -> Data { try AdapterFixtures.data("../wapiti/report.json") }

    @Test func aPassiveScanRunsThePassiveModulesThroughTheProxyToTheTargetAlone() throws {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let report = try report()
        let executor = ScriptedExecutor { _ in
            RunResult(
                exitCode: 0, reason: .exited, wallMilliseconds: 2500, stdout: report,
                egress: [
                    EgressSummary(host: "127.0.0.1", port: 8765, allowed: true, bytes: 600, rule: "127.0.0.1:8765"),
                    EgressSummary(host: "127.0.0.1", port: 8765, allowed: true, bytes: 400, rule: "127.0.0.1:8765"),
                    EgressSummary(host: "dns.wapiti3.ovh", port: 443, allowed: false, bytes: 0, rule: "no rule matches"),
                ])
        }
        let scanner = WapitiScanner(targetURL: "http://127.0.0.1:8765", maxDuration: 90, toolsDirectory: tools, executor: executor)
        let output = try scanner.scan(files, context: context)
        let invocation = try #require(executor.invocations.first)
        #expect(invocation.profile == "scan-wapiti")
        #expect(invocation.networkAllow == ["127.0.0.1:8765"])
        #expect(invocation.timeout == 210)
        #expect(invocation.environment["HOME"] == "/tmp/home")
        #expect(Array(invocation.command.prefix(2)) == ["/bin/sh", "-c"])
        #expect(Array(invocation.command[3...4]) == ["wapiti-run", "/tmp/wapiti/report.json"])
        #expect(
            Array(invocation.command.dropFirst(5)) == [
                tools + "/bin/wapiti", "-u", "http://127.0.0.1:8765/", "--scope", "folder", "-m", "http_headers,cookieflags,csp",
                "--flush-session", "--no-bugreport", "-f", "json", "-o", "/tmp/wapiti/report.json",
                "--store-session", "/tmp/wapiti/session", "--store-config", "/tmp/wapiti/config",
                "--proxy", "http://127.0.0.1:3128/", "--max-scan-time", "90", "--max-attack-time", "90", "-v", "1",
            ])
        #expect(!invocation.command.contains("--color"))
        // The workspace was a fresh empty directory, removed after the run.
        #expect(invocation.workspace.contains("sentinel-wapiti-"))
        #expect(!FileManager.default.fileExists(atPath: invocation.workspace))
        #expect(output.findings.count == 8)
        #expect(output.tool.durationSeconds == 2.5)
        #expect(output.tool.version == "3.2.3")
        #expect(
            output.notices.map(\.message) == [
                "wapiti egress: connected to 127.0.0.1:8765 2 time(s), 1000 bytes",
                "wapiti egress: refused dns.wapiti3.ovh:443 1 time(s): no rule matches",
            ])
        #expect(output.notices.map(\.level) == [.info, .warning])
    }

    @Test func anActiveScanAddsTheAttackModulesAndAChosenScope() throws {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let scanner = WapitiScanner(targetURL: "https://[::1]:8443/app/", active: true, scope: .domain, toolsDirectory: tools)
        let invocation = try scanner.invocation(for: WebURL(target: scanner.targetURL), workspace: "/w", context: context)
        let modules = try #require(invocation.command.firstIndex(of: "-m")).advanced(by: 1)
        #expect(invocation.command[modules].split(separator: ",").map(String.init) == scanner.selectedModules)
        #expect(scanner.selectedModules.starts(with: WapitiScanner.passiveModules))
        #expect(scanner.selectedModules.contains("xss"))
        #expect(invocation.command.contains("domain"))
        #expect(invocation.networkAllow == ["[::1]:8443"])
        #expect(!WapitiScanner.passiveModules.contains("methods"))
    }

    @Test func aLoginIsDoneByWapitisOwnFormLoginWithTheValuesOffTheCommandLine() throws {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let report = try report()
        let executor = ScriptedExecutor { invocation in
            // The plug-in is in the workspace while Wapiti runs; it holds no value.
            let script = (try? String(contentsOfFile: invocation.workspace + "/sentinel_login.py", encoding: .utf8)) ?? ""
            #expect(script.contains("async_try_form_login") && !script.contains("s3cret"))
            return RunResult(exitCode: 0, reason: .exited, wallMilliseconds: 10, stdout: report)
        }
        var scanner = WapitiScanner(targetURL: "http://127.0.0.1:8765/", active: true, toolsDirectory: tools, executor: executor)
        scanner.login = WebLogin(url: "/login", fields: ["user": "carol", "pass": "s3cret-Passw0rd"])
        scanner.exclude = ["/admin/**", "delete*"]
        _ = try scanner.scan(files, context: context)
        let invocation = try #require(executor.invocations.first)
        #expect(!invocation.command.contains { $0.contains("s3cret") })
        let script = try #require(invocation.command.firstIndex(of: "--form-script"))
        #expect(invocation.command[script + 1] == "/workspace/sentinel_login.py")
        #expect(invocation.command.contains("http://127.0.0.1:8765/*logout*"))
        #expect(invocation.command.contains("http://127.0.0.1:8765/admin/*"))
        #expect(invocation.command.contains("http://127.0.0.1:8765/*delete*"))
        #expect(
            invocation.environment["SENTINEL_WAPITI_LOGIN"]
                == #"{"password":"s3cret-Passw0rd","url":"http://127.0.0.1:8765/login","username":"carol"}"#)
    }

    @Test func chosenModulesReplaceTheDefaultsAndMustBeModuleNames() throws {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let target = try WebURL(target: "http://127.0.0.1:1/")
        let xss = WapitiScanner(targetURL: target.string, active: true, modules: ["xss"], toolsDirectory: tools)
        #expect(try xss.invocation(for: target, workspace: "/w", context: context).command.contains("xss"))
        let bad = WapitiScanner(targetURL: target.string, modules: ["xss,sql"], toolsDirectory: tools)
        #expect(throws: SentinelError(.invalidInput, "wapiti module 'xss,sql': not a module name (letters, digits, _)")) {
            _ = try bad.invocation(for: target, workspace: "/w", context: context)
        }
    }

    /// Runs a scan whose sandbox run is `result` and returns the `.toolFailed` message.
    func failure(_ result: RunResult) throws -> String? {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let scanner = WapitiScanner(
            targetURL: "http://127.0.0.1:8765/", maxDuration: 30, toolsDirectory: tools, executor: ScriptedExecutor { _ in result })
        do {
            _ = try scanner.scan(files, context: context)
            return nil
        } catch let error as SentinelError {
            #expect(error.code == .toolFailed)
            #expect(!error.message.contains("\n"))
            return error.message
        }
    }

    static let banner = """
             __    __            _ _   _ _____
            / / /\\ \\ \\__ _ _ __ (_) |_(_)___ /
        Wapiti 3.2.3 (wapiti-scanner.github.io)
        [*] Saving scan state, please wait...

        """

    @Test func aFailingRunIsExplainedPastWapitisBanner() throws {
        let usage = RunResult(
            exitCode: 2, reason: .exited,
            stderr: Data((Self.banner + "usage: wapiti [-h]\nwapiti: error: argument --scope: invalid choice\n").utf8))
        #expect(try failure(usage) == "wapiti failed: wapiti: error: argument --scope: invalid choice")
        let traceback = RunResult(
            exitCode: 1, reason: .exited,
            stderr: Data((Self.banner + "Traceback (most recent call last):\n  File \"x\"\nOSError: [Errno 28] No space\n").utf8))
        #expect(try failure(traceback) == "wapiti failed: OSError: [Errno 28] No space")
        #expect(try failure(RunResult(exitCode: 3, reason: .exited)) == "wapiti failed: exit status 3")
    }

    @Test func aRunWithoutAReportSaysWhatWapitiSaid() throws {
        let run = RunResult(
            exitCode: 0, reason: .exited, stderr: Data((Self.banner + "[!] ConnectError with URL http://127.0.0.1:8765/\n").utf8))
        #expect(try failure(run) == "wapiti failed: no JSON output ([!] ConnectError with URL http://127.0.0.1:8765/)")
        let garbage = RunResult(exitCode: 0, reason: .exited, stdout: Data("{\"vulnerabilities\"".utf8))
        #expect(try failure(garbage)?.hasPrefix("wapiti failed: unreadable JSON output (18 bytes)") == true)
    }

    @Test func theSandboxEndingTheRunIsAToolFailure() throws {
        #expect(try failure(RunResult(exitCode: 124, reason: .timeout)) == "wapiti timed out after 150s")
        #expect(try failure(RunResult(exitCode: 137, reason: .oom)) == "wapiti was killed by the sandbox memory limit")
        #expect(
            try failure(RunResult(exitCode: 0, reason: .exited, stdout: Data("{".utf8), stdoutTruncated: true))
                == "wapiti failed: its output was cut at 1 bytes (the profile's outputBytes limit)")
    }

    @Test func aMissingWapitiOrAProfileWithoutTheProxyIsUnavailable() throws {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let missing = WapitiScanner(targetURL: "http://127.0.0.1:1/", toolsDirectory: tools + "/nowhere")
        #expect(missing.unavailableReason(context: context)?.hasPrefix("wapiti is not installed") == true)
        #expect(throws: SentinelError.self) { _ = try missing.scan(files, context: context) }
        let offline = WapitiScanner(targetURL: "http://127.0.0.1:1/", profile: "scan-bandit", toolsDirectory: tools)
        #expect(
            offline.unavailableReason(context: context) == "wapiti needs a profile with network: proxy; profile scan-bandit has none")
        // By default Wapiti's venv sits beside the tools venv.
        let standard = WapitiScanner(targetURL: "http://127.0.0.1:1/")
        #expect(
            standard.installation(context: ScanContext(toolsDirectory: "/opt/sentinel-tools/venv")).executable
                == "/opt/sentinel-tools/wapiti/bin/wapiti")
        #expect(standard.name == "wapiti" && standard.kind == .dast && !standard.isDefault && standard.applies(to: files))
    }

    @Test func aBadTargetURLIsInvalidInputBeforeAnythingRuns() throws {
        let (context, tools) = try context()
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let executor = ScriptedExecutor(exitCode: 0)
        let scanner = WapitiScanner(targetURL: "file:///etc/passwd", toolsDirectory: tools, executor: executor)
        #expect(throws: SentinelError(.invalidInput, "file:///etc/passwd: not an http or https URL")) {
            _ = try scanner.scan(files, context: context)
        }
        #expect(executor.invocations.isEmpty)
    }

    @Test func manyDestinationsAreSummarised() {
        let egress = (0..<25).map { EgressSummary(host: "h\($0).example", port: 443, allowed: false, bytes: 0) }
        let notices = EgressNotices.notices(egress, tool: "wapiti")
        #expect(notices.count == 21)
        #expect(notices.last?.message == "wapiti egress: 5 more destination(s) not listed")
        #expect(notices.first?.message == "wapiti egress: refused h0.example:443 1 time(s): denied")
    }
}
