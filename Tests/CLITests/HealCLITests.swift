#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Heal
import Signals
import TestSupport
import Testing

/// Debian's python3 with pytest (what the fix-verify profile runs).
enum PythonHost {
    static let hasPytest = FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/pytest")
}

/// `sentinel heal` end to end on copies of the fixture corpus (Tests/Fixtures/heal), as a user
/// runs it: exit statuses, the files in --out, and a repository left byte for byte as it was.
@Suite(
    "heal CLI", .serialized,
    .enabled(if: TestHost.canSandbox && PythonHost.hasPytest, "runs pytest in the sandbox: needs root, user namespaces and python3-pytest"))
struct HealCLITests {
    static let corpus = CLI.packageRoot + "/Tests/Fixtures/heal"

    /// A private scratch directory: a copy of a fixture made into a git repository with an
    /// untracked and an ignored file, a state directory and an output path.
    final class Scratch {
        let root: String
        var repo: String { root + "/repo" }
        var home: String { root + "/home" }
        var out: String { root + "/out" }
        var environment: [String: String] {
            var env = ProcessInfo.processInfo.environment
            env["SENTINEL_HOME"] = home
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            return env
        }

        init(fixture: String) throws {
            root = try Self.makeDirectory()
            try FileManager.default.copyItem(atPath: HealCLITests.corpus + "/" + fixture, toPath: repo)
            try? FileManager.default.removeItem(atPath: repo + "/.fixture.json")
            try "*.log\n".write(toFile: repo + "/.gitignore", atomically: false, encoding: .utf8)
            for command in [
                ["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "fixture"],
            ] {
                let result = try CLI.runProgram("/usr/bin/git", ["-C", repo] + command)
                #expect(result.status == 0, "\(result.stderr)")
            }
            try "notes\n".write(toFile: repo + "/NOTES.txt", atomically: false, encoding: .utf8)
            try "debug\n".write(toFile: repo + "/debug.log", atomically: false, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        static func makeDirectory() throws -> String {
            var template = Array("/tmp/heal-cli-XXXXXX".utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw POSIXError(.EIO)
            }
            return String(cString: made)
        }

        /// pytest's output on the repository, as a CI job would save it (`pythonPath`: the
        /// `PYTHONPATH` the project's tests need, `src` for a src layout).
        func pytestSignal(pythonPath: String? = nil) throws -> String {
            var environment = environment
            environment["PYTHONPATH"] = pythonPath
            let result = try CLI.runProgram(
                "/usr/bin/python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider"], environment: environment,
                directory: repo)
            let path = root + "/pytest.txt"
            try result.stdout.write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }

        /// Every entry under the repository (`.git` included): type, mode, size, mtime, content hash.
        func tree() throws -> [String: String] {
            var entries: [String: String] = [:]
            let enumerator = FileManager.default.enumerator(atPath: repo)
            while let name = enumerator?.nextObject() as? String {
                var info = stat()
                guard lstat(repo + "/" + name, &info) == 0 else { continue }
                var content = ""
                if info.st_mode & S_IFMT == S_IFREG {
                    content = String((try Data(contentsOf: URL(fileURLWithPath: repo + "/" + name))).hashValue)
                }
                entries[name] =
                    "\(info.st_mode) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_uid) \(content)"
            }
            return entries
        }
    }

    @Test("a one-line logic bug: exit 0, a patch that applies with git apply, evidence, repository untouched")
    func logicBug() throws {
        let scratch = try Scratch(fixture: "logic-binary-search")
        let signal = try scratch.pytestSignal()
        let before = try scratch.tree()
        let result = try CLI.run(
            ["heal", "--signal", signal, "--repo", scratch.repo, "--verify", "python3 -m pytest -q", "--out", scratch.out],
            environment: scratch.environment, timeout: 600)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("heal: verified fix for 3 failing tests"))
        #expect(result.stdout.contains("actor: logic-repair: search/bsearch.py:line 4: `<` → `<=`"))
        #expect(try scratch.tree() == before)
        let patch = try String(contentsOfFile: scratch.out + "/patch.diff", encoding: .utf8)
        #expect(patch.contains("-    while lo < hi:\n+    while lo <= hi:"))
        let check = try CLI.runProgram("/usr/bin/git", ["-C", scratch.repo, "apply", "--check", scratch.out + "/patch.diff"])
        #expect(check.status == 0, "\(check.stderr)")
        let evidence =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: scratch.out + "/evidence.json"))) as? [String: Any]
        let candidate = try #require(evidence?["candidate"] as? [String: Any])
        #expect(candidate["actor"] as? String == "logic-repair")
        #expect((candidate["verifications"] as? [Any])?.count == 2)
        let confidence = try #require((candidate["confidence"] as? [String: Any])?["value"] as? Double)
        #expect(confidence > 0 && confidence <= 1)
        #expect((evidence?["baseline"] as? [String: Any])?["exitCode"] as? Int == 1)

        // Memory keeps the attempts: list, show, forget.
        let list = try CLI.run(["memory", "list"], environment: scratch.environment)
        #expect(list.status == 0)
        let verified = try #require(list.stdout.split(separator: "\n").first { $0.contains("\tverified\t") })
        let id = String(verified.split(separator: "\t")[0])
        let show = try CLI.run(["memory", "show", id], environment: scratch.environment)
        #expect(show.stdout.contains("verdict: verified"))
        #expect(show.stdout.contains("\nrepository: \(RepositoryIdentity.local(scratch.repo))\n"))
        #expect(show.stdout.contains("+    while lo <= hi:"))
        #expect(try CLI.run(["memory", "forget", id], environment: scratch.environment).status == 0)
        let again = try CLI.run(["memory", "show", id], environment: scratch.environment)
        #expect(again.status == 2)
        #expect(again.stderr == "sentinel: memory: no record \(id)\n")
    }

    /// The src-layout fixture healed with `verify`: the result, the evidence and the patch.
    static func healSourceLayout(_ scratch: Scratch, verify: String, extra: [String] = []) throws -> (
        CLI.Result, [String: Any], String
    ) {
        let signal = try scratch.pytestSignal(pythonPath: "src")
        let result = try CLI.run(
            ["heal", "--signal", signal, "--repo", scratch.repo, "--verify", verify, "--out", scratch.out] + extra,
            environment: scratch.environment, timeout: 600)
        let evidence =
            (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.out + "/evidence.json"))))
            as? [String: Any] ?? [:]
        let patch = (try? String(contentsOfFile: scratch.out + "/patch.diff", encoding: .utf8)) ?? ""
        return (result, evidence, patch)
    }

    @Test(
        "a src layout whose verify command sets PYTHONPATH itself: traced, localised, repaired",
        arguments: [
            "PYTHONPATH=src python3 -m pytest -q",
            "env PYTHONPATH=src pytest -q",
            // Clobbers both ways in: the tracer is then a module at the tree's root, where -m finds it.
            "unset PYTHONPATH PYTHONUSERBASE; PYTHONPATH=src python3 -m pytest -q",
        ])
    func sourceLayout(verify: String) throws {
        let scratch = try Scratch(fixture: "logic-src-layout")
        let before = try scratch.tree()
        let (result, evidence, patch) = try Self.healSourceLayout(scratch, verify: verify)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("heal: verified fix for 2 failing tests"), "\(result.stdout)")
        #expect(result.stdout.contains("\n  actor: logic-repair: src/shelf/stock.py:line 5: `<` → `<=`\n"), "\(result.stdout)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        #expect(patch.contains("-        if count < threshold:\n+        if count <= threshold:"), "\(patch)")
        #expect(((evidence["attempts"] as? [Any])?.count ?? 0) > 0)
        #expect(((evidence["candidate"] as? [String: Any])?["verifications"] as? [Any])?.count == 2)
        #expect(!((evidence["notes"] as? [String]) ?? []).contains { $0.contains("coverage") }, "\(evidence["notes"] ?? "")")
        #expect(try scratch.tree() == before)
    }

    @Test("no coverage trace can be had: one line on stderr says why, the imports localise, the bug is repaired")
    func sourceLayoutUntraceable() throws {
        let scratch = try Scratch(fixture: "logic-src-layout")
        // The console script: no working directory on sys.path, no PYTHONPATH or user site of heal's.
        let (result, evidence, patch) = try Self.healSourceLayout(
            scratch, verify: "unset PYTHONPATH PYTHONUSERBASE; PYTHONPATH=src pytest -q")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let warning =
            "sentinel: warning: heal: coverage tracing unavailable: the verify command's Python cannot import the tracer "
            + "plugin sentinel_heal_trace (the command's own PYTHONPATH replaces the tracer's, and a virtual environment, "
            + "python -I, -E or -s, or its own PYTHONUSERBASE hides the tracer's user site); fault localisation reads the "
            + "modules the failing tests import instead"
        #expect(result.stderr.split(separator: "\n").filter { $0.contains("warning") } == [Substring(warning)], "\(result.stderr)")
        #expect(result.stdout.contains("\n  actor: logic-repair: src/shelf/stock.py:line 5: `<` → `<=`\n"), "\(result.stdout)")
        #expect(patch.contains("+        if count <= threshold:"))
        #expect(((evidence["attempts"] as? [Any])?.count ?? 0) > 0)
        #expect((evidence["notes"] as? [String] ?? []).contains(String(warning.dropFirst("sentinel: warning: heal: ".count))))
    }

    @Test("an actor-level commit is authored by git's identity for the repository, or --author; Sentinel commits")
    func actorAuthor() throws {
        let policy = """
            rules:
              - id: shelf
                allow: [logic-repair]
                paths: ["src/**"]
            actor: {minConfidence: 0.5, maxRisk: high}

            """
        for (author, expected) in [
            (nil, "Grace Hopper <grace@example.org>"), ("Ada Lovelace <ada@example.org>", "Ada Lovelace <ada@example.org>"),
        ] {
            let scratch = try Scratch(fixture: "logic-src-layout")
            for setting in [["user.name", "Grace Hopper"], ["user.email", "grace@example.org"]] {
                #expect(try CLI.runProgram("/usr/bin/git", ["-C", scratch.repo, "config"] + setting).status == 0)
            }
            try policy.write(toFile: scratch.root + "/policy.yml", atomically: false, encoding: .utf8)
            var environment = scratch.environment
            environment["GIT_AUTHOR_NAME"] = nil
            environment["GIT_AUTHOR_EMAIL"] = nil
            let signal = try scratch.pytestSignal(pythonPath: "src")
            let result = try CLI.run(
                [
                    "heal", "--signal", signal, "--repo", scratch.repo, "--verify", "PYTHONPATH=src python3 -m pytest -q",
                    "--level", "actor", "--policy", scratch.root + "/policy.yml",
                ] + (author.map { ["--author", $0] } ?? []), environment: environment, timeout: 600)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("\nautonomy: actor; decided by requested\n"), "\(result.stdout)")
            let branches = try CLI.runProgram(
                "/usr/bin/git", ["-C", scratch.repo, "for-each-ref", "--format=%(refname)", "refs/heads/sentinel"])
            let branch = try #require(branches.stdout.split(separator: "\n").first.map(String.init), "\(branches.stdout)")
            let people = try CLI.runProgram("/usr/bin/git", ["-C", scratch.repo, "log", "-1", "--format=%an <%ae>|%cn <%ce>", branch])
            #expect(people.stdout == "\(expected)|sentinel <sentinel@localhost>\n", "\(people.stdout)")
        }
    }

    @Test("progress in a CI log (stderr not a terminal): a plain line per step, repeated while a step lasts, no escapes")
    func progressOnNonTerminal() throws {
        let scratch = try Scratch(fixture: "sast-yaml-load")
        let report = scratch.root + "/report.sarif"
        _ = try CLI.run(["scan", scratch.repo, "--format", "sarif", "--output", report], environment: scratch.environment)
        var environment = scratch.environment
        environment["SENTINEL_PROGRESS_INTERVAL"] = "1"
        // Each run of the verify command lasts 3 s or more: long enough for a repeated line.
        let result = try CLI.run(
            ["heal", "--signal", report, "--repo", scratch.repo, "--verify", "sleep 3; python3 -m pytest -q"],
            environment: environment, timeout: 600)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let baseline = lines.filter { $0.hasPrefix("sentinel: heal: baseline: running the verify command on the unchanged tree… ") }
        #expect(baseline.count >= 2, "the baseline's line is repeated while it runs: \(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("sentinel: heal: rule-fix: proposing… ") }, "\(result.stderr)")
        // No --max-attempts: the time budget decides, so no "of N" is shown.
        #expect(lines.contains { $0.hasPrefix("sentinel: heal: attempt 1 · rule-fix · verifying… ") }, "\(result.stderr)")
        #expect(lines.allSatisfy { $0.hasPrefix("sentinel: heal: ") && $0.hasSuffix("s") }, "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"), "\(result.stderr.debugDescription)")
        #expect(!result.stdout.contains("sentinel: heal: "))
    }

    @Test("a SAST finding in a SARIF report: the rule's fix, the re-scan clean, the tests green")
    func ruleFix() throws {
        let scratch = try Scratch(fixture: "sast-yaml-load")
        let report = scratch.root + "/report.sarif"
        let scan = try CLI.run(["scan", scratch.repo, "--format", "sarif", "--output", report], environment: scratch.environment)
        #expect(FileManager.default.fileExists(atPath: report), "\(scan.stderr)")
        let before = try scratch.tree()
        let result = try CLI.run(
            ["heal", "--signal", report, "--repo", scratch.repo, "--verify", "python3 -m pytest -q", "--out", scratch.out],
            environment: scratch.environment, timeout: 600)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // The change in words and whole code, not the first line of the rewrite.
        #expect(
            result.stdout.contains(
                "\n  actor: rule-fix: settings/loader.py:8: Call yaml.safe_load(text) instead of yaml.load(text, Loader=yaml.Loader)\n"),
            "\(result.stdout)")
        #expect(result.stdout.contains("re-scan (native): 1 → 0 findings of the rule"))
        let patch = try String(contentsOfFile: scratch.out + "/patch.diff", encoding: .utf8)
        #expect(patch.contains("+    return yaml.safe_load(text)") || patch.contains("yaml.safe_load("))
        #expect(try scratch.tree() == before)
    }

    @Test("a vulnerable pin: the smallest fixed version from a local package index the profile allows")
    func dependencyBump() throws {
        let scratch = try Scratch(fixture: "deps-textutil-newest-breaks")
        let index = scratch.root + "/index"
        let build = try CLI.runProgram("/usr/bin/python3", [Self.corpus + "/packages/make_index.py", index])
        #expect(build.status == 0, "\(build.stderr)")
        let server = try LoopbackHTTPServer { request in
            let path = index + (request.path.hasSuffix("/") ? request.path + "index.html" : request.path)
            guard !request.path.contains(".."), let data = FileManager.default.contents(atPath: path) else {
                return LoopbackHTTPServer.Response(status: 404)
            }
            let type = path.hasSuffix(".html") ? "text/html" : "application/octet-stream"
            return LoopbackHTTPServer.Response(status: 200, headers: [("Content-Type", type)], body: Array(data))
        }
        defer { server.stop() }
        let profile = try String(contentsOfFile: CLI.packageRoot + "/profiles/fix-verify.yaml", encoding: .utf8)
            .replacingOccurrences(of: "name: fix-verify", with: "name: fix-verify-index")
            .replacingOccurrences(of: "network: none", with: "network:\n  mode: proxy\n  allow: [\"127.0.0.1:\(server.port)\"]")
        try profile.write(toFile: scratch.root + "/profile.yaml", atomically: false, encoding: .utf8)
        let imported = try CLI.run(["db", "import", Self.corpus + "/packages/osv"], environment: scratch.environment)
        #expect(imported.status == 0)
        let report = scratch.root + "/report.json"
        _ = try CLI.run(["scan", scratch.repo, "--format", "json", "--output", report], environment: scratch.environment)
        let before = try scratch.tree()
        // Sentinel installs the pin (the baseline's 1.0.1, each candidate's version) from the
        // index through the egress proxy; the verify command is the project's own.
        let result = try CLI.run(
            [
                "heal", "--signal", report, "--repo", scratch.repo, "--verify", "python3 -m pytest -q", "--profile",
                scratch.root + "/profile.yaml", "--out", scratch.out, "--format", "json",
                "--package-index", "\(server.baseURL)/simple/",
            ], environment: scratch.environment, timeout: 600)
        let evidence = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(result.status == 0, "\(String(describing: evidence?["attempts"]))\(String(describing: evidence?["notes"]))\(result.stderr)")
        let candidate = try #require(evidence?["candidate"] as? [String: Any])
        #expect(candidate["description"] as? String == "sentinel-fixture-textutil 1.0.1 → 1.0.2 in requirements.txt")
        #expect((candidate["rescan"] as? [String: Any])?["ruleFindingsAfter"] as? Int == 0)
        #expect(
            (candidate["exercised"] as? String ?? "").hasPrefix(
                "exercised: sentinel-fixture-textutil 1.0.2 installed from the index http://"))
        let baseline = evidence?["baseline"] as? [String: Any]
        #expect((baseline?["dependency"] as? [String: Any])?["imported"] as? String == "1.0.1")
        #expect(try scratch.tree() == before)
    }

    @Test("no verified fix within the budget: exit 1 and an account of every attempt")
    func noFix() throws {
        let scratch = try Scratch(fixture: "logic-bfs-distance")
        let signal = try scratch.pytestSignal()
        let result = try CLI.run(
            [
                "heal", "--signal", signal, "--repo", scratch.repo, "--verify", "python3 -m pytest -q", "--max-attempts", "3",
                "--jobs", "1", "--out", scratch.out,
            ], environment: scratch.environment, timeout: 600)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("heal: no verified fix for"))
        #expect(result.stdout.contains("(stopped: max-attempts)"))
        #expect(result.stdout.contains("  1. logic-repair: "))
        #expect(result.stdout.contains("  3. logic-repair: "))
        #expect(FileManager.default.fileExists(atPath: scratch.out + "/evidence.json"))
        #expect(!FileManager.default.fileExists(atPath: scratch.out + "/patch.diff"))
    }

    @Test("a signal another heal holds is refused with exit 1")
    func locked() throws {
        let scratch = try Scratch(fixture: "logic-binary-search")
        let signal = try scratch.pytestSignal()
        let parsed = try SignalReader.read(path: signal)
        let memory = try HealMemory(path: scratch.home + "/heal.sqlite")
        try memory.acquireLock(parsed[0].fingerprint, pid: 1)
        let result = try CLI.run(
            ["heal", "--signal", signal, "--repo", scratch.repo, "--verify", "python3 -m pytest -q"],
            environment: scratch.environment, timeout: 600)
        #expect(result.status == 1)
        #expect(result.stderr.contains("another heal (pid 1"))
    }
}

