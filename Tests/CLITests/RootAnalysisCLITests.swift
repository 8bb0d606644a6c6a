#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// "Root only launches" (issue 53): `sentinel scan` started as root reads the repository as an
/// unprivileged analysis in the sandbox, with the repository read-only and id-shifted to its
/// owner. So it reads exactly what the repository's owner can, never what only root can.
@Suite("scan as root: the repository is read by an unprivileged analysis")
struct RootAnalysisCLITests {
    /// The repository's owner in these tests: an id no account uses.
    static let owner: uid_t = 4242

    /// A repository owned by `owner` holding `owned.py` (the owner's) and `rooted.py` (root's,
    /// mode 0600), each with a committed AWS key, below a directory only root may enter.
    final class Scratch {
        let root: String
        var repository: String { root + "/repo" }

        init() throws {
            root = NSTemporaryDirectory() + "root-analysis-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root + "/repo", withIntermediateDirectories: true)
            chmod(root, 0o700)
            // An issued-looking key (AWS's documented example key is not reported, issue 55).
            let key = "AKIA" + "Q3EGZT7RKMXJ4HVN"
            try "OWNED = \"\(key)\"\n".write(toFile: repository + "/owned.py", atomically: false, encoding: .utf8)
            try "ROOTED = \"\(key)\"\n".write(toFile: repository + "/rooted.py", atomically: false, encoding: .utf8)
            chown(repository, RootAnalysisCLITests.owner, RootAnalysisCLITests.owner)
            chown(repository + "/owned.py", RootAnalysisCLITests.owner, RootAnalysisCLITests.owner)
            chmod(repository + "/owned.py", 0o600)
            chmod(repository + "/rooted.py", 0o600)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test(
        "root's scan reads what the owner can and not what only root can (before: root read rooted.py)",
        .enabled(if: geteuid() == 0))
    func readsAsTheOwnerNotAsRoot() throws {
        let scratch = try Scratch()
        let home = scratch.root + "/home"
        let result = try CLI.run(
            ["scan", "--secrets", "--min-confidence", "low", scratch.repository], environment: CLI.environment(home: home),
            timeout: 300)
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("owned.py:1"), "the owner's file was not read: \(result.stdout)")
        #expect(!result.stdout.contains("rooted.py:1"), "root's own file was read as root: \(result.stdout)")
        #expect(result.stdout.contains("rooted.py: note: skipped: cannot read"), "\(result.stdout)")
    }

    /// Review of the fallback: started inside a directory of the repository the sandbox may not
    /// enter, the launch failed at chdir, and root analysed the repository itself.
    @Test("started in a directory the analysis may not enter: an error, never root's own analysis", .enabled(if: geteuid() == 0))
    func anUnenterableStartDirectoryFailsClosed() throws {
        let scratch = try Scratch()
        let inner = scratch.repository + "/private/deeper"
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        try ("KEY = \"AKIA" + "Q3EGZT7RKMXJ4HVN\"\n").write(toFile: inner + "/k.py", atomically: false, encoding: .utf8)
        for path in [scratch.repository + "/private", inner, inner + "/k.py"] { chown(path, 1234, 1234) }
        chmod(scratch.repository + "/private", 0o700)
        let result = try CLI.run(
            ["scan", "--secrets", scratch.repository], environment: CLI.environment(home: scratch.root + "/home"), timeout: 300,
            directory: inner)
        #expect(result.status == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("the unprivileged analysis cannot enter it"), "\(result.stderr)")
        #expect(!result.stderr.contains("analysing as root"), "\(result.stderr)")
        #expect(!result.stdout.contains("k.py"), "root read the private directory: \(result.stdout)")
    }

    @Test("outputs the command line names are root's: written where only root may write", .enabled(if: geteuid() == 0))
    func outputsAreWrittenByRoot() throws {
        let scratch = try Scratch()
        let outputs = scratch.root + "/out"
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: false)
        chmod(outputs, 0o700)
        let result = try CLI.run(
            [
                "scan", "--secrets", "--format", "sarif", "--output", outputs + "/report.sarif", "--write-baseline",
                outputs + "/baseline.json", scratch.repository,
            ], environment: CLI.environment(home: scratch.root + "/home"), timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try String(contentsOfFile: outputs + "/report.sarif", encoding: .utf8)
        #expect(report.contains("secrets.aws-access-key-id"))
        let baseline = try String(contentsOfFile: outputs + "/baseline.json", encoding: .utf8)
        #expect(baseline.contains("fingerprint"))
        var info = stat()
        #expect(stat(outputs + "/report.sarif", &info) == 0 && info.st_uid == 0)
        #expect(result.stderr.contains("wrote 1 finding to the baseline \(outputs)/baseline.json"), "\(result.stderr)")
    }

