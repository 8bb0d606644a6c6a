import Autonomy
import Foundation
import Git
import HTTP
import Support
import Synchronization
import Testing
import TestSupport

/// `GitHubPublisher` against a fake GitHub on 127.0.0.1 that keeps what was created, and
/// against scripted transports for answers a real server rarely gives.
@Suite(.integration) struct GitHubPublisherTests {
    static let token = "ghp_TEST-SECRET-7d1e2f3a4b5c"
    static let baseCommit = "3f786850e387550fdab836ed7e6dc881de23001b"
    static let baseTree = "9c1185a5c5e9fc54612808977ee8f548b2258d31"
    static let branch = "sentinel/fix/python.yaml-load-1a2b3c4d"

    static let draft = PullRequestDraft(
        repository: "octo/demo", base: "main", baseCommit: baseCommit, branch: branch,
        title: "Use yaml.safe_load in config.py", body: "## Summary\nReplaces `yaml.load`.\n",
        commitMessage: "Use yaml.safe_load in config.py\n\nFound by python.yaml-load.",
        changes: [
            FileChange(path: "app/config.py", before: "yaml.load(text)\n", after: "yaml.safe_load(text)\n"),
            FileChange(path: "tests/test_config.py", before: nil, after: "def test_safe():\n    assert True\n"),
            FileChange(path: "legacy/loader.py", before: "import yaml\n", after: nil),
        ],
        labels: ["security", "sentinel"])

    static func server() throws -> FakeGitHubServer {
        try FakeGitHubServer(token: token, commits: [baseCommit: baseTree], branches: ["main": baseCommit])
    }

    static func config(_ server: FakeGitHubServer, token: String = token) -> GitHubConfig {
        GitHubConfig(apiURL: server.apiURL, token: token)
    }

