import Findings
import Foundation
import Sandbox
import ScanCore
import Support
import TestSupport
import Testing

@testable import Adapters

/// What the end-to-end adapter tests need from the host.
enum AdapterHost {
    static let toolsDirectory = ScanContext.defaultToolsDirectory
    static func installed(_ tool: ToolName) -> Bool {
        ToolInstallation(tool: tool, directory: toolsDirectory).missingReason == nil
    }

    /// `../shared/corpora/bandit` beside the checkout (CI always has it), when present.
    static let banditCorpus: String? = {
        let path = (AdapterFixtures.profiles as NSString).deletingLastPathComponent + "/../shared/corpora/bandit"
        let standardized = (path as NSString).standardizingPath
        return FileManager.default.fileExists(atPath: standardized + "/examples") ? standardized : nil
    }()

    /// A context whose sandbox reads this checkout's profiles.
    static func context() -> ScanContext {
        ScanContext(
            sandbox: SandboxRunner(profiles: ProfileStore(directories: [AdapterFixtures.profiles], syntax: .yaml)),
            toolsDirectory: toolsDirectory)
    }

    /// `profiles/scan-bandit.yaml` with a memory limit Python cannot start under.
    static func starvedBanditProfile() throws -> String {
        try variant(of: "scan-bandit") { line in
            line.hasPrefix("  memory:") ? ["  memory: 8M"] : [line]
        }
    }

    /// A temporary copy of profile `name` with each line replaced by `edit(line)` and a new name.
    static func variant(of name: String, edit: (Substring) -> [Substring]) throws -> String {
        let text = try String(contentsOfFile: AdapterFixtures.profiles + "/\(name).yaml", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
            line.hasPrefix("name:") ? ["name: \(name)-test"] : edit(line)
        }
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-test-\(UUID().uuidString).yaml").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// The real tools in the real sandbox over `Fixtures/adapters/tree`.
@Suite(.enabled(if: TestHost.isRoot, "the sandbox needs root"))
struct AdapterEndToEndTests {
    let target = ScanTarget(root: AdapterFixtures.tree, files: ["app/views.py", "app/broken.py", "notes.txt"])

    @Test(.enabled(if: AdapterHost.installed("bandit"), "needs bandit: run scripts/install-tools.sh"))
    func banditScansTheTreeInTheSandbox() throws {
        let output = try BanditScanner().scan(target, context: AdapterHost.context())
        // `# nosec B602` on line 14 is honoured by Bandit itself.
        #expect(output.findings.map(\.ruleId) == ["bandit.B404", "bandit.B403", "bandit.B602", "bandit.B301", "bandit.B602"])
        #expect(output.findings.map(\.location.startLine) == [1, 2, 6, 10, 18])
        let spanning = try #require(output.findings.last)
        #expect(spanning.location == Location(file: "app/views.py", startLine: 18, startColumn: 22, endLine: 21, endColumn: 6))
        #expect(output.findings[2].snippet == "    subprocess.call(cmd, shell=True)")
        #expect(
            output.notices.map(\.message) == [
                "bandit could not scan app/broken.py: syntax error while parsing AST from file",
                "bandit: 1 issue(s) hidden by # nosec comments",
            ])
        #expect(output.tool.status == .succeeded)
        #expect(output.tool.version?.isEmpty == false)
        #expect((output.tool.durationSeconds ?? 0) > 0)
    }

    @Test(.enabled(if: AdapterHost.installed("semgrep"), "needs semgrep: run scripts/install-tools.sh"))
    func semgrepScansTheTreeInTheSandboxWithoutNetwork() throws {
        // The real profile: its egress proxy allows nothing, and Semgrep needs no network.
        let scanner = SemgrepScanner(configPaths: [AdapterFixtures.semgrepRules])
        let output = try scanner.scan(target, context: AdapterHost.context())
        #expect(
            output.findings.map(\.ruleId) == [
                "semgrep.pickle-import", "semgrep.subprocess-shell-true", "semgrep.pickle-loads",
                "semgrep.subprocess-shell-true", "semgrep.subprocess-shell-true",
            ])
        let spanning = output.findings[4]
        #expect(spanning.location == Location(file: "app/views.py", startLine: 18, startColumn: 22, endLine: 21, endColumn: 6))
        #expect(spanning.severity == .high)
        #expect(spanning.cwe == [78])
        #expect(output.findings[2].snippet == "    return pickle.loads(blob)")
        #expect(output.tool.version?.isEmpty == false)
        #expect(output.rules.map(\.id) == ["semgrep.pickle-import", "semgrep.pickle-loads", "semgrep.subprocess-shell-true"])
    }