/// Bad input: exit 2, one line naming the problem, nothing written.
@Suite("heal CLI input")
struct HealCLIInputTests {
    static func run(_ arguments: [String], home: String) throws -> CLI.Result {
        var env = ProcessInfo.processInfo.environment
        env["SENTINEL_HOME"] = home
        return try CLI.run(["heal"] + arguments, environment: env)
    }

    @Test("unknown signal format, missing repository, empty verify command, a test timeout out of range, unknown level, corrupt memory")
    func badInput() throws {
        let root = try HealCLITests.Scratch.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "just some words\n".write(toFile: root + "/signal.txt", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root + "/repo", withIntermediateDirectories: true)
        let base = ["--signal", root + "/signal.txt", "--repo", root + "/repo", "--verify", "true", "--out", root + "/out"]

        let unknown = try Self.run(base, home: root + "/home")
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "sentinel: \(root)/signal.txt: unknown signal format; \(SignalReader.expected)\n")

        let missing = try Self.run(
            ["--signal", root + "/signal.txt", "--repo", root + "/nope", "--verify", "true"], home: root + "/home")
        #expect(missing.status == 2)
        #expect(missing.stderr == "sentinel: \(root)/nope: repository not found or not a directory\n")

        let empty = try Self.run(
            ["--signal", root + "/signal.txt", "--repo", root + "/repo", "--verify", "  "], home: root + "/home")
        #expect(empty.status == 2)
        #expect(empty.stderr == "sentinel: --verify: the command is empty\n")

