#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support
import Synchronization
import TestSupport
import Testing

/// The README's GitHub Actions workflow, run as written: its YAML is read from README.md, each
/// `run:` step runs in bash with the real binary, and the `uses:` steps do what GitHub's actions
/// do — a checkout owned by the runner's user (not the container's root), SARIF validated as the
/// upload action does, artifacts that lose their file modes — against a fake GitHub API and an
/// OSV mirror on loopback. scan → SARIF upload → heal as proposer → approve with the policy from
/// outside the checkout must open the pull request.
@Suite(
    "README CI recipe", .serialized,
    .enabled(
        if: TestHost.canSandbox && PythonHost.hasPytest && FileManager.default.isExecutableFile(atPath: "/usr/bin/zip"),
        "heals in the sandbox and builds an OSV export: needs root, user namespaces, python3-pytest and zip"))
struct CIRecipeCLITests {
    static let token = "ghs_recipeWorkflowToken0123456789abcdef"
    /// The uid actions/checkout leaves the workspace to (the runner's user), not the container's root.
    static let runnerUID: uid_t = 1001

    @Test(
        "scan fails on the finding, SARIF uploads, heal proposes, approve --policy opens the pull request",
        arguments: ["docs/ci.md", "docs/github-actions.yml"])
    func workflowRunsEndToEnd(file: String) throws {
        let workflow = try Workflow.load(CLI.packageRoot + "/" + file)
        #expect(workflow.jobs.map(\.name) == ["scan", "heal", "approve"])
        let runner = try Runner()
        defer { runner.cleanUp() }

        let scan = try runner.run(try #require(workflow.job("scan")), needsFailed: false)
        #expect(scan.failed, "the scan gates on the yaml.load finding")
        // Both lockfiles' ecosystems fetched, so the dependency check runs (not exit 3).
        #expect(runner.mirrorRequests.names.withLock { Set($0) } == ["PyPI", "npm"])
        #expect(scan.exits.first { $0.command.contains("sentinel scan .") }?.status == 1, "\(scan.log)")
        let sarif = try #require(runner.uploadedSARIF.first, "upload-sarif ran")
        #expect(sarif.category == "sentinel")
        #expect(sarif.ruleIds.contains("python.yaml-load"), "\(sarif.ruleIds)")
        #expect(sarif.driver == "Sentinel")
        for uri in sarif.artifactURIs {
            #expect(!uri.hasPrefix("/") && FileManager.default.fileExists(atPath: runner.workspace + "/" + uri), "\(uri)")
        }

        let heal = try runner.run(try #require(workflow.job("heal")), needsFailed: scan.failed)
        #expect(heal.ran && !heal.failed, "\(heal.log)")
        let list = try #require(heal.exits.first { $0.command == "sentinel proposals list" })
        #expect(list.stdout.contains("  pending  "), "\(list.stdout)")
        #expect(list.stdout.contains("sentinel/fix/python.yaml-load-"))

        let approve = try runner.run(try #require(workflow.job("approve")), needsFailed: heal.failed)
        #expect(approve.ran && !approve.failed, "\(approve.log)")
        let output = approve.exits.last?.stdout ?? ""
        // The dry run says what would be pushed where, with the outside policy's repository.
        #expect(output.contains("would commit the patch of proposal "), "\(output)")
        #expect(output.contains("policy: \(runner.runnerTemp)/policy.yml (--policy)\n"), "\(output)")
        #expect(output.contains("files: settings/loader.py (changed)\n"), "\(output)")
        #expect(output.contains("would push branch sentinel/fix/python.yaml-load-"), "\(output)")
        #expect(
            output.contains(
                " to octo/demo and open a pull request into main: \"Fix python.yaml-load in settings/loader.py\", labels sentinel, security\n"
            ), "\(output)")
        #expect(output.contains("GitHub requests to \(runner.github.apiURL) (token from GITHUB_TOKEN: set):"), "\(output)")
        #expect(output.contains("/git/blobs (settings/loader.py, "), "\(output)")
        #expect(output.contains("POST /repos/octo/demo/pulls"), "\(output)")
        #expect(output.contains("opened pull request #1: "), "\(output)")
        let pull = try #require(runner.github.pulls.first)
        #expect(runner.github.pulls.count == 1)
        #expect(pull.head.hasPrefix("sentinel/fix/python.yaml-load-"))
        #expect(pull.base == "main")
        #expect(pull.body.contains("## Evidence") && pull.body.contains("## How to revert"))
        #expect(runner.github.labels[pull.number]?.contains("sentinel") == true)
        #expect(runner.github.refs[pull.head] != nil)
        let changed = runner.github.blobs.values.contains { $0.contains("yaml.safe_load(") }
        #expect(changed, "the pushed tree holds the fixed loader")
    }
}

/// The README's workflow: the composite action (this repository's action.yml, vendored into the
/// checkout as the README says) fetches both lockfiles' advisories, gates on the finding, uploads
/// the SARIF and, asked to heal, leaves a verified proposal.
@Suite(
    "README action workflow", .serialized,
    .enabled(
        if: TestHost.canSandbox && PythonHost.hasPytest && FileManager.default.isExecutableFile(atPath: "/usr/bin/zip"),
        "heals in the sandbox and builds an OSV export: needs root, user namespaces, python3-pytest and zip"))
struct ActionWorkflowCLITests {
    @Test func theCompositeActionScansUploadsAndProposes() throws {
        let workflow = try Workflow.load(CLI.packageRoot + "/README.md", after: "## The CI gate")
        let action = try String(contentsOfFile: CLI.packageRoot + "/action.yml", encoding: .utf8)
        let runner = try Runner(files: Runner.lockfiles.merging([".github/actions/sentinel/action.yml": action]) { a, _ in a })
        defer { runner.cleanUp() }
        let scan = try runner.run(try #require(workflow.job("scan")), needsFailed: false)
        #expect(scan.failed, "the gate fails on the yaml.load finding")
        #expect(runner.mirrorRequests.names.withLock { Set($0) } == ["PyPI", "npm"])
        #expect(scan.exits.last?.command == "exit \"$SENTINEL_STATUS\"" && scan.exits.last?.status == 1, "\(scan.log)")
        let sarif = try #require(runner.uploadedSARIF.first, "upload-sarif ran")
        #expect(sarif.category == "sentinel" && sarif.ruleIds.contains("python.yaml-load"), "\(sarif.ruleIds)")
        let heal = try #require(scan.exits.first { $0.command.hasPrefix("policy=()") }, "the heal step ran")
        #expect(heal.status == 0, "\(heal.stdout)\(heal.stderr)")
        #expect(heal.stdout.contains("  pending  ") && heal.stdout.contains("sentinel/fix/python.yaml-load-"), "\(heal.stdout)")
    }
}

/// Issue 78, W10: a checkout holding its own `sentinel.sarif` (any pull request may commit one)
/// and a scan that stops before writing its report (exit 2). On 7f222c61 the action uploaded
/// whatever `sentinel.sarif` the checkout held, so the pull request's planted report went to code
/// scanning; now the report is written outside the checkout and only this run's is uploaded.
@Suite(
    "The composite action uploads only its own run's report", .serialized,
    .enabled(if: TestHost.canSandbox, "runs the action's scan: needs root and user namespaces"))
struct ActionReportCLITests {
    @Test func aReportTheCheckoutHoldsIsNeverUploaded() throws {
        let action = try String(contentsOfFile: CLI.packageRoot + "/action.yml", encoding: .utf8)
        let planted = """
            {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "planted", "rules": []}},
              "results": [{"ruleId": "planted.rule", "message": {"text": "planted"}}]}]}

            """
        let files = Runner.lockfiles.merging([".github/actions/sentinel/action.yml": action, "sentinel.sarif": planted]) { a, _ in a }
        let runner = try Runner(fixture: nil, files: files)
        defer { runner.cleanUp() }
        let job = Workflow.Job(
            name: "scan", condition: nil, env: ["SENTINEL_HOME": "/tmp/sentinel"],
            steps: [
                Workflow.Step(uses: "actions/checkout@v4"),
                // An operator's mistake stops the scan before it writes (exit 2), as a bad input would.
                Workflow.Step(uses: "./.github/actions/sentinel", with: ["fail-on": "no-such-severity", "heal": "true"]),
            ])
        let scan = try runner.run(job, needsFailed: false)
        #expect(scan.failed && scan.exits.last?.command == "exit \"$SENTINEL_STATUS\"" && scan.exits.last?.status == 2, "\(scan.log)")
        #expect(runner.uploadedSARIF.isEmpty, "\(runner.uploadedSARIF.map(\.ruleIds))")
        #expect(!scan.exits.contains { $0.command.hasPrefix("policy=()") }, "no heal without this run's report: \(scan.log)")
    }
}

/// Issue 76, H4: the README's workflow on a pull request whose own `.sentinel.yml` says
/// `failOn: none` and whose new route runs a query parameter as a command. On 7f222c61 the action
/// had no base and no config input and the scan read the pull request's file: the job passed. Now
/// the action scans against the event's base commit, gates on the base's configuration, and
/// uploads the change to `.sentinel.yml` as a finding beside the injection.
@Suite(
    "README action workflow on a pull request", .serialized,
    .enabled(
        if: TestHost.canSandbox && PythonHost.hasPytest && FileManager.default.isExecutableFile(atPath: "/usr/bin/zip"),
        "runs the action in the sandbox and builds an OSV export: needs root, user namespaces, python3-pytest and zip"))
struct PullRequestActionCLITests {
    @Test func aPullRequestIsGatedByItsBase() throws {
        let workflow = try Workflow.load(CLI.packageRoot + "/README.md", after: "## The CI gate")
        let action = try String(contentsOfFile: CLI.packageRoot + "/action.yml", encoding: .utf8)
        let files = Runner.lockfiles.merging([
            ".github/actions/sentinel/action.yml": action, "app.py": "import flask\n\napp = flask.Flask(__name__)\n",
        ]) { a, _ in a }
        let runner = try Runner(fixture: nil, files: files)
        defer { runner.cleanUp() }
        let base = try Runner.git(["rev-parse", "HEAD"], in: runner.origin)
        try Runner.git(["checkout", "-q", "-b", "pull-request"], in: runner.origin)
        try "failOn: none\n".write(toFile: runner.origin + "/.sentinel.yml", atomically: false, encoding: .utf8)
        try """
        import subprocess
        import flask

        app = flask.Flask(__name__)

        @app.route("/run")
        def run():
            return subprocess.check_output(flask.request.args["cmd"], shell=True)

        """.write(toFile: runner.origin + "/app.py", atomically: false, encoding: .utf8)
        try Runner.git(["add", "-A"], in: runner.origin)
        try Runner.git(["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "pull request"], in: runner.origin)
        try Runner.git(["checkout", "-q", "main"], in: runner.origin)
        runner.pullRequest = (head: "pull-request", base: base)

        let scan = try runner.run(try #require(workflow.job("scan")), needsFailed: false)
        #expect(scan.failed, "\(scan.log)")
        // The heal step runs only when the scan's status is 1: the gate failed.
        #expect(scan.exits.contains { $0.command.hasPrefix("policy=()") }, "\(scan.log)")
        let sarif = try #require(runner.uploadedSARIF.first, "upload-sarif ran")
        #expect(
            Set(sarif.ruleIds) == ["python.taint-command-injection", "sentinel.config-changed"], "\(sarif.ruleIds)")
    }
}

/// The jobs of the README's workflow, in order, as PyYAML reads the block (GitHub's own parser
/// accepts the same YAML).
struct Workflow {
    struct Step {
        var name: String?
        var id: String?
        var uses: String?
        var run: String?
        var condition: String?
        var with: [String: String]
        var env: [String: String]

        init(
            name: String? = nil, id: String? = nil, uses: String? = nil, run: String? = nil, condition: String? = nil,
            with: [String: String] = [:], env: [String: String] = [:]
        ) {
            (self.name, self.id, self.uses, self.run, self.condition, self.with, self.env) = (name, id, uses, run, condition, with, env)
        }
    }

    struct Job {
        var name: String
        var condition: String?
        var env: [String: String]
        var steps: [Step]
    }

    var jobs: [Job]

    func job(_ name: String) -> Job? { jobs.first { $0.name == name } }

    /// A workflow file, or the first ```yaml block after `marker` in a Markdown file.
    static func load(_ path: String, after marker: String = "**GitHub Actions**") throws -> Workflow {
        let script = """
            import json, sys, yaml
            text = open(sys.argv[1], encoding="utf-8").read()
            if sys.argv[1].endswith(".md"):
                start = text.index(sys.argv[2])
                block = text.index("```yaml\\n", start) + len("```yaml\\n")
                text = text[block:text.index("```", block)]
            doc = yaml.safe_load(text)
            def strings(d): return {str(k): str(v) for k, v in (d or {}).items()}
            jobs = []
            for name, job in doc["jobs"].items():
                steps = [{"name": s.get("name"), "id": s.get("id"), "uses": s.get("uses"), "run": s.get("run"), "if": s.get("if"),
                          "with": strings(s.get("with")), "env": strings(s.get("env"))} for s in job["steps"]]
                jobs.append({"name": name, "if": job.get("if"), "env": strings(job.get("env")), "steps": steps})
            print(json.dumps(jobs))
            """
        let parsed = try CLI.runProgram("/usr/bin/python3", ["-c", script, path, marker])
        guard parsed.status == 0, let data = parsed.stdout.data(using: .utf8),
            let jobs = try JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { throw RecipeError("\(path): workflow not read: \(parsed.stderr)") }
        return Workflow(
            jobs: jobs.map { job in
                Job(
                    name: job["name"] as? String ?? "", condition: job["if"] as? String,
                    env: job["env"] as? [String: String] ?? [:],
                    steps: (job["steps"] as? [[String: Any]] ?? []).map { step in
                        Step(
                            name: step["name"] as? String, id: step["id"] as? String, uses: step["uses"] as? String,
                            run: step["run"] as? String,
                            condition: step["if"] as? String,
                            with: step["with"] as? [String: String] ?? [:], env: step["env"] as? [String: String] ?? [:])
                    })
            })
    }
}

struct RecipeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One GitHub-hosted runner per job, as GitHub gives them: a fresh workspace at the same path,
/// a fresh `RUNNER_TEMP` and `SENTINEL_HOME`; only artifacts carry files between jobs.
final class Runner {
    struct Exit {
        var command: String
        var status: Int32
        var stdout: String
        var stderr: String
    }

    struct JobResult {
        var ran: Bool
        var failed: Bool
        var exits: [Exit]
        var log: String { exits.map { "$ \($0.command)\n[\($0.status)]\n\($0.stdout)\($0.stderr)" }.joined(separator: "\n") }
    }

    struct UploadedSARIF {
        var category: String
        var driver: String
        var ruleIds: [String]
        var artifactURIs: [String]
    }

    let root: String
    let origin: String
    let github: FakeGitHubServer
    let mirror: LoopbackHTTPServer
    /// The ecosystems whose exports the mirror served, in order.
    final class ServedExports: Sendable {
        let names = Mutex<[String]>([])
    }
    let mirrorRequests: ServedExports
    private(set) var uploadedSARIF: [UploadedSARIF] = []
    private var artifacts: [String: String] = [:]
    /// A `pull_request` run: the branch of origin the checkout holds and the base commit the
    /// event names; nil for a push to main.
    var pullRequest: (head: String, base: String)?
    /// The repository variable `SENTINEL_CONFIG` (unset: empty, as GitHub gives it).
    var operatorConfig = ""

    var workspace: String { root + "/work/demo/demo" }
    var runnerTemp: String { root + "/runner-temp" }
    /// The outputs of this job's steps so far, by the expression that reads each
    /// (`${{ steps.scan.outputs.sarif }}`).
    private var stepOutputs: [String: String] = [:]
    var state: String { root + "/state" }
    var runnerHome: String { root + "/github-home" }

    /// A Python service with a web front end: both ecosystems' lockfiles pin what they install.
    static let lockfiles = [
        // The version Debian 12 ships (python3-yaml): the heal job's venv finds it installed.
        "requirements.txt": "PyYAML==6.0\n",
        "web/package-lock.json": """
        {"name": "web", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": {
          "": {"name": "web", "version": "1.0.0", "dependencies": {"lodash": "4.17.21"}},
          "node_modules/lodash": {"version": "4.17.21"}}}

        """,
    ]

    /// The repository as GitHub holds it, on main: `files` over the heal fixture with its
    /// yaml.load (its PyPI and npm lockfiles by default), or `files` alone when `fixture` is nil.
    init(
        fixture: String? = "sast-yaml-load", files: [String: String] = Runner.lockfiles, prepare: (String) throws -> Void = { _ in }
    ) throws {
        root = try HealCLITests.Scratch.makeDirectory()
        origin = root + "/origin"
        if let fixture {
            try FileManager.default.copyItem(atPath: HealCLITests.corpus + "/" + fixture, toPath: origin)
            try? FileManager.default.removeItem(atPath: origin + "/.fixture.json")
        }
        for (path, text) in files {
            let file = origin + "/" + path
            try FileManager.default.createDirectory(
                atPath: PathText.directory(of: file), withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: false, encoding: .utf8)
        }
        _ = try Self.git(["init", "-q", "-b", "main"], in: origin)
        try prepare(origin)
        for command in [
            ["add", "-A"],
            ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "fixture"],
        ] {
            _ = try Self.git(command, in: origin)
        }
        let head = try Self.git(["rev-parse", "HEAD"], in: origin)
        let tree = try Self.git(["rev-parse", "HEAD^{tree}"], in: origin)
        github = try FakeGitHubServer(token: CIRecipeCLITests.token, commits: [head: tree], branches: ["main": head])
        let root = root
        let exports = try ["PyPI", "npm"].map { try Runner.osvExport(ecosystem: $0, in: root) }
        let served = ServedExports()
        mirror = try LoopbackHTTPServer { request in
            for (name, export) in zip(["PyPI", "npm"], exports) where request.path.hasSuffix("/\(name)/all.zip") {
                served.names.withLock { $0.append(name) }
                return .init(status: 200, body: export)
            }
            return .init(status: 404)
        }
        mirrorRequests = served
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: projectVenv)
        github.server.stop()
        mirror.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The operator's policy, from the `SENTINEL_POLICY` variable: outside the checkout.
    var policy: String {
        "level: proposer\ngithub:\n  repository: \(github.repository)\n  api: \(github.apiURL)\n  labels: [sentinel]\n"
    }

    /// Runs `job` on a fresh runner; `needsFailed` says whether a job it needs failed.
    func run(_ job: Workflow.Job, needsFailed: Bool) throws -> JobResult {
        guard try evaluate(job.condition, failed: needsFailed) else { return JobResult(ran: false, failed: false, exits: []) }
        for directory in [root + "/work", runnerTemp, state, runnerHome] {
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        var result = JobResult(ran: true, failed: false, exits: [])
        stepOutputs = [:]
        for step in job.steps {
            guard try evaluate(step.condition, failed: result.failed) else { continue }
            // The runner already has the binary under test; DistributionCLITests installs the
            // tarball on a clean root the way this step does.
            if step.name == "Install Sentinel from the release tarball" { continue }
            if let run = step.run {
                let outputFile = runnerTemp + "/github-output-\(UUID().uuidString)"
                FileManager.default.createFile(atPath: outputFile, contents: nil)
                var variables = try environment(job: job, step: step)
                variables["GITHUB_OUTPUT"] = outputFile
                let exit = try shell(run, environment: variables)
                result.exits.append(exit)
                if exit.status != 0 { result.failed = true }
                if let id = step.id {
                    let text = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
                    for line in text.split(separator: "\n") {
                        let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                        if parts.count == 2 { stepOutputs["${{ steps.\(id).outputs.\(parts[0]) }}"] = parts[1] }
                    }
                }
            } else if let uses = step.uses, uses.hasPrefix("./") {
                // A composite action of the checkout's own (this repository's action.yml, vendored).
                let action = try CompositeAction.load(workspace + "/" + uses.dropFirst(2) + "/action.yml")
                let exits = try action.run(
                    on: self, with: try step.with.mapValues(substitute), environment: environment(job: job, step: step))
                result.exits += exits
                if exits.contains(where: { $0.status != 0 }) { result.failed = true }
            } else if let uses = step.uses {
                try perform(uses, with: step.with)
            }
        }
        return result
    }

    /// The expressions the README's workflow uses; any other fails the test, so it is kept in step.
    func evaluate(_ condition: String?, failed: Bool) throws -> Bool {
        switch condition {
        case nil: return !failed
        case "failure() && github.event_name == 'push'": return failed
        case "always() && steps.scan.outputs.sarif != ''":
            return stepOutputs["${{ steps.scan.outputs.sarif }}", default: ""] != ""
        case let other?: throw RecipeError("the test does not know the expression \(other)")
        }
    }

    func environment(job: Workflow.Job, step: Workflow.Step) throws -> [String: String] {
        var environment: [String: String] = [
            "PATH": URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path + ":/usr/local/bin:/usr/bin:/bin",
            "HOME": runnerHome, "CI": "true", "GITHUB_ACTIONS": "true",
            "GITHUB_EVENT_NAME": pullRequest == nil ? "push" : "pull_request",
            "GITHUB_REPOSITORY": github.repository, "GITHUB_WORKSPACE": workspace, "RUNNER_TEMP": runnerTemp,
            "PYTHONDONTWRITEBYTECODE": "1",
            // The operator's mirror and GitHub Enterprise-style API: loopback servers of this test.
            "SENTINEL_OSV_URL": mirror.baseURL, "SENTINEL_GITHUB_API": github.apiURL,
        ]
        for (key, value) in job.env.merging(step.env, uniquingKeysWith: { _, step in step }) {
            environment[key] = try substitute(value)
        }
        return environment
    }

    /// `${{ … }}` values the workflow reads from the repository's settings; paths the workflow
    /// names on the runner are mapped into this test's scratch directory.
    func substitute(_ value: String) throws -> String {
        switch value {
        case "${{ vars.SENTINEL_POLICY }}": return policy
        case "${{ vars.SENTINEL_CONFIG }}": return operatorConfig
        // The event's base commit; a push has no pull request, and the expression is empty.
        case "${{ github.event.pull_request.base.sha }}": return pullRequest?.base ?? ""
        case "${{ secrets.GITHUB_TOKEN }}": return CIRecipeCLITests.token
        // Where the team hosts the tarball: the install step it serves is DistributionCLITests'.
        case "${{ vars.SENTINEL_URL }}": return "http://127.0.0.1:9/unused"
        case "/tmp/sentinel": return state
        case let output where stepOutputs[output] != nil: return stepOutputs[output] ?? ""
        case let path where path.hasPrefix("${{ runner.temp }}/"): return runnerTemp + path.dropFirst("${{ runner.temp }}".count)
        default:
            if value.contains("${{") { throw RecipeError("the test does not know the value \(value)") }
            return value
        }
    }

    /// The project's venv the workflow makes at /usr/local/project (where the sandbox sees it), at a
    /// name of this run's own on this machine, removed by `cleanUp`.
    let projectVenv = "/usr/local/sentinel-test-venv-\(UUID().uuidString.prefix(8))"

    func shell(_ script: String, environment: [String: String]) throws -> Exit {
        let script = script.replacingOccurrences(of: "/usr/local/project", with: projectVenv)
        let result = try CLI.runProgram(
            "/bin/bash", ["--noprofile", "--norc", "-e", "-c", script], environment: environment, directory: workspace,
            timeout: 900)
        return Exit(
            command: script.trimmingCharacters(in: .whitespacesAndNewlines), status: result.status, stdout: result.stdout,
            stderr: result.stderr)
    }

    /// What the actions the workflow names do, as far as the job can see.
    func perform(_ uses: String, with inputs: [String: String]) throws {
        switch uses {
        case "actions/checkout@v4":
            _ = try Self.git(["clone", "-q", origin, workspace], in: root)
            if let pullRequest { _ = try Self.git(["checkout", "-q", pullRequest.head], in: workspace) }
            // In a container job the workspace belongs to the runner's user, not to root.
            try chownTree(workspace, to: CIRecipeCLITests.runnerUID)
        case "github/codeql-action/upload-sarif@v3":
            try uploadSARIF(try absolute(inputs["sarif_file"] ?? ""), category: inputs["category"] ?? "")
        case "actions/upload-artifact@v4":
            let name = try #require(inputs["name"])
            let source = try absolute(try #require(inputs["path"]))
            let stored = root + "/artifacts/" + name
            try FileManager.default.createDirectory(atPath: stored, withIntermediateDirectories: true)
            try copyWithoutModes(source, into: stored, hidden: inputs["include-hidden-files"] == "true")
        case "actions/download-artifact@v4":
            let name = try #require(inputs["name"])
            let stored = root + "/artifacts/" + name
            let destination = try absolute(inputs["path"] ?? ".")
            try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
            try copyWithoutModes(stored, into: destination, hidden: true)
        default: throw RecipeError("the test does not know the action \(uses)")
        }
    }

    private func absolute(_ path: String) throws -> String {
        let mapped = try substitute(path)
        return mapped.hasPrefix("/") ? mapped : workspace + "/" + mapped
    }

    /// Artifacts are zip files: a file comes back 0644, a directory 0755, owned by whoever
    /// unpacks; a directory's contents become the artifact's root, hidden files only when asked.
    private func copyWithoutModes(_ source: String, into directory: String, hidden: Bool) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            return try copyFile(source, to: directory + "/" + URL(fileURLWithPath: source).lastPathComponent)
        }
        for entry in try FileManager.default.contentsOfDirectory(atPath: source) where hidden || !entry.hasPrefix(".") {
            var inner: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: source + "/" + entry, isDirectory: &inner)
            if inner.boolValue {
                let target = directory + "/" + entry
                try FileManager.default.createDirectory(
                    atPath: target, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
                try copyWithoutModes(source + "/" + entry, into: target, hidden: hidden)
            } else {
                try copyFile(source + "/" + entry, to: directory + "/" + entry)
            }
        }
    }

    private func copyFile(_ source: String, to target: String) throws {
        try? FileManager.default.removeItem(atPath: target)
        try Data(contentsOf: URL(fileURLWithPath: source)).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o644)
    }

    /// What github/codeql-action/upload-sarif checks before it uploads: a SARIF 2.1.0 log whose
    /// results name rules and artifacts relative to the checkout.
    private func uploadSARIF(_ path: String, category: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        var ruleIds: [String] = []
        var uris: [String] = []
        for run in runs {
            for result in run["results"] as? [[String: Any]] ?? [] {
                if let rule = result["ruleId"] as? String { ruleIds.append(rule) }
                for location in result["locations"] as? [[String: Any]] ?? [] {
                    let physical = location["physicalLocation"] as? [String: Any]
                    let artifact = physical?["artifactLocation"] as? [String: Any]
                    if let uri = artifact?["uri"] as? String { uris.append(uri) }
                }
            }
        }
        let driver = ((runs.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])?["name"] as? String ?? ""
        uploadedSARIF.append(UploadedSARIF(category: category, driver: driver, ruleIds: ruleIds, artifactURIs: uris))
    }

    private func chownTree(_ path: String, to uid: uid_t) throws {
        let result = try CLI.runProgram("/bin/chown", ["-R", "\(uid):\(uid)", path])
        guard result.status == 0 else { throw RecipeError("chown: \(result.stderr)") }
    }

    @discardableResult
    static func git(_ arguments: [String], in directory: String) throws -> String {
        let result = try CLI.runProgram("/usr/bin/git", ["-C", directory] + arguments)
        guard result.status == 0 else { throw RecipeError("git \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// OSV's export of `ecosystem` as the mirror serves it: one advisory, modified today, in a zip.
    static func osvExport(ecosystem: String, in root: String) throws -> [UInt8] {
        let directory = root + "/osv-export-\(ecosystem)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let modified = ISO8601DateFormatter().string(from: Date())
        let advisory = """
            {"id": "OSV-\(ecosystem)-1", "modified": "\(modified)", "published": "\(modified)",
             "summary": "an advisory of a package the repository does not use",
             "affected": [{"package": {"ecosystem": "\(ecosystem)", "name": "not-a-dependency"},
                           "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"fixed": "1.0"}]}]}]}
            """
        try advisory.write(toFile: directory + "/advisory.json", atomically: false, encoding: .utf8)
        let archive = directory + "/all.zip"
        let zip = try CLI.runProgram("/usr/bin/zip", ["-q", "-j", archive, directory + "/advisory.json"])
        guard zip.status == 0 else { throw RecipeError("zip: \(zip.stderr)") }
        return Array(try Data(contentsOf: URL(fileURLWithPath: archive)))
    }
}
