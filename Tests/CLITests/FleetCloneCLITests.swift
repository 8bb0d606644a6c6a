#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Store
import TestSupport
import Testing

/// Fleet jobs that need a checkout (issue 58, "clones work"), end to end: a real worker on a
/// SQLite queue, real git, the `sentinel` binary. Local repositories (`--rev`, `file://`) under
/// the worker's roots, http URLs from a loopback git server (git's dumb HTTP) on the worker's
/// `--clone-host` list, the time and size bounds, and hostile source repositories whose hooks,
/// filters, submodules and links must not act.
@Suite(
    "Fleet clones, end to end", .serialized, .integration,
    .enabled(if: TestHost.canSandbox, "clones run in the sandbox: needs root and user namespaces"))
struct FleetCloneCLITests {
    static let roots = ["--repository-root", CLI.fleetRepositories]

    /// Runs `git ARGS` here (a test's own set-up, outside any sandbox).
    @discardableResult
    static func git(_ arguments: [String], in directory: String? = nil) throws -> String {
        let result = try CLI.runProgram(
            "/usr/bin/git", ["-c", "user.name=t", "-c", "user.email=t@e", "-c", "protocol.file.allow=always"] + arguments,
            directory: directory)
        #expect(result.status == 0, "git \(arguments.joined(separator: " ")): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A repository under the worker's roots with two commits: `a.py` (a finding) first, then
    /// `b.py` (a secret), tagged `v2`. Returns its path and the first commit's id.
    static func repository(extra: [String: String] = [:]) throws -> (path: String, first: String) {
        let path = try CLI.tree(
            ["a.py": Array("import subprocess\n\ndef run(cmd):\n    return subprocess.call(cmd, shell=True)\n".utf8)],
            prefix: "clone-source", in: CLI.fleetRepositories)
        try git(["init", "-q", "-b", "main"], in: path)
        try git(["add", "-A"], in: path)
        try git(["commit", "-qm", "one"], in: path)
        let first = try git(["rev-parse", "HEAD"], in: path)
        var files = extra
        files["b.py"] = "PASSWORD = 'hunter2-second-commit-longer'\n"
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name)) }
        try git(["add", "-A"], in: path)
        try git(["commit", "-qm", "two"], in: path)
        try git(["tag", "v2"], in: path)
        return (path, first)
    }

    /// Starts a worker with `options`, submits each of `submissions` (`fleet submit scan` words),
    /// waits until every job has ended (no retry left pending), stops the worker and returns the jobs.
    static func run(_ submissions: [[String]], worker options: [String], database: String) throws -> [Job] {
        let environment = try CLI.fleetEnvironment(database: database)
        var ids: [Int64] = []
        for words in submissions {
            let submitted = try CLI.run(["fleet", "submit", "scan"] + words + ["--tools", "native,secrets"], environment: environment)
            #expect(submitted.status == 0, "\(words): \(submitted.stderr)")
            ids.append(try #require(Int64(submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines))))
        }
        let worker = try FleetProcess(["worker", "--retry-base", "1s"] + options, environment: environment)
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        let ended: Set<JobState> = [.succeeded, .failed, .dead, .cancelled]
        let done = try eventually(timeout: 600) { try ids.allSatisfy { try queue.job($0).map { ended.contains($0.state) } ?? false } }
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 120) == 0)
        #expect(done, "\(Self.logTail(worker))")
        return try ids.map { try #require(try queue.job($0)) }
    }

    /// The end of a worker's standard error, JSON or not (a start-up failure is one plain line).
    static func logTail(_ worker: FleetProcess) -> String {
        String(((try? String(contentsOfFile: worker.logPath, encoding: .utf8)) ?? "").suffix(2000))
    }

    static func database() -> String { "sqlite:" + NSTemporaryDirectory() + "fleet-clone-" + UUID().uuidString + "/fleet.sqlite" }

    /// The files a succeeded scan job's findings are in.
    static func findingFiles(_ job: Job, database: String) throws -> Set<String> {
        let stored = try #require(try JobQueue(url: DatabaseURL(parsing: database)).result(job.id))
        return Set(stored.findings.map { String($0.location.prefix { $0 != ":" }) })
    }

    @Test("--rev on a local directory (branch, tag, commit id) and a file:// URL are cloned and scanned at the revision")
    func localRevisions() throws {
        let database = Self.database()
        let (path, first) = try Self.repository()
        let jobs = try Self.run(
            [
                [path, "--rev", "main"], [path, "--rev", "v2"], [path, "--rev", first], ["file://" + path],
                ["file://" + path, "--rev", first],
            ],
            worker: Self.roots, database: database)
        for job in jobs { #expect(job.state == .succeeded && job.attempts == 1, "\(job.request.repository): \(job.lastError ?? "")") }
        #expect(try Self.findingFiles(jobs[0], database: database) == ["a.py", "b.py"])
        #expect(try Self.findingFiles(jobs[1], database: database) == ["a.py", "b.py"])
        #expect(try Self.findingFiles(jobs[2], database: database) == ["a.py"])
        #expect(try Self.findingFiles(jobs[3], database: database) == ["a.py", "b.py"])
        #expect(try Self.findingFiles(jobs[4], database: database) == ["a.py"])
    }

    @Test("deterministic failures fail at once, never retried: no such revision, a path outside the roots, a linked work tree")
    func deterministicFailures() throws {
        let database = Self.database()
        let (path, _) = try Self.repository()
        let outside = try TemporaryDirectory.make("clone-outside")
        try Self.git(["init", "-q", "-b", "main", outside])
        // A linked work tree's `.git` names a directory of another repository, which is not cloned.
        let linked = CLI.fleetRepositories + "/clone-linked-" + UUID().uuidString
        try Self.git(["worktree", "add", "-q", linked], in: path)
        let jobs = try Self.run(
            [[path, "--rev", "no-such-revision"], [outside, "--rev", "main"], ["file://" + outside], [linked, "--rev", "HEAD"]],
            worker: Self.roots, database: database)
        for job in jobs { #expect(job.state == .failed && job.attempts == 1, "\(job.request.repository): \(job.lastError ?? "")") }
        #expect(jobs[0].lastError == "invalid: \(path): no revision 'no-such-revision' in the repository")
        #expect(jobs[1].lastError?.contains("outside this worker's repository roots") == true)
        #expect(jobs[2].lastError?.contains("outside this worker's repository roots") == true)
        #expect(jobs[3].lastError?.contains("not a git repository") == true, "\(jobs[3].lastError ?? "")")
    }

    /// A loopback server answering git's dumb HTTP from `bare` (after `git update-server-info`).
    static func dumbServer(_ bare: String, delay: Double = 0) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            let path = String(request.path.prefix { $0 != "?" })
            guard !path.contains(".."), let data = FileManager.default.contents(atPath: bare + path) else {
                return .init(status: 404)
            }
            return .init(status: 200, headers: [("Content-Type", "application/octet-stream")], body: Array(data))
        }
    }

    /// A bare copy of `path` served as `/repo.git`, in a directory of its own.
    static func served(_ path: String) throws -> String {
        let parent = try TemporaryDirectory.make("clone-served")
        try git(["clone", "-q", "--bare", path, parent + "/repo.git"])
        try git(["update-server-info"], in: parent + "/repo.git")
        return parent
    }

    @Test(
        "an http:// URL on the --clone-host list is cloned from a loopback git server (by address or by name), at a revision too; a missing repository fails at once"
    )
    func httpClone() throws {
        let database = Self.database()
        let (path, first) = try Self.repository()
        let server = try Self.dumbServer(try Self.served(path))
        defer { server.stop() }
        let url = server.baseURL + "/repo.git"
        // `localhost` resolves to loopback, which the egress proxy reaches only when an entry names it.
        let named = "http://localhost:\(server.port)/repo.git"
        let jobs = try Self.run(
            [[url], [url, "--rev", first], [server.baseURL + "/missing.git"], [named]],
            worker: ["--clone-host", "127.0.0.1:\(server.port)", "--clone-host", "localhost:\(server.port)"], database: database)
        #expect(jobs[0].state == .succeeded && jobs[0].attempts == 1, "\(jobs[0].lastError ?? "")")
        #expect(jobs[1].state == .succeeded && jobs[1].attempts == 1, "\(jobs[1].lastError ?? "")")
        #expect(try Self.findingFiles(jobs[0], database: database) == ["a.py", "b.py"])
        #expect(try Self.findingFiles(jobs[1], database: database) == ["a.py"])
        #expect(jobs[2].state == .failed && jobs[2].attempts == 1, "\(jobs[2].lastError ?? "")")
        #expect(jobs[3].state == .succeeded && jobs[3].attempts == 1, "\(jobs[3].lastError ?? "")")
    }

    @Test("a server answering 503 is retried (transient); a redirect to a host not listed reaches nothing (the proxy's one host)")
    func transientAndRedirect() throws {
        let database = Self.database()
        let unavailable = try LoopbackHTTPServer { _ in .init(status: 503) }
        defer { unavailable.stop() }
        let bystander = try LoopbackHTTPServer { _ in .init(status: 404) }
        defer { bystander.stop() }
        let target = bystander.baseURL
        let redirecting = try LoopbackHTTPServer { request in .init(status: 302, headers: [("Location", target + request.path)]) }
        defer { redirecting.stop() }
        let jobs = try Self.run(
            [
                [unavailable.baseURL + "/repo.git", "--max-attempts", "2"],
                [redirecting.baseURL + "/repo.git", "--max-attempts", "2"],
            ],
            worker: ["--clone-host", "127.0.0.1:\(unavailable.port)", "--clone-host", "127.0.0.1:\(redirecting.port)"],
            database: database)
        #expect(jobs[0].state == .dead && jobs[0].attempts == 2, "\(jobs[0].lastError ?? "")")
        #expect(jobs[0].lastError?.contains("503") == true, "\(jobs[0].lastError ?? "")")
        #expect(!unavailable.requests.isEmpty)
        #expect(jobs[1].state == .failed || jobs[1].state == .dead, "\(jobs[1].lastError ?? "")")
        #expect(!redirecting.requests.isEmpty && bystander.requests.isEmpty)
    }

    @Test("a remote not on the allow-list, ssh and a URL with credentials are refused at once: one attempt, no request made")
    func refusedRemotes() throws {
        let database = Self.database()
        let (path, _) = try Self.repository()
        let server = try Self.dumbServer(try Self.served(path))
        defer { server.stop() }
        let url = server.baseURL + "/repo.git"
        // ssh is refused at submission, and by the worker for a row written straight into the queue.
        let environment = try CLI.fleetEnvironment(database: database)
        for ssh in ["ssh://127.0.0.1/repo.git", "git@127.0.0.1:repo.git"] {
            let submitted = try CLI.run(["fleet", "submit", "scan", ssh], environment: environment)
            #expect(submitted.status == 2)
            #expect(
                submitted.stderr
                    == "sentinel: \(ssh): workers clone http(s) and file:// URLs only (ssh would run their ssh with their keys)\n")
        }
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        let ssh = try queue.submit(
            JobRequest(kind: .scan, spec: #"{"arguments":[],"kind":"scan","repository":"ssh://127.0.0.1/repo.git"}"#, repository: "x"))
        // Without --clone-host no remote is cloned; with another host listed, this one is not.
        let none = try Self.run([[url]], worker: [], database: database)
        #expect(none[0].state == .failed && none[0].attempts == 1)
        #expect(
            none[0].lastError
                == "invalid: \(url): this worker clones no remote repository: it was started without --clone-host (the hosts it may clone from)"
        )
        let sshJob = try #require(try queue.job(ssh))
        #expect(sshJob.state == .failed && sshJob.attempts == 1)
        #expect(sshJob.lastError?.hasPrefix("invalid: ssh://127.0.0.1/repo.git: ssh remotes are not cloned") == true)
        let other = Self.database()
        let otherQueue = try JobQueue(url: DatabaseURL(parsing: other))
        // Written straight into the queue (submit refuses it): the worker checks again.
        let smuggled = try otherQueue.submit(
            JobRequest(
                kind: .scan, spec: #"{"arguments":[],"kind":"scan","repository":"http://u:secret@127.0.0.1/x.git"}"#, repository: "x"))
        let listed = try Self.run([[url]], worker: ["--clone-host", "git.example.com"], database: other)
        #expect(listed[0].state == .failed && listed[0].attempts == 1)
        #expect(listed[0].lastError?.hasSuffix("clones from (--clone-host)") == true, "\(listed[0].lastError ?? "")")
        let credentials = try #require(try otherQueue.job(smuggled))
        #expect(credentials.state == .failed && credentials.attempts == 1)
        #expect(credentials.lastError?.contains("carries no credentials") == true, "\(credentials.lastError ?? "")")
        #expect(server.requests.isEmpty)
    }

    @Test("bad worker options fail at once with one line: a --clone-host that is a URL, a size below 1M, a duration that is none")
    func badOptions() throws {
        let environment = try CLI.fleetEnvironment(database: Self.database())
        let url = try CLI.run(["fleet", "worker", "--clone-host", "https://git.example"], environment: environment)
        #expect(url.status == 2 && url.stderr == "sentinel: --clone-host: 'https://git.example' is not host, host:port or *.domain\n")
        let small = try CLI.run(["fleet", "worker", "--clone-max-size", "1K"], environment: environment)
        #expect(small.status == 2 && small.stderr == "sentinel: --clone-max-size: must be at least 1M\n")
        let duration = try CLI.run(["fleet", "worker", "--clone-timeout", "soon"], environment: environment)
        #expect(duration.status == 2 && duration.stderr.contains("--clone-timeout"))
    }

    @Test("the bounds: a clone larger than --clone-max-size fails at once; one slower than --clone-timeout fails naming it")
    func bounds() throws {
        let database = Self.database()
        var random = SeededRandom(state: 58)
        let big = try Self.repository(extra: [
            "blob.bin": String((0..<3_000_000).map { _ in Character(UnicodeScalar(UInt8(97 + random.next() % 26))) })
        ])
        let sizeJobs = try Self.run([[big.path, "--rev", "main"]], worker: Self.roots + ["--clone-max-size", "1M"], database: database)
        #expect(sizeJobs[0].state == .failed && sizeJobs[0].attempts == 1)
        #expect(sizeJobs[0].lastError?.hasSuffix("larger than --clone-max-size (1048576 bytes)") == true, "\(sizeJobs[0].lastError ?? "")")

        let (path, _) = try Self.repository()
        let server = try Self.dumbServer(try Self.served(path), delay: 20)
        defer { server.stop() }
        let slow = Self.database()
        let timeJobs = try Self.run(
            [[server.baseURL + "/repo.git", "--max-attempts", "1"]],
            worker: ["--clone-host", "127.0.0.1:\(server.port)", "--clone-timeout", "2s"], database: slow)
        #expect(timeJobs[0].state == .dead && timeJobs[0].attempts == 1)
        #expect(timeJobs[0].lastError?.contains("--clone-timeout (2 s) reached") == true, "\(timeJobs[0].lastError ?? "")")
    }

    @Test("README's fleet example, as it is written, adjusted only for paths")
    func readmeExample() throws {
        let readme = try String(contentsOfFile: CLI.packageRoot + "/README.md", encoding: .utf8)
        let lines = [
            #"sentinel fleet worker --repository-root "$PWD/.." &     # claims jobs until SIGTERM"#,
            #"sentinel fleet submit scan "$PWD" --tools native,secrets"#, "sentinel fleet status",
        ]
        #expect(readme.contains(lines.joined(separator: "\n")), "README's fleet example changed: change this test with it")
        // README's queue: no database named, so the state directory's SQLite file.
        var environment = try CLI.fleetEnvironment(database: Self.database())
        environment["SENTINEL_DATABASE_URL"] = nil
        let project = try CLI.fleetProject()
        // `$PWD` is the project, `$PWD/..` the directory it is in; the words are README's.
        let worker = try FleetProcess(["worker", "--repository-root", project + "/.."], environment: environment)
        let submitted = try CLI.run(
            ["fleet", "submit", "scan", project, "--tools", "native,secrets"], environment: environment, directory: project)
        #expect(submitted.status == 0, "\(submitted.stderr)")
        let succeeded = try eventually(timeout: 300) {
            let status = try CLI.run(["fleet", "status", "--format", "json"], environment: environment, directory: project)
            let counts = try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Int]
            return counts?["succeeded"] == 1 || worker.wait(timeout: 0) != nil
        }
        #expect(succeeded && worker.wait(timeout: 0) == nil, "\(Self.logTail(worker))")
        let status = try CLI.run(["fleet", "status"], environment: environment, directory: project)
        #expect(status.status == 0 && status.stdout.contains("succeeded"), "\(status.stdout)\(status.stderr)")
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 120) == 0)
    }

    @Test("a hostile source: its hook, filter, submodule and escaping link do nothing, in the clone or on the host")
    func hostileSource() throws {
        let database = Self.database()
        let host = try TemporaryDirectory.make("clone-host-markers")
        let outside = try CLI.tree(["secret.py": Array("PASSWORD = 'outside-the-repository-longer'\n".utf8)], prefix: "clone-outside")
        let module = try CLI.tree(["inner.py": Array("PASSWORD = 'in-the-submodule-longer'\n".utf8)], prefix: "clone-module")
        try Self.git(["init", "-q", "-b", "main"], in: module)
        try Self.git(["add", "-A"], in: module)
        try Self.git(["commit", "-qm", "module"], in: module)
        let (path, _) = try Self.repository(extra: [".gitattributes": "*.txt filter=evil\n", "notes.txt": "plain\n"])
        try Self.git(["submodule", "add", "-q", module, "sub"], in: path)
        #expect(symlink(outside + "/secret.py", path + "/leak.py") == 0)
        try Self.git(["add", "-A"], in: path)
        try Self.git(["commit", "-qm", "hostile"], in: path)
        // The source's own configuration and hooks: a smudge filter that writes a secret into the
        // file and a marker on the host, a post-checkout hook and an upload-pack hook doing the same.
        let act = "touch \(host)/ran; printf \"PASSWORD = 'acted-in-the-clone-longer'\\n\""
        try Self.git(["config", "filter.evil.smudge", "sh -c '\(act); cat'"], in: path)
        try Self.git(["config", "filter.evil.clean", "sh -c '\(act); cat'"], in: path)
        try Self.git(["config", "filter.evil.required", "true"], in: path)
        try Self.git(["config", "uploadpack.packObjectsHook", "sh -c '\(act)' --"], in: path)
        try Self.git(["config", "core.fsmonitor", "sh -c '\(act)' --"], in: path)
        let hook = path + "/.git/hooks/post-checkout"
        try Data("#!/bin/sh\n\(act) > hooked.py\n".utf8).write(to: URL(fileURLWithPath: hook))
        chmod(hook, 0o755)
        try Self.git(["config", "core.hooksPath", path + "/.git/hooks"], in: path)

        let jobs = try Self.run([[path, "--rev", "main"], ["file://" + path]], worker: Self.roots, database: database)
        for job in jobs {
            #expect(job.state == .succeeded, "\(job.request.repository): \(job.lastError ?? "")")
            #expect(try Self.findingFiles(job, database: database) == ["a.py", "b.py"])
        }
        #expect(!FileManager.default.fileExists(atPath: host + "/ran"))
    }
}