    @Test("a relative path, a config outside the repository and --since all resolve as root named them", .enabled(if: geteuid() == 0))
    func pathsResolveAsGiven() throws {
        let scratch = try Scratch()
        let git = { (arguments: [String]) throws in
            let process = try Process.run(URL(fileURLWithPath: "/usr/bin/git"), arguments: ["-C", scratch.repository] + arguments)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        // Only the owner's files: git must read every tracked file, and root's is not the owner's.
        try FileManager.default.removeItem(atPath: scratch.repository + "/rooted.py")
        try "OTHER = \"AKIAIOSFODNN7EXAMPLG\"\n".write(toFile: scratch.repository + "/other.py", atomically: false, encoding: .utf8)
        chown(scratch.repository + "/other.py", Self.owner, Self.owner)
        try git(["init", "-q", "-b", "main"])
        try git(["-c", "safe.directory=*", "add", "-A"])
        try git(["-c", "safe.directory=*", "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "init"])
        try "exclude: [\"other.py\"]\n".write(toFile: scratch.root + "/config.yml", atomically: false, encoding: .utf8)
        try "OTHER = \"AKIAIOSFODNN7EXAMPLH\"\n".write(toFile: scratch.repository + "/other.py", atomically: false, encoding: .utf8)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.repository + "/owned.py"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("NEW = \"AKIAIOSFODNN7EXAMPLF\"\n".utf8))
        try handle.close()
        let result = try CLI.run(
            ["scan", "--secrets", "--config", "../config.yml", "--since", "HEAD", "."],
            environment: CLI.environment(home: scratch.root + "/home"), timeout: 300, directory: scratch.repository)
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("owned.py:2"), "\(result.stdout)")
        #expect(!result.stdout.contains("owned.py:1"), "--since HEAD kept an unchanged line: \(result.stdout)")
        #expect(!result.stdout.contains("other.py"), "the config outside the repository was not read: \(result.stdout)")
    }

    /// `scan --dast` as root analysed the directory as root until the web scan moved into the
    /// analysis too: the canary's socket is root's, lent; everything else is the analysis's.
    @Test(
        "scan --dast as root: the directory is read as its owner, the web scan's canary still answers",
        .enabled(if: geteuid() == 0 && VulnerableApp.pythonAvailable))
    func webScanReadsAsTheOwner() throws {
        let scratch = try Scratch()
        let app = try VulnerableApp()
        defer { app.stop() }
        let result = try CLI.run(
            [
                "scan", "--secrets", "--min-confidence", "low", "--dast", app.url, "--active", "--rate", "500", "--format", "json",
                scratch.repository,
            ], environment: CLI.environment(home: scratch.root + "/home"), timeout: 600)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("as root"), "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let files = (report["findings"] as? [[String: Any]] ?? []).compactMap { ($0["location"] as? [String: Any])?["file"] as? String }
        #expect(files.contains("owned.py"), "the owner's file was not read: \(files)")
        #expect(!files.contains("rooted.py"), "root's own file was read as root: \(files)")
        // The out-of-band check answered through the canary root lent (SSRF: the app fetches it).
        #expect(result.stdout.contains("dast.ssrf"), "\(result.stdout.prefix(4000))")
    }

    @Test(
        "scan --dast --zap as root: ZAP's API through the analysis's egress, its key from a root-only file by descriptor",
        .enabled(if: geteuid() == 0 && VulnerableApp.pythonAvailable))
    func zapThroughTheAnalysis() throws {
        let scratch = try Scratch()
        let app = try VulnerableApp()
        defer { app.stop() }
        let key = "zap-key-\(UInt32.random(in: 0...UInt32.max))"
        let zap = try FakeZAPServer(apiKey: key, alerts: [FakeZAPServer.alert(["url": app.url])])
        defer { zap.stop() }
        let keyFile = scratch.root + "/zap.key"
        try (key + "\n").write(toFile: keyFile, atomically: false, encoding: .utf8)
        chmod(keyFile, 0o600)
        let result = try CLI.run(
            [
                "scan", "--dast", app.url, "--zap", zap.server.baseURL, "--zap-key-file", keyFile, "--max-duration", "60s",
                "--format", "json", "--fail-on", "none", scratch.repository,
            ], environment: CLI.environment(home: scratch.root + "/home"), timeout: 600)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("as root"), "\(result.stderr)")
        #expect(!zap.calls.isEmpty && zap.calls.allSatisfy { $0.apiKey == key }, "\(zap.calls)")
        #expect(result.stdout.contains("Content Security Policy"), "\(result.stdout.prefix(3000))")
    }

    /// On root's terminal the analysis has a terminal of its own, relayed through the
    /// launcher's filter: progress is drawn (it was not, in the analysis) and findings printed.
    @Test("scan as root on a terminal: progress drawn through the filtered relay", .enabled(if: geteuid() == 0))
    func progressOnATerminal() throws {
        let scratch = try Scratch()
        let command = "\(CLI.binary) scan --secrets --min-confidence low '\(scratch.repository)'; echo \"exit=$?\""
        var environment = CLI.environment(home: scratch.root + "/home")
        environment["TERM"] = "xterm"
        let result = try CLI.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"], environment: environment, timeout: 300)
        #expect(result.stdout.contains("exit=1"), "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains("\u{1B}[K"), "no progress line was drawn: \(result.stdout.debugDescription)")
        #expect(result.stdout.contains("owned.py:1"), "\(result.stdout.debugDescription)")
        #expect(!result.stdout.contains("as root"), "\(result.stdout.debugDescription)")
    }
}
