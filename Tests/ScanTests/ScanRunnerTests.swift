#if canImport(Glibc)
    import Glibc
#endif
import Findings
import Foundation
import ScanCore
import Support
import Synchronization
import Testing

@testable import Scan

/// A scanner with a scripted outcome.
private struct FakeScanner: ScanCore.Scanner {
    var name: ToolName
    var kind: ScannerKind = .sast
    var isDefault = true
    var unavailable: String?
    var failure: String?
    var findings: [Finding] = []
    var inputErrors: [Notice] = []

    func applies(to target: ScanTarget) -> Bool { true }
    func unavailableReason(context: ScanContext) -> String? { unavailable }
    func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        if let failure { throw SentinelError(.toolFailed, failure) }
        var output = ScannerOutput(findings: findings, tool: ToolRun(name: name))
        output.inputErrors = inputErrors
        return output
    }
}

/// A scanner whose preparation runs on another thread for a while, and which never applies.
private final class PreparingScanner: ScanCore.Scanner, Sendable {
    let name: ToolName = "native"
    let kind = ScannerKind.sast
    let done = Atomic<Bool>(false)
    private let running = DispatchGroup()

    func applies(to target: ScanTarget) -> Bool { false }
    func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput { ScannerOutput(tool: ToolRun(name: name)) }
    func prepare(context: ScanContext) {
        running.enter()
        DispatchQueue.global().async { [self] in
            usleep(300_000)
            done.store(true, ordering: .sequentiallyConsistent)
            running.leave()
        }
    }
    func finishPreparing() { running.wait() }
}

private func finding(_ rule: String, _ severity: Severity, line: Int = 1) -> Finding {
    Finding(
        ruleId: rule, severity: severity, message: "m", location: Location(file: "a.py", startLine: line),
        snippet: "code\(line)")
}

@Suite struct ScanRunnerTests {
    let root: String = {
        let path = NSTemporaryDirectory() + "sentinel-scan-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path + "/a.py", contents: Data("code1\ncode2\n".utf8))
        return path
    }()

    @Test func gateDecidesTheExitStatus() throws {
        let runner = ScanRunner(scanners: [FakeScanner(name: "native", findings: [finding("r1", .medium)])])
        #expect(try runner.run(ScanRequest(root: root), context: ScanContext()).exitStatus == .clean)
        let strict = ScanRequest(root: root, gate: Gate(failOn: .medium))
        #expect(try runner.run(strict, context: ScanContext()).exitStatus == .findings)
        let none = ScanRequest(root: root, gate: Gate(failOn: nil))
        #expect(try runner.run(none, context: ScanContext()).report.findings.count == 1)
    }

    @Test func aFailingScannerExitsThreeAndSaysWhy() throws {
        let runner = ScanRunner(scanners: [
            FakeScanner(name: "bandit", failure: "bandit failed: boom"),
            FakeScanner(name: "native", findings: [finding("r", .high)]),
        ])
        let outcome = try runner.run(ScanRequest(root: root), context: ScanContext())
        #expect(outcome.exitStatus == .scannerFailed)
        #expect(outcome.report.tools.first { $0.name == "bandit" }?.status == .failed)
        #expect(outcome.report.tools.first { $0.name == "bandit" }?.message == "bandit failed: boom")
        // Once: the failed ToolRun carries it, no notice repeats it.
        #expect(!outcome.report.notices.contains { $0.message == "bandit failed: boom" })
        #expect(outcome.report.findings.count == 1)
    }

    @Test func aMissingToolIsSkippedByDefaultButFailsWhenNamed() throws {
        let scanners: [any ScanCore.Scanner] = [
            FakeScanner(name: "bandit", unavailable: "bandit is not installed"),
            FakeScanner(name: "native"),
        ]
        let runner = ScanRunner(scanners: scanners)
        let defaults = try runner.run(ScanRequest(root: root), context: ScanContext())
        #expect(defaults.exitStatus == .clean)
        #expect(defaults.report.tools.first { $0.name == "bandit" }?.status == .skipped)
        let named = try runner.run(ScanRequest(root: root, tools: ["bandit"]), context: ScanContext())
        #expect(named.exitStatus == .scannerFailed)
    }

