import Documents
import Foundation
import Sandbox
import ScanCore
import Support
import Synchronization
import Testing

@testable import Adapters

/// Fixtures and fakes the adapter tests share.
enum AdapterFixtures {
    /// `Tests/AdaptersTests/Fixtures/adapters`.
    static let directory: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        return url.appendingPathComponent("Fixtures/adapters").path
    }()

    /// The small Python tree the reports were recorded over (and the end-to-end tests scan).
    static let tree = directory + "/tree"
    /// Semgrep rules for the end-to-end test.
    static let semgrepRules = directory + "/semgrep-rules"
    /// `profiles/` of this checkout.
    static let profiles: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("profiles").path
    }()

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
    }

    /// Scratch space outside `/tmp`, which the scan profiles cover with a tmpfs:
    /// `.build/adapter-tests` of this checkout.
    static let scratch: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent(".build/adapter-tests").path
    }()

    /// A temporary tools venv (under `parent`) whose `bin/` holds executables named `tools`.
    static func fakeToolsDirectory(_ tools: [String] = ["bandit", "semgrep"], in parent: String = scratch) throws
        -> String
    {
        let directory = parent + "/tools-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/bin", withIntermediateDirectories: true)
        for tool in tools {
            let path = directory + "/bin/" + tool
            _ = FileManager.default.createFile(
                atPath: path, contents: Data("#!/bin/sh\nexit 0\n".utf8),
                attributes: [.posixPermissions: 0o755])
        }
        return directory
    }
}

/// Replays a scripted `RunResult` (or error) and records what it was asked to run.
final class ScriptedExecutor: ToolExecutor {
    private let script: @Sendable (ToolInvocation) throws -> RunResult
    private let recorded = Mutex<[ToolInvocation]>([])

    init(_ script: @escaping @Sendable (ToolInvocation) throws -> RunResult) {
        self.script = script
    }

    /// Exits with `exitCode`, printing `stdout` and `stderr`.
    convenience init(
        exitCode: Int32 = 0, stdout: Data = Data(), stderr: String = "",
        reason: RunResult.Reason = .exited
    ) {
        self.init { _ in
            RunResult(
                exitCode: exitCode, reason: reason, wallMilliseconds: 1500, stdout: stdout,
                stderr: Data(stderr.utf8))
        }
    }

    var invocations: [ToolInvocation] { recorded.withLock { $0 } }

    func execute(_ invocation: ToolInvocation) throws -> RunResult {
        recorded.withLock { $0.append(invocation) }
        return try script(invocation)
    }
}

@Suite struct AdapterSupportTests {
    /// A tool's failure is said by the line that gives the reason: a Python traceback's last
    /// line, not its header.
    @Test(
        arguments: [
            ("error: no rules\nmore\n", "error: no rules"),
            (
                "\n  \nTraceback (most recent call last):\n  File \"x.py\", line 1\nPermissionError: [Errno 13] denied: 'a.py'\n",
                "PermissionError: [Errno 13] denied: 'a.py'"
            ),
            ("Traceback (most recent call last):\n", "Traceback (most recent call last):"),
            (" \n", nil),
        ] as [(String, String?)])
    func reasonLineOfAFailure(stderr: String, expected: String?) {
        #expect(ToolFailure.reasonLine(of: Data(stderr.utf8)) == expected)
    }

    @Test func smallSelectionsAreNamedOnTheCommandLine() {
        let targets = ToolTargets(files: ["a.py", "-rf.py", "pkg/b.py"])
        #expect(targets.arguments == ["a.py", "./-rf.py", "pkg/b.py"])
        #expect(targets.filter == nil)
        #expect(targets.keeps("anything.py"))
    }

    @Test func largeSelectionsScanTheWorkspaceAndFilter() {
        let files = (0..<50).map { "pkg/module_\($0).py" }
        let targets = ToolTargets(files: files, budget: 100)
        #expect(targets.arguments == ["."])
        #expect(targets.keeps("pkg/module_7.py"))
        #expect(!targets.keeps("venv/lib/site.py"))
    }

