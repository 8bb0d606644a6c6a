import CLICore
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import SentinelCLI

/// What a `ProgressReporter` wrote, in order.
private final class Written: Sendable {
    private let texts = Mutex<[String]>([])

    func append(_ text: String) { texts.withLock { $0.append(text) } }
    var all: String { texts.withLock { $0.joined() } }
    var lines: [String] { all.split(separator: "\n").map(String.init) }

    /// Waits (polling, up to `timeout` seconds: far beyond what the condition needs) until
    /// `condition` holds of what was written; returns whether it did.
    func wait(timeout: Double = 30, until condition: ([String]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            if condition(lines) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition(lines)
    }
}

/// Issue 56: progress while every long phase runs, an external tool's silent minutes included;
/// on stderr only, nothing with `--quiet`.
@Suite struct ProgressReporterTests {
    private func reporter(_ mode: ProgressReporter.Mode) -> (ProgressReporter, Written) {
        let written = Written()
        return (ProgressReporter(mode: mode, write: { written.append($0) }), written)
    }

    @Test("a phase that blocks is shown again every interval while it lasts, then its end with findings and time")
    func aBlockedPhaseIsShownWhileItLasts() {
        let (progress, written) = reporter(.plain(interval: 0.2))
        defer { progress.stop() }
        progress.show(.started(tool: "semgrep", files: 12))
        // Nothing more is reported, as while Semgrep's process runs: the timer speaks for it.
        let repeated = written.wait { $0.filter { $0.hasPrefix("sentinel: semgrep running (") }.count >= 2 }
        #expect(repeated, "\(written.all)")
        progress.show(.finished(tool: "semgrep", findings: 3))
        let lines = written.lines
        #expect(lines.last?.hasPrefix("sentinel: semgrep done: 3 findings in ") == true, "\(written.all)")
        #expect(lines.last?.hasSuffix(" s") == true, "\(written.all)")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("sentinel: semgrep running (") && $0.hasSuffix(" s)") })
        #expect(written.all.hasSuffix("\n"))
        #expect(!written.all.contains("\u{1B}"))
    }

    @Test("files read are counted in the README's words; a named stage says its name; a failure says so")
    func scanEventsInPlainLines() {
        let (progress, written) = reporter(.plain(interval: 0))
        defer { progress.stop() }
        progress.show(.started(tool: "native", files: 160))
        progress.show(.file(tool: "native", index: 50, total: 160, path: "pkg/a.py"))
        progress.show(.finished(tool: "native", findings: 1))
        progress.show(.started(tool: "zap", files: 1))
        progress.show(.step(tool: "zap", "active scan"))
        progress.show(.failed(tool: "zap"))
        let lines = written.lines
        #expect(lines.contains("sentinel: scanning 50/160 files (native)"), "\(written.all)")
        #expect(lines.contains { $0.hasPrefix("sentinel: native done: 1 finding in ") }, "\(written.all)")
        #expect(lines.contains { $0.hasPrefix("sentinel: zap: active scan (") }, "\(written.all)")
        #expect(lines.contains { $0.hasPrefix("sentinel: zap failed after ") }, "\(written.all)")
    }

    @Test("a phase shorter than the interval leaves no line in a CI log, not even its end")
    func aShortPhaseLeavesNoTrace() {
        let (progress, written) = reporter(.plain(interval: 60))
        progress.show(.started(tool: "bandit", files: 3))
        progress.show(.file(tool: "bandit", index: 1, total: 3, path: "a.py"))
        progress.show(.finished(tool: "bandit", findings: 2))
        progress.stop()
        #expect(written.all.isEmpty, "\(written.all)")
    }

    @Test("off (--quiet) writes nothing, whatever is reported and however long")
    func offWritesNothing() {
        let (progress, written) = reporter(.off)
        progress.show(.started(tool: "semgrep", files: 1))
        progress.report("heal", announce: true, plain: { _ in "heal: x" }, terminal: { _ in "x" })
        Thread.sleep(forTimeInterval: 0.3)
        progress.show(.finished(tool: "semgrep", findings: 0))
        progress.stop()
        #expect(written.all.isEmpty)
    }

    @Test("heal's steps are announced at once, with the time since heal began")
    func announcedPhases() {
        let (progress, written) = reporter(.plain(interval: 60))
        defer { progress.stop() }
        progress.report("heal", announce: true, plain: { _ in "heal: baseline: running…" }, terminal: { _ in "baseline" })
        #expect(written.lines == ["sentinel: heal: baseline: running…"])
    }

    @Test("on a terminal one line, overwritten in place, its quoted text escaped; stop erases it")
    func terminalLine() {
        let (progress, written) = reporter(.terminal)
        progress.show(.started(tool: "secrets", files: 2))
        progress.show(.file(tool: "secrets", index: 1, total: 2, path: "evil\u{1B}]0;owned\u{07}.py"))
        let drawn = written.all
        #expect(drawn.hasPrefix("\r\u{1B}[Ksecrets: scanning 2 files 0s"), "\(drawn.debugDescription)")
        #expect(!drawn.contains("\u{1B}]0;"), "\(drawn.debugDescription)")
        progress.stop()
        #expect(written.all.hasSuffix("\r\u{1B}[K"))
        #expect(!written.all.contains("\n"))
    }