    /// The native scanner reads the rule files on another thread while the files are listed. In
    /// a tree where it had nothing to analyse, nothing waited for that read, and a process that
    /// exited while it was still hashing rule files crashed in libcrypto's exit handler (exit 139
    /// in 3-5 % of scans).
    @Test func noPreparationOutlivesTheScan() throws {
        let scanner = PreparingScanner()
        let outcome = try ScanRunner(scanners: [scanner]).run(ScanRequest(root: root), context: ScanContext())
        #expect(outcome.exitStatus == .clean)
        let finished = scanner.done.load(ordering: .sequentiallyConsistent)
        #expect(finished)
    }

    @Test func unknownToolIsAnInputError() {
        let runner = ScanRunner(scanners: [FakeScanner(name: "native")])
        #expect(throws: SentinelError.self) { try runner.run(ScanRequest(root: root, tools: ["nope"]), context: ScanContext()) }
    }

    @Test func kindsNarrowTheScanners() throws {
        let runner = ScanRunner(scanners: [
            FakeScanner(name: "native", findings: [finding("a", .high)]),
            FakeScanner(name: "secrets", kind: .secrets, findings: [finding("b", .high, line: 2)]),
        ])
        let outcome = try runner.run(ScanRequest(root: root, kinds: [.secrets]), context: ScanContext())
        #expect(outcome.report.findings.map(\.ruleId) == ["b"])
    }

    @Test func baselineHidesKnownFindings() throws {
        let known = finding("r1", .high)
        let new = finding("r2", .high, line: 2)
        let runner = ScanRunner(scanners: [FakeScanner(name: "native", findings: [known, new])])
        let baselinePath = root + "/baseline.json"
        try Baseline.write([known], to: baselinePath)
        let request = ScanRequest(root: root, baseline: try Baseline.load(baselinePath))
        let outcome = try runner.run(request, context: ScanContext())
        #expect(outcome.report.findings.map(\.ruleId) == ["r2"])
        #expect(outcome.report.baselinedCount == 1)
    }

    @Test func configSeverityOverridesApply() throws {
        let runner = ScanRunner(scanners: [FakeScanner(name: "native", findings: [finding("r1", .high)])])
        let request = ScanRequest(root: root, config: ScanConfig(severity: ["r1": .low]))
        let outcome = try runner.run(request, context: ScanContext())
        #expect(outcome.report.findings.first?.severity == .low)
        #expect(outcome.exitStatus == .clean)
    }

    // MARK: - Noise (issue 8)