    @Test func publishingCreatesBlobsTreeCommitBranchPullRequestAndLabels() throws {
        let server = try Self.server()
        let published = try GitHubPublisher.publish(Self.draft, config: Self.config(server))

        let commit = try #require(server.commits[published.commit])
        #expect(commit.message == Self.draft.commitMessage)
        #expect(commit.parents == [Self.baseCommit])
        let tree = try #require(server.trees[commit.tree])
        #expect(tree.baseTree == Self.baseTree)
        #expect(tree.entries.map(\.path) == ["app/config.py", "tests/test_config.py", "legacy/loader.py"])
        #expect(tree.entries.allSatisfy { $0.mode == "100644" && $0.type == "blob" })
        let contents = tree.entries.map { entry in entry.sha.map { server.blobs[$0] ?? "<missing blob>" } }
        #expect(contents == ["yaml.safe_load(text)\n", "def test_safe():\n    assert True\n", nil])

        #expect(server.refs == ["main": Self.baseCommit, Self.branch: published.commit])
        let pull = try #require(server.pulls.first)
        #expect(server.pulls.count == 1)
        #expect(pull.title == Self.draft.title && pull.head == Self.branch && pull.base == "main" && pull.body == Self.draft.body)
        #expect(server.labels == [pull.number: ["security", "sentinel"]])
        #expect(
            published
                == PublishedPullRequest(
                    number: 1, url: "https://github.example/octo/demo/pull/1", branch: Self.branch, commit: published.commit))
    }

    @Test func everyRequestCarriesTheAPIHeadersAndFollowsThePlan() throws {
        let server = try Self.server()
        _ = try GitHubPublisher.publish(Self.draft, config: Self.config(server))
        let plan = GitHubPublisher.plan(Self.draft)
        #expect(server.requests.map(\.method) == plan.map(\.method))
        // Paths match except where the plan holds a placeholder (the pull request's number).
        for (sent, planned) in zip(server.requests, plan) where !planned.path.contains("<") { #expect(sent.path == planned.path) }
        for request in server.requests {
            #expect(request.headers["authorization"] == "Bearer \(Self.token)")
            #expect(request.headers["accept"] == "application/vnd.github+json")
            #expect(request.headers["x-github-api-version"] == "2022-11-28")
            #expect(request.headers["user-agent"] == "sentinel")
            #expect(request.headers["content-type"] == (request.method == "POST" ? "application/json" : nil))
        }
    }

    @Test func planListsTheRequestsInOrderWithPlaceholders() throws {
        let plan = GitHubPublisher.plan(Self.draft)
        #expect(
            plan.map(\.description) == [
                "GET /repos/octo/demo/git/commits/\(Self.baseCommit)", "POST /repos/octo/demo/git/blobs",
                "POST /repos/octo/demo/git/blobs", "POST /repos/octo/demo/git/trees", "POST /repos/octo/demo/git/commits",
                "POST /repos/octo/demo/git/refs", "POST /repos/octo/demo/pulls",
                "POST /repos/octo/demo/issues/<number of the new pull request>/labels",
            ])
        #expect(plan[0].body == nil)
        #expect(plan[1].body == #"{"content":"eWFtbC5zYWZlX2xvYWQodGV4dCkK","encoding":"base64"}"#)
        let tree = try Self.object(plan[3])
        #expect(tree["base_tree"] as? String == "<tree of the base commit>")
        let entries = try #require(tree["tree"] as? [[String: Any]])
        #expect(entries.map { $0["sha"] as? String } == ["<sha of blob 1>", "<sha of blob 2>", nil])
        #expect(entries[2]["sha"] is NSNull && entries[2]["path"] as? String == "legacy/loader.py")
        let commit = try Self.object(plan[4])
        #expect(commit["tree"] as? String == "<sha of the new tree>" && commit["parents"] as? [String] == [Self.baseCommit])
        #expect(plan[5].body == #"{"ref":"refs/heads/\#(Self.branch)","sha":"<sha of the new commit>"}"#)
        let pull = try Self.object(plan[6])
        #expect(pull.keys.sorted() == ["base", "body", "head", "title"])
        #expect(pull["title"] as? String == Self.draft.title && pull["body"] as? String == Self.draft.body)
        #expect(pull["head"] as? String == Self.branch && pull["base"] as? String == "main")
        #expect(plan[7].body == #"{"labels":["security","sentinel"]}"#)

        var unlabelled = Self.draft
        unlabelled.labels = []
        #expect(GitHubPublisher.plan(unlabelled).last?.path == "/repos/octo/demo/pulls")
    }

    @Test func anExistingBranchIsRefusedAndNothingIsCreated() throws {
        let server = try Self.server()
        server.existingBranches = [Self.branch]
        let before = server.refs
        let error = try #require(throws: SentinelError.self) { try GitHubPublisher.publish(Self.draft, config: Self.config(server)) }
        #expect(error.code == .github)
        #expect(
            error.message
                == "GitHub octo/demo, create branch: branch '\(Self.branch)' already exists in octo/demo (422 Reference already exists)")
        #expect(server.refs == before && server.pulls.isEmpty)
        #expect(!server.requests.contains { $0.method == "DELETE" })
    }

    @Test func aRejectedTokenIsClearAndCreatesNothing() throws {
        let server = try Self.server()
        let error = try #require(throws: SentinelError.self) {
            try GitHubPublisher.publish(Self.draft, config: Self.config(server, token: "ghp_wrong"))
        }
        #expect(error.code == .github)
        #expect(error.message == "GitHub octo/demo, read base commit: GitHub rejected the token (401 Bad credentials); check the token")
        #expect(server.requests.count == 1)
        #expect(server.refs == ["main": Self.baseCommit] && server.commits.isEmpty && server.pulls.isEmpty)
    }

    @Test func aRateLimitNamesWhenItResetsAndCreatesNothing() throws {
        let server = try Self.server()
        server.rateLimited = true
        let error = try #require(throws: SentinelError.self) { try GitHubPublisher.publish(Self.draft, config: Self.config(server)) }
        #expect(
            error.message
                == "GitHub octo/demo, read base commit: GitHub API rate limit exceeded (403); it resets at 2023-11-14T22:13:20Z")
        #expect(server.requests.count == 1 && server.refs == ["main": Self.baseCommit] && server.pulls.isEmpty)
    }

    @Test(arguments: [422, 500])
    func aFailedPullRequestRemovesTheBranchAgain(status: Int) throws {
        let server = try Self.server()
        server.failPulls = status
        let error = try #require(throws: SentinelError.self) { try GitHubPublisher.publish(Self.draft, config: Self.config(server)) }
        #expect(error.code == .github)
        #expect(error.message.hasPrefix("GitHub octo/demo, open pull request: "))
        #expect(error.message.contains(status == 422 ? "(422 Validation Failed: A pull request already exists" : "server error (500)"))
        #expect(error.message.hasSuffix("; branch '\(Self.branch)' was removed again"))
        #expect(server.refs == ["main": Self.baseCommit] && server.pulls.isEmpty)
        #expect(server.requests.last?.method == "DELETE")
        #expect(server.requests.last?.path == "/repos/octo/demo/git/refs/heads/\(Self.branch)")
    }

    @Test func aBranchNameWithURLCharactersIsRemovedByItsEscapedPath() throws {
        let server = try Self.server()
        server.failPulls = 500
        var draft = Self.draft
        draft.branch = "sentinel/fix#1+%41"
        let error = try #require(throws: SentinelError.self) { try GitHubPublisher.publish(draft, config: Self.config(server)) }
        #expect(error.message.hasSuffix("; branch 'sentinel/fix#1+%41' was removed again"))
        #expect(server.requests.last?.path == "/repos/octo/demo/git/refs/heads/sentinel/fix%231%2B%2541")
        #expect(server.refs == ["main": Self.baseCommit])
    }

    @Test func aBranchThatCannotBeRemovedIsNamed() throws {
        let server = try Self.server()
        server.failPulls = 500
        server.failDeleteRef = 503
        let error = try #require(throws: SentinelError.self) { try GitHubPublisher.publish(Self.draft, config: Self.config(server)) }
        #expect(error.message.contains("removing branch '\(Self.branch)' also failed (GitHub server error (503): Server Error)"))
        #expect(error.message.hasSuffix("delete it by hand"))
        #expect(server.refs[Self.branch] != nil)
    }

    @Test func aBranchCreatedDespiteAServerErrorIsRemoved() throws {
        let server = try Self.server()
        server.failCreateRefAfterCreating = 502
        let error = try #require(throws: SentinelError.self) { try GitHubPublisher.publish(Self.draft, config: Self.config(server)) }
        #expect(error.message.hasPrefix("GitHub octo/demo, create branch: GitHub server error (502): Server Error; "))
        #expect(error.message.hasSuffix("branch '\(Self.branch)' was removed again"))
        #expect(server.refs == ["main": Self.baseCommit] && server.pulls.isEmpty)
    }

    @Test func labelsThatCannotBeAddedLeaveAWarningNotAnError() throws {
        let server = try Self.server()
        server.failLabels = 500
        let published = try GitHubPublisher.publish(Self.draft, config: Self.config(server))
        #expect(server.pulls.count == 1 && server.refs[Self.branch] == published.commit)
        #expect(server.labels.isEmpty)
        #expect(
            published.warnings == [
                "pull request #1 is open but its labels were not added: GitHub octo/demo, add labels: GitHub server error (500): Server Error"
            ])
    }

    @Test func aBaseCommitGitHubDoesNotHaveIsNamed() throws {
        let server = try Self.server()
        var draft = Self.draft
        draft.baseCommit = String(repeating: "e", count: 40)
        let error = try #require(throws: SentinelError.self) { try GitHubPublisher.publish(draft, config: Self.config(server)) }
        #expect(
            error.message
                == "GitHub octo/demo, read base commit: base commit \(draft.baseCommit) is not on GitHub (push the base branch first)")
    }

    @Test func anUnknownRepositoryIsNamed() throws {
        let server = try Self.server()
        var draft = Self.draft
        draft.repository = "octo/nope"
        let error = try #require(throws: SentinelError.self) { try GitHubPublisher.publish(draft, config: Self.config(server)) }
        #expect(error.message == "GitHub octo/nope, read base commit: repository octo/nope not found or the token cannot see it (404)")
        #expect(server.requests.map(\.path) == ["/repos/octo/nope/git/commits/\(Self.baseCommit)", "/repos/octo/nope"])
    }

    @Test func anUnreachableServerIsAGitHubErrorNamingTheStep() throws {
        let server = try Self.server()
        let config = Self.config(server)
        server.server.stop()
        let error = try #require(throws: SentinelError.self) { try GitHubPublisher.publish(Self.draft, config: config) }
        #expect(error.code == .github)
        #expect(error.message.hasPrefix("GitHub octo/demo, read base commit: GET \(server.apiURL)/repos/octo/demo/git/commits/"))
        #expect(!error.message.contains(Self.token))
    }

    @Test(arguments: [
        (
            Scripted.reply(403, #"{"message": "Resource not accessible by integration"}"#),
            "forbidden (403): Resource not accessible by integration"
        ),
        (
            Scripted.reply(429, "", headers: [HTTPHeader(name: "Retry-After", value: "60")]),
            "GitHub API rate limit exceeded (429); retry after 60 seconds"
        ),
        (Scripted.reply(503, "<html>garbage\u{0}[[[["), "GitHub server error (503): no message"),
        (Scripted.reply(502, String(repeating: "[", count: 100_000)), "GitHub server error (502): no message"),
        (Scripted.reply(200, #"{"sha": "x"}"#), "GitHub answered 200 without the commit's tree"),
        (Scripted.reply(418, #"{"message": "line one\nline two"}"#), "GitHub refused the request (418 line one line two)"),
    ])
    func unusableAnswersAreOneLineErrors(reply: Scripted.Reply, problem: String) throws {
        let scripted = Scripted([reply])
        let error = try #require(throws: SentinelError.self) {
            try GitHubPublisher.publish(Self.draft, config: GitHubConfig(token: Self.token), send: scripted.send)
        }
        #expect(error.code == .github)
        #expect(error.message == "GitHub octo/demo, read base commit: \(problem)")
        #expect(!error.message.contains("\n"))
        #expect(scripted.sent.map(\.url) == ["https://api.github.com/repos/octo/demo/git/commits/\(Self.baseCommit)"])
    }

    static let invalidDrafts: [(String, PullRequestDraft)] = {
        func with(_ change: (inout PullRequestDraft) -> Void) -> PullRequestDraft {
            var draft = GitHubPublisherTests.draft
            change(&draft)
            return draft
        }
        return [
            ("repository 'octo' is not owner/name", with { $0.repository = "octo" }),
            ("repository 'octo/demo/x' is not owner/name", with { $0.repository = "octo/demo/x" }),
            ("repository 'octo/de mo' is not owner/name", with { $0.repository = "octo/de mo" }),
            ("repository 'octo/..' is not owner/name", with { $0.repository = "octo/.." }),
            ("branch 'fix..x' is not a valid git branch name", with { $0.branch = "fix..x" }),
            ("branch 'fix x' is not a valid git branch name", with { $0.branch = "fix x" }),
            ("branch '-fix' is not a valid git branch name", with { $0.branch = "-fix" }),
            ("branch '/fix' is not a valid git branch name", with { $0.branch = "/fix" }),
            ("branch 'fix~1' is not a valid git branch name", with { $0.branch = "fix~1" }),
            ("branch 'fix:a' is not a valid git branch name", with { $0.branch = "fix:a" }),
            ("branch 'a*b' is not a valid git branch name", with { $0.branch = "a*b" }),
            ("branch 'a[b' is not a valid git branch name", with { $0.branch = "a[b" }),
            ("branch 'a\\b' is not a valid git branch name", with { $0.branch = "a\\b" }),
            ("branch 'a.lock' is not a valid git branch name", with { $0.branch = "a.lock" }),
            ("base branch 'ma^in' is not a valid git branch name", with { $0.base = "ma^in" }),
            ("the branch 'main' is the base branch itself", with { $0.branch = "main" }),
            ("base commit 'HEAD' is not a 40-hex commit id", with { $0.baseCommit = "HEAD" }),
            ("is not a 40-hex commit id", with { $0.baseCommit = String(repeating: "g", count: 40) }),
            ("../etc/passwd: not a path inside the repository", with { $0.changes[0].path = "../etc/passwd" }),
            ("/etc/passwd: not a path inside the repository", with { $0.changes[0].path = "/etc/passwd" }),
            ("app/config.py is changed twice", with { $0.changes[1].path = "app/config.py" }),
            (
                "is neither added, changed nor deleted",
                with {
                    $0.changes[0].after = nil; $0.changes[0].before = nil
                }
            ),
            ("the change touches no file", with { $0.changes = [] }),
            ("the title is empty", with { $0.title = " " }),
            ("a label is empty", with { $0.labels = ["security", ""] }),
        ]
    }()

    @Test(arguments: invalidDrafts)
    func invalidDraftsAreRefusedBeforeAnyRequest(problem: String, draft: PullRequestDraft) throws {
        let scripted = Scripted([Scripted.reply(500, "")])
        let error = try #require(throws: SentinelError.self) {
            try GitHubPublisher.publish(draft, config: GitHubConfig(token: Self.token), send: scripted.send)
        }
        #expect(error.code == .invalidInput)
        #expect(error.message.contains(problem))
        #expect(scripted.sent.isEmpty)
    }

    @Test(arguments: [
        (GitHubConfig(token: ""), "the token is empty"),
        (GitHubConfig(token: "ghp_a\r\nX-Injected: 1"), "the token holds whitespace or a control character"),
        (GitHubConfig(apiURL: "http://api.github.com", token: token), "must be https (plain http only to this machine)"),
        (GitHubConfig(apiURL: "file:///etc", token: token), "must be https"),
    ])
    func invalidConfigurationsAreRefusedBeforeAnyRequest(config: GitHubConfig, problem: String) throws {
        let scripted = Scripted([Scripted.reply(500, "")])
        let error = try #require(throws: SentinelError.self) {
            try GitHubPublisher.publish(Self.draft, config: config, send: scripted.send)
        }
        #expect(error.code == .invalidInput && error.message.contains(problem))
        #expect(!error.message.contains("ghp_a"))
        #expect(scripted.sent.isEmpty)
    }

    @Test func theTokenNeverShowsInErrorsPlansOrDescriptions() throws {
        let quoting = [
            Scripted.reply(401, #"{"message": "Bad credentials: \#(Self.token)"}"#),
            Scripted.reply(403, #"{"message": "token \#(Self.token) lacks scope"}"#),
            Scripted.reply(500, #"{"message": "\#(Self.token)", "errors": ["\#(Self.token)"]}"#),
            Scripted.reply(422, #"{"message": "bad \#(Self.token)"}"#),
        ]
        var shown: [String] = []
        for reply in quoting {
            let scripted = Scripted([reply])
            do {
                _ = try GitHubPublisher.publish(Self.draft, config: GitHubConfig(token: Self.token), send: scripted.send)
            } catch {
                shown += ["\(error)", String(reflecting: error)]
            }
            #expect(scripted.sent.first?.headers["Authorization"] == "Bearer \(Self.token)")
        }
        let failing = Scripted([], failure: SentinelError(.network, "proxy refused Bearer \(Self.token)"))
        #expect(throws: SentinelError.self) {
            try GitHubPublisher.publish(Self.draft, config: GitHubConfig(token: Self.token), send: failing.send)
        }
        do { _ = try GitHubPublisher.publish(Self.draft, config: GitHubConfig(token: Self.token), send: failing.send) } catch {
            shown.append("\(error)")
        }
        #expect(shown.count == 9)
        #expect(shown.allSatisfy { $0.contains("<redacted>") })

        let config = GitHubConfig(token: Self.token)
        var dumped = ""
        dump(config, to: &dumped)
        let plan = GitHubPublisher.plan(Self.draft)
        shown += [String(describing: config), String(reflecting: config), "\(config)", dumped]
        shown += plan.map { "\($0.description) \($0.body ?? "")" }
        for text in shown { #expect(!text.contains(Self.token), "leaked in: \(text)") }
        #expect(String(describing: config) == "GitHubConfig(apiURL: https://api.github.com, token: <redacted>)")
    }

    /// The JSON object of a planned request's body.
    static func object(_ request: GitHubRequest) throws -> [String: Any] {
        let body = try #require(request.body)
        return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    }
}

/// A transport answering with scripted replies in order (the last repeats) and recording what
/// it was asked to send; `failure` makes every send throw instead.
final class Scripted: Sendable {
    /// A status, headers and body.
    struct Reply: Sendable, CustomStringConvertible {
        let status: Int
        let headers: [HTTPHeader]
        let body: [UInt8]

        /// Short, for test names: a body can be 100 kB of garbage.
        var description: String { "HTTP \(status), \(body.count) bytes" }
    }

    private let replies: Mutex<[Reply]>
    private let requests = Mutex<[HTTPRequest]>([])
    private let failure: SentinelError?

    init(_ replies: [Reply], failure: SentinelError? = nil) {
        self.replies = Mutex(replies)
        self.failure = failure
    }

    static func reply(_ status: Int, _ body: String, headers: [HTTPHeader] = []) -> Reply {
        Reply(status: status, headers: headers, body: Array(body.utf8))
    }

    var sent: [HTTPRequest] { requests.withLock { $0 } }

    func send(_ request: HTTPRequest) throws -> (HTTPResponse, [UInt8]) {
        requests.withLock { $0.append(request) }
        if let failure { throw failure }
        let reply = replies.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
        return (HTTPResponse(status: reply.status, headers: reply.headers, bodyBytes: Int64(reply.body.count)), reply.body)
    }
}