        for seconds in ["0", "-1", "nan", "86401"] {
            let limit = try Self.run(base + ["--test-timeout=\(seconds)"], home: root + "/home")
            #expect(limit.status == 2, "\(seconds)")
            #expect(limit.stderr == "sentinel: --test-timeout: must be more than 0 and at most 86400 seconds\n", "\(seconds)")
        }

        let level = try Self.run(base + ["--level", "boss"], home: root + "/home")
        #expect(level.status == 2)
        #expect(
            level.stderr.hasPrefix(
                "Error: The value 'boss' is invalid for '--level <level>'. Please provide one of 'observer', 'proposer' or 'actor'.\n"))
        let index = try Self.run(base + ["--package-index", root + "/no-wheels"], home: root + "/home")
        #expect(index.status == 2)
        #expect(index.stderr == "sentinel: --package-index: \(root)/no-wheels: not a directory or an http(s) URL\n")
        let author = try Self.run(base + ["--author", "Ada Lovelace"], home: root + "/home")
        #expect(author.status == 2)
        #expect(author.stderr == "sentinel: --author: 'Ada Lovelace' is not 'Name <email>'\n")
        let identity = try Self.run(base + ["--repository-id", "a\nb"], home: root + "/home")
        #expect(identity.status == 2)
        #expect(identity.stderr == "sentinel: --repository-id: one line of at most 4096 characters\n")
        let notGit = try Self.run(base + ["--level", "actor"], home: root + "/home")
        #expect(notGit.status == 2)
        #expect(notGit.stderr == "sentinel: \(root)/repo: not a git repository (proposals and branches need one)\n")

        try "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nValueError: x\n".write(
            toFile: root + "/signal.txt", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root + "/bad", withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: root + "/bad/heal.sqlite"))
        let corrupt = try Self.run(base, home: root + "/bad")
        #expect(corrupt.status == 2)
        #expect(corrupt.stderr.contains("heal memory is damaged or not a database"))
        #expect(!FileManager.default.fileExists(atPath: root + "/out"))
    }
}