    /// A tree with one source file, test code and a virtual environment.
    private func noisyTree() throws -> String {
        let tree = NSTemporaryDirectory() + "sentinel-noise-\(UUID().uuidString)"
        for file in ["app.py", "tests/test_app.py", "tests/conftest.py", ".venv/lib/site.py", "docs/conf.py"] {
            let path = tree + "/" + file
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path, contents: Data("assert x\n".utf8))
        }
        return tree
    }

    /// Reports what it was given: one assert finding per file.
    private struct EchoScanner: ScanCore.Scanner {
        let name = ToolName.native
        let kind = ScannerKind.sast
        func applies(to target: ScanTarget) -> Bool { true }
        func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
            ScannerOutput(
                findings: target.files.map {
                    Finding(ruleId: "python.assert-used", severity: .low, message: "m", location: Location(file: $0, startLine: 1))
                } + [Finding(ruleId: "python.eval-used", severity: .high, message: "m", location: Location(file: "app.py", startLine: 1))],
                tool: ToolRun(name: name))
        }
    }

    @Test func defaultIgnoresLeaveOutTestsAndEnvironmentsAndCountThem() throws {
        let tree = try noisyTree()
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let outcome = try ScanRunner(scanners: [EchoScanner()]).run(ScanRequest(root: tree), context: ScanContext())
        #expect(outcome.report.filesScanned == 2)
        #expect(outcome.report.excludedByDefault == 3)
        #expect(Set(outcome.report.findings.compactMap(\.location.file)) == ["app.py", "docs/conf.py"])
    }

    @Test func withoutDefaultIgnoresTestsAreScannedButTheirAssertsAreNotReported() throws {
        let tree = try noisyTree()
        defer { try? FileManager.default.removeItem(atPath: tree) }
        var config = ScanConfig()
        config.defaultExcludes = false
        config.exclude = ["docs/"]
        let outcome = try ScanRunner(scanners: [EchoScanner()]).run(ScanRequest(root: tree, config: config), context: ScanContext())
        #expect(outcome.report.filesScanned == 4)
        #expect(outcome.report.excludedByDefault == 0)
        let asserts = outcome.report.findings.filter { $0.ruleId == "python.assert-used" }.compactMap(\.location.file)
        #expect(asserts.sorted() == [".venv/lib/site.py", "app.py"])
    }

    @Test func minimumSeverityHidesAndCountsAndTheGateSeesOnlyWhatIsShown() throws {
        let runner = ScanRunner(scanners: [FakeScanner(name: "native", findings: [finding("r1", .medium), finding("r2", .high, line: 2)])])
        var request = ScanRequest(root: root, gate: Gate(failOn: .medium))
        request.minimumSeverity = .high
        let outcome = try runner.run(request, context: ScanContext())
        #expect(outcome.report.findings.map(\.ruleId) == ["r2"])
        #expect(outcome.report.belowSeverityCount == 1)
        #expect(outcome.exitStatus == .findings)
    }

    @Test func minimumConfidenceHidesAndCountsEveryToolsFindings() throws {
        func sure(_ rule: String, _ confidence: Confidence, line: Int, tool: ToolName = "native") -> Finding {
            var copy = finding(rule, .high, line: line)
            copy.tool = tool
            copy.confidence = confidence
            return copy
        }
        let runner = ScanRunner(scanners: [
            FakeScanner(name: "native", findings: [sure("audit", .low, line: 1), sure("taint", .high, line: 2)]),
            FakeScanner(name: "bandit", findings: [sure("bandit.B608", .low, line: 3, tool: "bandit")]),
        ])
        var request = ScanRequest(root: root, tools: ["native", "bandit"], gate: Gate(failOn: .high))
        #expect(try runner.run(request, context: ScanContext()).report.findings.count == 3, "nil: every confidence")
        request.minimumConfidence = .medium
        let outcome = try runner.run(request, context: ScanContext())
        #expect(outcome.report.findings.map(\.ruleId) == ["taint"])
        #expect(outcome.report.belowConfidenceCount == 2)
        #expect(outcome.report.minimumConfidence == .medium)
        // The gate sees only what is shown: a high-severity audit finding alone fails only at `low`.
        let audit = ScanRunner(scanners: [FakeScanner(name: "native", findings: [sure("audit", .low, line: 1)])])
        var single = ScanRequest(root: root, gate: Gate(failOn: .high))
        single.minimumConfidence = .medium
        #expect(try audit.run(single, context: ScanContext()).exitStatus == .clean)
        single.minimumConfidence = .low
        #expect(try audit.run(single, context: ScanContext()).exitStatus == .findings)
    }

    @Test func badInputFinishesTheScanAndExitsTwo() throws {
        let problem = Notice(level: .error, message: "package-lock.json:3: not valid JSON", tool: "osv")
        let runner = ScanRunner(scanners: [
            FakeScanner(name: "osv", kind: .sca, inputErrors: [problem]),
            FakeScanner(name: "native", findings: [finding("r", .high)]),
        ])
        let outcome = try runner.run(ScanRequest(root: root), context: ScanContext())
        #expect(outcome.exitStatus == .usage)
        #expect(outcome.inputErrors == [problem])
        #expect(outcome.report.notices.filter { $0 == problem }.count == 1)
        #expect(outcome.report.findings.count == 1)
    }

    /// A suppression in a file with CRLF (or lone CR) line endings hides the finding, so the gate
    /// passes: the file's lines are the same lines the scanner counted.
    @Test(arguments: ["\r\n", "\r", "\n"])
    func aSuppressionInAFileWithAnyLineEndingPassesTheGate(newline: String) throws {
        let source = ["x = 1", "os.system(cmd)  # sentinel: ignore[r1] cmd is a constant", "y = 2", ""]
        let path = root + "/a.py"
        _ = FileManager.default.createFile(atPath: path, contents: Data(source.joined(separator: newline).utf8))
        let runner = ScanRunner(scanners: [FakeScanner(name: "native", findings: [finding("r1", .high, line: 2)])])
        let outcome = try runner.run(ScanRequest(root: root), context: ScanContext())
        #expect(outcome.exitStatus == .clean)
        #expect(outcome.report.findings.isEmpty)
        #expect(outcome.report.suppressedCount == 1)
    }
}
