import Findings
import Foundation
import ScanCore
import Support
import Testing

@testable import Adapters
@testable import Scan

#if canImport(Glibc)
    import Glibc
#endif

/// Named files and file lists (what pre-commit passes), and files the scan must report skipping.
@Suite struct ScanTargetsTests {
    /// A fresh directory with `files` (relative path → contents).
    static func tree(_ files: [String: String]) throws -> String {
        let root = NSTemporaryDirectory() + "sentinel-targets-\(UUID().uuidString)"
        for (path, text) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test func namedFilesAndDirectoriesSelectExactlyThose() throws {
        let root = try Self.tree(["a.py": "x", "b.py": "x", "c.py": "x", "lib/d.py": "x", "lib/e.txt": "x", "other/f.py": "x"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let selection = FileWalker().select(targets: [root + "/a.py", root + "/c.py", root + "/lib"], root: root)
        #expect(selection.files == ["a.py", "c.py", "lib/d.py", "lib/e.txt"])
        #expect(selection.skipped.isEmpty)
        // The old single-root form still works, for a directory and for a file.
        #expect(FileWalker().files(under: root).count == 6)
        #expect(FileWalker().files(under: root + "/a.py") == ["a.py"])
    }

    /// A fleet worker hands a scan the directory it checked as `/proc/PID/fd/N`: walked as the open
    /// directory, while a link named as the root is still not followed.
    @Test func aDescriptorPathRootIsWalkedALinkRootIsNot() throws {
        let root = try Self.tree(["a.py": "x", "lib/b.py": "x"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let held = try DirectoryDescriptor.workingDirectory.openDirectory(root)
        let path = held.descriptorPath
        #expect(FileWalker().select(targets: [path], root: path).files == ["a.py", "lib/b.py"])
        #expect(FileWalker().files(under: path) == ["a.py", "lib/b.py"])
        #expect(symlink(root, root + "-link") == 0)
        defer { unlink(root + "-link") }
        let linked = FileWalker().select(targets: [root + "-link"], root: root + "-link")
        #expect(linked.files.isEmpty && linked.skipped.map(\.reason) == ["symbolic link (not followed)"])
    }

    @Test func oversizedSpecialAndLinkedFilesAreReportedNotDropped() throws {
        let root = try Self.tree(["small.py": "x", "big.py": String(repeating: "#", count: 3000)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(mkfifo(root + "/pipe", 0o600) == 0)
        #expect(symlink("/etc/passwd", root + "/link.py") == 0)
        let walker = FileWalker(maxFileBytes: 2048)
        let walked = walker.select(targets: [root], root: root)
        #expect(walked.files == ["small.py"])
        #expect(walked.oversized == ["big.py"])
        // Inside a walked directory, links are not followed and FIFOs are not source (by design).
        #expect(walked.skipped.isEmpty)
        let named = walker.select(targets: [root + "/pipe", root + "/link.py"], root: root)
        #expect(
            named.skipped == [
                SkippedFile(file: "link.py", reason: "symbolic link (not followed)"),
                SkippedFile(file: "pipe", reason: "not a regular file"),
            ])
        #expect(walker.oversizedReason(bytes: 6 * 1_048_576) == "larger than --max-file-size (6.0M > 2.0K)")
        #expect(FileWalker.formatSize(5 << 20) == "5.0M")
        #expect(FileWalker.formatSize(300) == "300B")
    }

    @Test func pathsResolveToARoot() throws {
        let root = try Self.tree(["a.py": "x", "src/b.py": "x", "src/deep/c.py": "x"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        // One directory is its own root.
        #expect(try ScanPaths.resolve(["src"], currentDirectory: root) == ScanPaths(root: root + "/src", targets: [root + "/src"]))
        #expect(try ScanPaths.resolve([], currentDirectory: root).root == root)
        // Files under the current directory keep the paths as typed.
        let typed = try ScanPaths.resolve(["src/b.py", "a.py"], currentDirectory: root)
        #expect(typed.root == root)
        #expect(typed.targets == [root + "/src/b.py", root + "/a.py"])
        #expect(!typed.isWholeDirectory)
        // Elsewhere: their deepest common directory.
        #expect(try ScanPaths.resolve([root + "/a.py"], currentDirectory: root).root == root)
        #expect(try ScanPaths.resolve([root + "/src/b.py"], currentDirectory: "/").root == root + "/src")
        let elsewhere = try ScanPaths.resolve([root + "/src/b.py", root + "/src/deep/c.py"], currentDirectory: "/proc")
        #expect(elsewhere.root == root + "/src")
        #expect(try ScanPaths.resolve([root + "/src/deep/c.py"], currentDirectory: "/proc").root == root + "/src/deep")
        #expect(throws: SentinelError(.invalidInput, "nope.py: no such file or directory")) {
            try ScanPaths.resolve(["a.py", "nope.py"], currentDirectory: root)
        }
    }

    @Test func adaptersBindTheNamedFilesDirectoryAndReportRootRelativePaths() {
        let target = ScanTarget(root: "/repo", files: ["lib/x/a.py", "lib/y/b.py"], isFileList: true)
        let workspace = AdapterWorkspace(target: target, files: target.files)
        #expect(workspace.host == "/repo/lib")
        #expect(workspace.files == ["x/a.py", "y/b.py"])
        let finding = Finding(
            ruleId: "bandit.B307", tool: "bandit", severity: .medium, message: "m",
            location: Location(file: "x/a.py", startLine: 3), snippet: "eval(x)")
        let output = workspace.rebased(
            ScannerOutput(
                findings: [finding], tool: ToolRun(name: "bandit"),
                notices: [Notice(message: "n", file: "y/b.py")]))
        #expect(output.findings.first?.location.file == "lib/x/a.py")
        let direct = Finding(
            ruleId: "bandit.B307", tool: "bandit", severity: .medium, message: "m",
            location: Location(file: "lib/x/a.py", startLine: 3), snippet: "eval(x)")
        #expect(output.findings.first?.fingerprint == direct.fingerprint)
        #expect(output.notices.first?.file == "lib/y/b.py")
        // A whole-directory scan keeps the root as the workspace (as before).
        let whole = AdapterWorkspace(target: ScanTarget(root: "/repo", files: ["lib/x/a.py"]), files: ["lib/x/a.py"])
        #expect(whole.host == "/repo" && whole.files == ["lib/x/a.py"])
        // One named file: its directory, never the file itself.
        let single = ScanTarget(root: "/repo", files: ["app.py"], isFileList: true)
        #expect(AdapterWorkspace(target: single, files: single.files).host == "/repo")
    }

    @Test func aNamedFileIsScannedByTheNativeEnginesAndSkipsAreReported() throws {
        let root = try Self.tree([
            "app.py": "import os\nos.system('ls ' + input())\n",
            "other.py": "eval(input())\n",
            "big.py": "import os\nos.system('ls ' + input())\n" + String(repeating: "# padding\n", count: 400),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let runner = ScanRunner(scanners: [NativeSASTScanner(), SecretsScanner()])
        let request = ScanRequest(
            root: root, gate: Gate(failOn: nil), targets: [root + "/app.py", root + "/big.py"],
            maxFileBytes: 1024)
        let outcome = try runner.run(request, context: ScanContext())
        #expect(Set(outcome.report.findings.map(\.location.file)) == ["app.py", "big.py"])
        #expect(outcome.report.findings.contains { $0.ruleId == "python.taint-command-injection" && $0.tool == "native" })
        #expect(outcome.report.filesScanned == 1)
        // Issue 76, H3: code over the size limit is not a note but a finding the default gate fails on.
        let big = try #require(outcome.report.findings.first { $0.location.file == "big.py" })
        #expect(big.ruleId == "sentinel.file-not-analysed" && big.severity == .high && big.location.startLine == nil)
        #expect(big.message.hasPrefix("not analysed: larger than --max-file-size (3.9K > 1.0K)"))
        #expect(outcome.report.rules.contains { $0.id == "sentinel.file-not-analysed" })
        #expect(outcome.report.skippedFiles.isEmpty)
        #expect(outcome.report.tools.map(\.name).sorted() == ["native", "secrets"])
    }

    @Test func theDefaultToolSetIsTheNativeEngines() throws {
        let scanners = ScannerRegistry.standard(config: ScanConfig())
        #expect(scanners.map(\.name) == ["native", "secrets", "osv", "bandit", "semgrep"])
        #expect(scanners.filter(\.isDefault).map(\.name) == ["native", "secrets", "osv"])
        let runner = ScanRunner(scanners: scanners)
        #expect(try runner.select(ScanRequest(root: "/tmp")).map(\.0.name) == ["native", "secrets", "osv"])
        #expect(try runner.select(ScanRequest(root: "/tmp", tools: ["native", "bandit"])).map(\.0.name) == ["native", "bandit"])
        let configured = ScanRequest(root: "/tmp", config: ScanConfig(tools: ["semgrep"]))
        #expect(try runner.select(configured).map(\.0.name) == ["semgrep"])
        #expect(throws: SentinelError(.invalidInput, "unknown tool 'sentinel' (known: native, secrets, osv, bandit, semgrep)")) {
            try runner.select(ScanRequest(root: "/tmp", tools: ["sentinel"]))
        }
    }

    /// The native engine's finding in a CRLF (or lone-CR) file is hidden by the suppression on
    /// its line, so the gate passes, as it does for the LF file.
    @Test(arguments: ["\n", "\r\n", "\r"])
    func aSuppressedNativeFindingPassesTheGateWhateverTheLineEnding(newline: String) throws {
        let source = ["import os", "os.system('ls ' + input())  # sentinel: ignore demo script, input is trusted", ""]
        let root = try Self.tree(["app.py": source.joined(separator: newline)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let outcome = try ScanRunner(scanners: [NativeSASTScanner()]).run(ScanRequest(root: root), context: ScanContext())
        #expect(outcome.report.findings.isEmpty, "\(outcome.report.findings.map(\.ruleId))")
        #expect(outcome.report.suppressedCount >= 1)
        #expect(outcome.exitStatus == .clean)
    }
}