    @Test func toolsUnderTheProfileRootNeedNoExtraBind() {
        #expect(ToolInstallation(tool: "bandit", directory: "/opt/sentinel-tools/venv").extraReadOnly == [])
        #expect(
            ToolInstallation(tool: "bandit", directory: "/opt/sentinel-tools/venv/").executable
                == "/opt/sentinel-tools/venv/bin/bandit")
        let relative = ToolInstallation(tool: "bandit", directory: "venv").executable
        #expect(relative == FileManager.default.currentDirectoryPath + "/venv/bin/bandit")
        #expect(ToolInstallation(tool: "bandit", directory: "/srv/tools/./venv").extraReadOnly == ["/srv/tools/venv"])
        // A sibling whose name merely starts with the root is not covered.
        #expect(
            ToolInstallation(tool: "bandit", directory: "/opt/sentinel-tools2").extraReadOnly
                == ["/opt/sentinel-tools2"])
    }

    @Test func missingToolIsNamedWithTheInstallScript() throws {
        let directory = try AdapterFixtures.fakeToolsDirectory(["semgrep"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reason = try #require(ToolInstallation(tool: "bandit", directory: directory).missingReason)
        #expect(reason == "bandit is not installed (\(directory)/bin/bandit not found; run scripts/install-tools.sh)")
        #expect(ToolInstallation(tool: "semgrep", directory: directory).missingReason == nil)
    }

    @Test func versionComesFromTheDistInfoDirectory() throws {
        let directory = try AdapterFixtures.fakeToolsDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(
            atPath: directory + "/lib/python3.11/site-packages/bandit-1.9.4.dist-info", withIntermediateDirectories: true)
        let installation = ToolInstallation(tool: "bandit", directory: directory)
        #expect(installation.packageVersion("bandit") == "1.9.4")
        #expect(installation.packageVersion("semgrep") == nil)
    }

    @Test func reportFieldsAreReadLoosely() throws {
        let value = try ToolReportJSON.parse(Data(#"{"a": "78", "b": 3, "c": ["x", 1], "d": 2.5, "e": null}"#.utf8), tool: "t")
        #expect(value["a"]?.int == 78)
        #expect(value["b"]?.int == 3)
        #expect(value["c"]?.strings == ["x"])
        #expect(value["d"]?.int == nil)
        #expect(value["e"]?.value == .null)
        #expect(value["missing"] == nil)
    }

    @Test(arguments: [
        ("", "no JSON output"),
        ("  \n", "no JSON output"),
        ("{\"results\": [", "unreadable JSON output (13 bytes)"),
        ("Traceback (most recent call last):", "unreadable JSON output (34 bytes)"),
    ])
    func incompleteReportsAreRejected(text: String, expected: String) {
        #expect {
            _ = try ToolReportJSON.parse(Data(text.utf8), tool: "t")
        } throws: { error in
            (error as? SentinelError)?.message.hasPrefix("t failed: " + expected) == true
        }
    }

    @Test(arguments: [
        (["CWE-78: Improper Neutralization"], [78]),
        (["cwe-502", "CWE-502: again"], [502]),
        (["79"], [79]),
        (["CWE-89", "not a cwe"], [89]),
        (["none"], []),
    ])
    func cweIdsAreReadFromTheirNames(texts: [String], ids: [Int]) {
        #expect(ToolText.cweIds(texts) == ids)
    }

    @Test func toolPathsBecomeRelativeToTheScanRoot() {
        #expect(ToolPaths.relative("./app/views.py", root: "/src/project") == "app/views.py")
        #expect(ToolPaths.relative("/workspace/app//views.py", root: "/src/project") == "app/views.py")
        #expect(ToolPaths.relative("/src/project/app/views.py", root: "/src/project") == "app/views.py")
        #expect(ToolPaths.relative("app/views.py", root: "/src/project") == "app/views.py")
    }

    @Test func bindsUnderAHiddenPathAreShadowedButNotUnderATmpfs() {
        let filesystem = Profile.Filesystem(
            readOnly: ["/usr"], hidden: ["/etc/secret"], tmpfs: ["/tmp": 1 << 20], workspace: .ro)
        #expect(AdapterBinds.shadowed(["/srv/rules", "/tmp/rules"], by: filesystem) == nil)
        #expect(AdapterBinds.shadowed(["/etc/secret/x"], by: filesystem)! == ("/etc/secret/x", "/etc/secret"))
        #expect(AdapterBinds.shadowed(["/tmpfiles/rules", "/srv/rules"], by: filesystem) == nil)
    }

    @Test func toolsAndRulesUnderTmpAreVisibleInTheSandbox() throws {
        // The launcher mounts the profile's /tmp tmpfs before deeper binds, so a venv or rule
        // directory under /tmp is bound inside it and stays usable.
        let tools = try AdapterFixtures.fakeToolsDirectory(in: "/tmp")
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let context = ScanContext(
            sandbox: SandboxRunner(profiles: ProfileStore(directories: [AdapterFixtures.profiles], syntax: .yaml)),
            toolsDirectory: tools)
        #expect(
            ToolInstallation(tool: "bandit", directory: tools).unavailableReason(profile: "scan-bandit", context: context)
                .map { !$0.contains("hides under") } ?? true)
    }
}

@Suite struct AdapterInterpreterTests {
    func venv(home: String) throws -> String {
        let directory = try AdapterFixtures.fakeToolsDirectory()
        try "home = \(home)\ninclude-system-site-packages = false\n"
            .write(toFile: directory + "/pyvenv.cfg", atomically: true, encoding: .utf8)
        return directory
    }

    @Test func venvOfDebiansPythonRuns() throws {
        let directory = try venv(home: "/usr/bin")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let installation = ToolInstallation(tool: "bandit", directory: directory)
        #expect(installation.interpreterReason(visible: ["/usr", "/opt/sentinel-tools"]) == nil)
    }

    @Test func venvOfPyenvsPythonIsUnavailable() throws {
        let directory = try venv(home: "/root/.pyenv/versions/3.11.7/bin")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let installation = ToolInstallation(tool: "bandit", directory: directory)
        #expect(
            installation.interpreterReason(visible: ["/usr", "/usrlocal"])
                == "bandit's venv \(directory) runs Python from /root/.pyenv/versions/3.11.7/bin, which the sandbox"
                + " does not show; recreate it with scripts/install-tools.sh (it uses /usr/bin/python3)")
        // The scanners consult the profile's read-only paths.
        let context = ScanContext(
            sandbox: SandboxRunner(profiles: ProfileStore(directories: [AdapterFixtures.profiles], syntax: .yaml)),
            toolsDirectory: directory)
        #expect(BanditScanner().unavailableReason(context: context)?.contains("/root/.pyenv") == true)
        #expect(
            SemgrepScanner(configPaths: [AdapterFixtures.semgrepRules]).unavailableReason(context: context)?
                .contains("/root/.pyenv") == true)
    }

    @Test func venvWithoutConfigIsNotJudged() throws {
        let directory = try AdapterFixtures.fakeToolsDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(ToolInstallation(tool: "bandit", directory: directory).interpreterReason(visible: []) == nil)
    }
}