    @Test("a phase around a call that blocks: shown while it lasts, no line of its own at the end")
    func aBlockingCall() {
        let (progress, written) = reporter(.plain(interval: 0.2))
        defer { progress.stop() }
        let shown = progress.during("db import: reading 2 paths") {
            written.wait { $0.contains { $0.hasPrefix("sentinel: db import: reading 2 paths (") } }
        }
        #expect(shown, "\(written.all)")
        let count = written.lines.count
        #expect(written.lines.allSatisfy { $0.hasPrefix("sentinel: db import: reading 2 paths (") && $0.hasSuffix(" s)") })
        Thread.sleep(forTimeInterval: 0.5)
        #expect(written.lines.count == count, "the phase ended with the call: \(written.all)")
    }

    @Test("SENTINEL_PROGRESS_INTERVAL sets the interval of plain lines; --quiet turns progress off")
    func modeFromTheEnvironment() {
        #expect(ProgressReporter.Mode.forStderr(quiet: true, environment: ["SENTINEL_PROGRESS_INTERVAL": "1"]) == .off)
        guard !Console.stderrIsTerminal else { return }
        #expect(ProgressReporter.Mode.forStderr(quiet: false, environment: ["SENTINEL_PROGRESS_INTERVAL": "0.5"]) == .plain(interval: 0.5))
        #expect(ProgressReporter.Mode.forStderr(quiet: false, environment: ["SENTINEL_PROGRESS_INTERVAL": "-1"]) == .plain(interval: 5))
        #expect(ProgressReporter.Mode.forStderr(quiet: false, environment: [:]) == .plain(interval: ProgressReporter.defaultInterval))
    }
}

/// The real binary with a stand-in Bandit that takes seconds: the scan says so on stderr while
/// it runs, and stdout carries the report alone.
@Suite struct ProgressCLITests {
    let home = NSTemporaryDirectory() + "sentinel-progress-home-\(UUID().uuidString)"

    /// A tools venv (outside /tmp, which the scan profiles cover) whose `bandit` sleeps, then
    /// prints an empty report.
    static func slowBandit() throws -> String {
        let directory = CLI.packageRoot + "/.build/progress-tests/tools-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/bin", withIntermediateDirectories: true)
        let script = "#!/bin/sh\nsleep 3\necho '{\"results\": [], \"errors\": [], \"metrics\": {}}'\n"
        _ = FileManager.default.createFile(
            atPath: directory + "/bin/bandit", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        // The analysis sandbox (as root) runs as another user: it must enter the path.
        var path = directory
        while path != CLI.packageRoot + "/.build", path.count > 1 {
            chmod(path, 0o755)
            path = (path as NSString).deletingLastPathComponent
        }
        return directory
    }

    @Test("db update: a download that lasts is shown on stderr while it runs; stdout says what was imported")
    func aSlowDownloadIsShownOnStderr() throws {
        let directory = NSTemporaryDirectory() + "sentinel-progress-osv-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: home)
        }
        let record = """
            {"id": "PYSEC-0000-1", "modified": "2024-01-01T00:00:00Z", "affected": [{"package": {"ecosystem": "PyPI", \
            "name": "demo"}, "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"fixed": "1.0"}]}]}]}
            """
        try Data(record.utf8).write(to: URL(fileURLWithPath: directory + "/PYSEC-0000-1.json"))
        let zipped = try CLI.runProgram("/usr/bin/zip", ["-q", "-j", directory + "/all.zip", directory + "/PYSEC-0000-1.json"])
        try #require(zipped.status == 0, "\(zipped.stderr)")
        let export = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/all.zip")))
        // The export takes seconds to come, as a large one does.
        let server = try LoopbackHTTPServer { _ in
            Thread.sleep(forTimeInterval: 3)
            return .init(status: 200, headers: [("ETag", "\"e1\"")], body: export)
        }
        defer { server.stop() }
        var environment = CLI.environment(home: home)
        environment["SENTINEL_OSV_URL"] = nil
        environment["SENTINEL_PROGRESS_INTERVAL"] = "0.5"
        let result = try CLI.run(
            ["db", "update", "--ecosystem", "PyPI", "--url", server.baseURL], environment: environment, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "PyPI: imported 1 files: 1 new, 0 updated, 0 unchanged, 0 problems\n", "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("sentinel: db update: PyPI: downloading (") }, "\(result.stderr)")
        #expect(lines.allSatisfy { $0.hasPrefix("sentinel: db update: PyPI: ") }, "\(result.stderr)")
    }

    @Test("an adapter that runs for seconds: running lines and its end on stderr, none on stdout; --quiet: none")
    func anAdapterRunIsShownOnStderr() throws {
        let tools = try Self.slowBandit()
        let tree = try ScanNoiseCLITests.tree(["app.py": "def f(x):\n    return x\n"])
        defer {
            try? FileManager.default.removeItem(atPath: tools)
            try? FileManager.default.removeItem(atPath: tree)
            try? FileManager.default.removeItem(atPath: home)
        }
        var environment = CLI.environment(home: home)
        environment["SENTINEL_TOOLS"] = tools
        environment["SENTINEL_PROGRESS_INTERVAL"] = "0.5"
        let result = try CLI.run(["scan", tree, "--tools", "bandit", "--format", "json"], environment: environment, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("sentinel: bandit running (") && $0.hasSuffix(" s)") }, "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("sentinel: bandit done: 0 findings in ") }, "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"), "\(result.stderr.debugDescription)")
        #expect(!result.stdout.contains("sentinel:"), "\(result.stdout)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(report?["findings"] != nil, "\(result.stdout)")

        let quiet = try CLI.run(
            ["scan", tree, "--tools", "bandit", "--format", "json", "--quiet"], environment: environment, timeout: 120)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("sentinel: bandit"), "\(quiet.stderr)")
    }
}
