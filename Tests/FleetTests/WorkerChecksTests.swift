import Fleet
import Foundation
import Store
import Support
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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
        var options = WorkerOptions(executable: "/bin/false", name: "checker", audit: try .scratch())
        options.repositoryRoots = [try #require(OutputPlacement.realPath(NSTemporaryDirectory()))]
        let worker = FleetWorker(url: url, options: options, log: JSONLog(redactor: Redactor(), sink: { lines.append($0) }))
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
            job.lastError
                == "invalid: --config: not allowed in a fleet scan job (the worker sets it, or it names a file or host of the worker's)")
        #expect(try queue.job(garbled)?.lastError?.hasPrefix("invalid: job \(garbled): the stored job description is not valid") == true)
        #expect(lines.all.contains { $0.contains("\"event\":\"job.failed\"") && $0.contains("\"job\":\(id)") })
    }

    /// Hostile inputs round 3, finding 6: a DAST job names its target; the worker decides where
    /// it may go. Without `--dast-target` none runs; with it, only listed hosts (never its own
    /// loopback unless listed, whatever a name resolves to).
    @Test("DAST jobs only against the hosts the worker lists; none without a list")
    func dastTargetsAreTheWorkers() throws {
        let url = DatabaseURL.sqlite(path: NSTemporaryDirectory() + "worker-" + UUID().uuidString + "/fleet.sqlite")
        let queue = try JobQueue(url: url)
        var ids: [String: Int64] = [:]
        for target in [
            "http://127.0.0.1:8080/", "http://127.0.0.1.nip.io/", "http://app.example:8443/", "http://[::1]/", "ftp://app.example/",
        ] {
            let spec = FleetJobSpec(kind: .dast, target: target)
            ids[target] = try queue.submit(JobRequest(kind: .dast, spec: try spec.encoded(), repository: target))
        }
        var options = WorkerOptions(executable: "/bin/false", name: "dast", audit: try .scratch())
        options.dastTargets = ["app.example:443", "*.internal.example"]
        try Self.runWorker(options, url: url, untilFailed: ids.count)
        for (target, id) in ids {
            let job = try #require(try queue.job(id))
            #expect(job.state == .failed && job.attempts == 1, "\(target): \(job.state)")
            #expect(job.lastError?.contains("--dast-target") == true || target.hasPrefix("ftp"), "\(target): \(job.lastError ?? "")")
        }
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
        var options = WorkerOptions(executable: "/bin/false", name: "rooted", audit: try .scratch())
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

    /// Runs a worker with `options` on `url` until `count` jobs have failed (or two minutes passed).
    static func runWorker(_ options: WorkerOptions, url: DatabaseURL, untilFailed count: Int) throws {
        let queue = try JobQueue(url: url)
        let worker = FleetWorker(url: url, options: options, log: JSONLog(redactor: Redactor(), sink: { _ in }))
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            worker.run()
            done.signal()
        }
        let deadline = Date().addingTimeInterval(120)
        while try queue.counts().failed < count, Date() < deadline { usleep(50_000) }
        worker.stop.advance(to: .draining)
        done.wait()
    }

    /// A stand-in for `sentinel` that runs `body` (a shell fragment; `$2` is the directory the job
    /// names after `scan`) and fails the job with status 2.
    static func script(_ body: String, in directory: String) throws -> String {
        let path = directory + "/fake-sentinel"
        try "#!/bin/sh\n\(body)\nexit 2\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o755) == 0)
        return path
    }

    /// Red-team R4: a worker started without `--repository-root` (as the README's unit started it)
    /// scanned any directory a submitter named. It now refuses every local repository, a path or a
    /// `file://` URL, and runs nothing for it.
    @Test("without repository roots, a job naming a local directory (or a file:// URL) fails without running")
    func noRootsNoLocalRepository() throws {
        let url = DatabaseURL.sqlite(path: NSTemporaryDirectory() + "worker-" + UUID().uuidString + "/fleet.sqlite")
        let queue = try JobQueue(url: url)
        let scratch = NSTemporaryDirectory() + "no-roots-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch + "/secret", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let marker = scratch + "/ran"
        let executable = try Self.script("echo \"$2\" >> '\(marker)'", in: scratch)
        var ids: [(Int64, String)] = []
        for repository in [scratch + "/secret", "file://" + scratch + "/secret"] {
            let spec = FleetJobSpec(kind: .scan, repository: repository, arguments: [])
            ids.append((try queue.submit(JobRequest(kind: .scan, spec: try spec.encoded(), repository: repository)), repository))
        }
        try Self.runWorker(WorkerOptions(executable: executable, name: "rootless", audit: try .scratch()), url: url, untilFailed: ids.count)
        #expect(!FileManager.default.fileExists(atPath: marker), "the job ran")
        for (id, repository) in ids {
            let job = try #require(try queue.job(id))
            #expect(job.state == .failed && job.attempts == 1, "\(job)")
            #expect(
                job.lastError
                    == "invalid: \(repository): this worker runs no local repository: it was started without --repository-root (a job may name a remote URL)",
                "\(job)")
        }
    }

    /// Red-team R10: the worker checked the repository's path as a string and the job re-opened it
    /// by name, so a component swapped for a link after the check took the scan outside the roots.
    /// Here the job's executable itself makes the swap (deterministically after the check, before
    /// its first look): the directory it is given must still be the one the worker checked.
    @Test("a component swapped for a link after the check: the job still sees the directory that was checked")
    func swappedComponentAfterTheCheck() throws {
        let url = DatabaseURL.sqlite(path: NSTemporaryDirectory() + "worker-" + UUID().uuidString + "/fleet.sqlite")
        let queue = try JobQueue(url: url)
        let top = try #require(OutputPlacement.realPath(NSTemporaryDirectory())) + "/swap-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: top) }
        try FileManager.default.createDirectory(atPath: top + "/repos/team/project", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: top + "/outside/project", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: top + "/repos/team/project/inside.txt", contents: Data())
        FileManager.default.createFile(atPath: top + "/outside/project/outside-secret.txt", contents: Data())
        let marker = top + "/seen"
        let executable = try Self.script(
            """
            mv '\(top)/repos/team' '\(top)/repos/team.moved'
            ln -s '\(top)/outside' '\(top)/repos/team'
            ls "$2" > '\(marker)'
            """, in: top)
        let repository = top + "/repos/team/project"
        let spec = FleetJobSpec(kind: .scan, repository: repository, arguments: [])
        let id = try queue.submit(JobRequest(kind: .scan, spec: try spec.encoded(), repository: repository))
        var options = WorkerOptions(executable: executable, name: "rooted", audit: try .scratch())
        options.repositoryRoots = [top + "/repos"]
        try Self.runWorker(options, url: url, untilFailed: 1)
        #expect(try queue.job(id)?.lastError?.hasPrefix("invalid: sentinel scan exited 2") == true)
        let seen = try String(contentsOfFile: marker, encoding: .utf8)
        #expect(seen == "inside.txt\n", "the job looked outside the roots: \(seen)")
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
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
