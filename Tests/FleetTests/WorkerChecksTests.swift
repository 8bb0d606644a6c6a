import Fleet
import Foundation
import Store
import Support
import Testing

/// What a worker checks itself, whatever `submit` let through: the queue is writable by anyone who
/// may submit, so a row written straight into it is as hostile as any other input.
@Suite("Worker checks")
struct WorkerChecksTests {
    @Test("a job row carrying a file-naming option fails for good, without running anything")
    func refusedOptionInARow() throws {
        let url = DatabaseURL.sqlite(path: NSTemporaryDirectory() + "worker-" + UUID().uuidString + "/fleet.sqlite")
        let queue = try JobQueue(url: url)
        let spec = FleetJobSpec(kind: .scan, repository: NSTemporaryDirectory(), arguments: ["--config", "/etc/shadow"])
        let id = try queue.submit(JobRequest(kind: .scan, spec: try spec.encoded(), repository: "r"))
        let garbled = try queue.submit(JobRequest(kind: .scan, spec: "{not json", repository: "r"))
        let lines = LogLines()
        // The executable is never reached: /bin/false would fail the job differently.
        let worker = FleetWorker(
            url: url, options: WorkerOptions(executable: "/bin/false", name: "checker"),
            log: JSONLog(redactor: Redactor(), sink: { lines.append($0) }))
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            worker.run()
            done.signal()
        }
        let deadline = Date().addingTimeInterval(120)
        while try queue.counts().failed < 2, Date() < deadline { usleep(50_000) }
        worker.stop.advance(to: .draining)
        done.wait()
        let job = try #require(try queue.job(id))
        #expect(job.state == .failed && job.attempts == 1)
        #expect(
            job.lastError == "--config: not allowed in a fleet scan job (the worker sets it, or it names a file or host of the worker's)")
        #expect(try queue.job(garbled)?.lastError?.hasPrefix("job \(garbled): the stored job description is not valid") == true)
        #expect(lines.all.contains { $0.contains("\"event\":\"job.failed\"") && $0.contains("\"job\":\(id)") })
    }

    @Test("with repository roots, a job naming a directory outside them (or a file:// URL to one) fails without running")
    func outsideRepositoryRoots() throws {
        let url = DatabaseURL.sqlite(path: NSTemporaryDirectory() + "worker-" + UUID().uuidString + "/fleet.sqlite")
        let queue = try JobQueue(url: url)
        let root = NSTemporaryDirectory() + "roots-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/repos", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/repos/escape", withDestinationPath: "/etc")
        var ids: [Int64] = []
        for repository in ["/etc", root + "/repos/escape", "file:///etc", root + "/repos/../", "file://" + root + "/repos/%2e%2e/"] {
            let spec = FleetJobSpec(kind: .scan, repository: repository, arguments: [])
            ids.append(try queue.submit(JobRequest(kind: .scan, spec: try spec.encoded(), repository: repository)))
        }
        var options = WorkerOptions(executable: "/bin/false", name: "rooted")
        options.repositoryRoots = [OutputPlacement.realPath(root + "/repos") ?? root + "/repos"]
        let worker = FleetWorker(url: url, options: options, log: JSONLog(redactor: Redactor(), sink: { _ in }))
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            worker.run()
            done.signal()
        }
        let deadline = Date().addingTimeInterval(120)
        while try queue.counts().failed < ids.count, Date() < deadline { usleep(50_000) }
        worker.stop.advance(to: .draining)
        done.wait()
        for id in ids {
            let job = try #require(try queue.job(id))
            #expect(job.state == .failed && job.lastError?.contains("outside this worker's repository roots") == true, "\(job)")
        }
    }

    @Test("only allowed options reach a worker: a profile by name, no paths, no option-like revisions, no URL credentials")
    func profilePath() {
        for refused in [
            ["--profile", "/etc/sentinel/x.yaml"], ["--profile=../x"], ["--profile", "evil.yaml"], ["--package-index", "/root"],
            ["--policy", "p.yaml"], ["--level", "actor"], ["--jobs", "2", "stray"],
        ] {
            #expect(throws: SentinelError.self, "\(refused)") { try FleetJobSpec.checkArguments(refused, kind: .heal) }
        }
        #expect(throws: Never.self) { try FleetJobSpec.checkArguments(["--profile", "fix-verify", "--jobs", "2"], kind: .heal) }
        for refused in [["--zap", "http://10.0.0.1"], ["--since", "--output=x"], ["--active"], ["--tools", "native", "/etc"]] {
            #expect(throws: SentinelError.self, "\(refused)") { try FleetJobSpec.checkArguments(refused, kind: .scan) }
        }
        #expect(throws: Never.self) {
            try FleetJobSpec.checkArguments(["--tools=native,secrets", "--since", "HEAD~3", "-q", "--exclude", "tests/*"], kind: .scan)
        }
        #expect(throws: Never.self) { try FleetJobSpec.checkArguments(["--active", "--dast-checks", "-dast.sqli"], kind: .dast) }
        #expect(throws: SentinelError.self) { try FleetJobSpec.checkRevision("--upload-pack=x") }
        #expect(throws: SentinelError.self) { try FleetJobSpec.checkRepository("https://bob:ghp_token@git.example/x.git") }
    }
}

/// Log lines written by a worker under test.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