    @Test(.enabled(if: AdapterHost.installed("semgrep"), "needs semgrep: run scripts/install-tools.sh"))
    func semgrepTimeoutIsAToolFailure() throws {
        // Semgrep needs seconds just to start; half a second always runs out.
        let scanner = SemgrepScanner(configPaths: [AdapterFixtures.semgrepRules], timeout: 0.5)
        #expect {
            _ = try scanner.scan(target, context: AdapterHost.context())
        } throws: { error in
            (error as? SentinelError) == SentinelError(.toolFailed, "semgrep timed out after 0.5s")
        }
    }

    /// Issue 76, H4: a `.bandit` file a pull request adds is read by Bandit whenever it scans a
    /// directory (`.`: a selection past the argument budget), and its `skips` hid the change's code.
    @Test(.enabled(if: AdapterHost.installed("bandit"), "needs bandit: run scripts/install-tools.sh"))
    func aBanditFileInTheTreeDecidesNothingWhenSentinelDecides() throws {
        let root = try TemporaryDirectory.make("bandit-ini")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "[bandit]\nskips: B605\n".write(toFile: root + "/.bandit", atomically: true, encoding: .utf8)
        try "import os\nos.system(input())\n".write(toFile: root + "/run.py", atomically: true, encoding: .utf8)
        // Enough long names that the adapter passes `.` rather than the files.
        let padding = String(repeating: "n", count: 200)
        let filler = (0..<(ToolTargets.argumentBudget / 200 + 8)).map { "m\($0)_\(padding).py" }
        for name in filler { try "x = 1\n".write(toFile: root + "/" + name, atomically: true, encoding: .utf8) }
        let target = ScanTarget(root: root, files: ["run.py"] + filler)
        #expect(BanditScanner().invocation(for: target, context: AdapterHost.context()).1.arguments == ["."])
        var context = AdapterHost.context()
        // The project's own scan: its `.bandit` is its configuration.
        #expect(try !BanditScanner().scan(target, context: context).findings.contains { $0.ruleId == "bandit.B605" })
        context.toolsApplySuppressions = false
        let findings = try BanditScanner().scan(target, context: context).findings
        #expect(findings.filter { $0.ruleId == "bandit.B605" }.map(\.location.file) == ["run.py"])
    }

    @Test(.enabled(if: AdapterHost.installed("bandit"), "needs bandit: run scripts/install-tools.sh"))
    func banditOutOfMemoryIsAToolFailure() throws {
        let profile = try AdapterHost.starvedBanditProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        #expect {
            _ = try BanditScanner(profile: profile).scan(target, context: AdapterHost.context())
        } throws: { error in
            let error = error as? SentinelError
            return error?.code == .toolFailed
                && error?.message.hasPrefix("bandit was killed by the sandbox memory limit") == true
        }
    }

    @Test(.enabled(if: AdapterHost.installed("bandit"), "needs bandit: run scripts/install-tools.sh"))
    func banditWithAnUnknownProfileIsAToolFailure() throws {
        #expect {
            _ = try BanditScanner(profile: "no-such-profile").scan(target, context: AdapterHost.context())
        } throws: { error in
            let error = error as? SentinelError
            return error?.code == .toolFailed && error?.message.hasPrefix("bandit failed: unknown profile 'no-such-profile'") == true
        }
    }

    @Test(
        .enabled(if: AdapterHost.installed("bandit"), "needs bandit: run scripts/install-tools.sh"),
        .needsCorpus("bandit/examples"))
    func banditOverItsOwnExamplesIsReadWhole() throws {
        let corpus = try #require(AdapterHost.banditCorpus)
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus + "/examples")
            .filter { $0.hasSuffix(".py") }.map { "examples/" + $0 }.sorted()
        let output = try BanditScanner().scan(ScanTarget(root: corpus, files: files), context: AdapterHost.context())
        // Bandit 1.9.4 reports 597 issues there (corpora/README.md); every one must be read.
        #expect(output.findings.count >= 500)
        #expect(!output.notices.contains { $0.message.contains("skipped:") })
        #expect(output.notices.filter { $0.message.hasPrefix("bandit could not scan examples/") }.count >= 2)
        for finding in output.findings {
            #expect(finding.ruleId.hasPrefix("bandit.B"))
            #expect(files.contains(finding.location.file ?? ""))
            #expect((finding.location.startLine ?? 0) >= 1)
            #expect((finding.location.startColumn ?? 0) >= 1)
            #expect(finding.snippet != nil)
        }
        #expect(Set(output.rules.map(\.id)) == Set(output.findings.map(\.ruleId)))
    }
}
