import Autonomy
import Foundation
import Store
import Support
import TestSupport
import Testing

/// Approval with a GitHub repository in the policy: the local branch and the pull request come
/// together or not at all. Every refusal (422 existing branch, 401, 403 rate limit) leaves no
/// local branch, no remote branch, and the proposal pending with the reason.
@Suite("approval with GitHub", .integration)
struct ApprovalGitHubTests {
    static let token = "ghp_approvalTestToken0123456789abcdef"

    /// A repository whose policy (ignored by git, so the tree stays clean) points at a fake
    /// GitHub that knows the repository's HEAD, with one pending proposal.
    func setUp() throws -> (TestRepository, FakeGitHubServer, QueuedProposal) {
        let repo = try TestRepository()
        let head = try repo.git(["rev-parse", "HEAD"])
        let tree = try repo.git(["rev-parse", "HEAD^{tree}"])
        let server = try FakeGitHubServer(token: Self.token, commits: [head: tree], branches: ["main": head])
        try repo.write(".git/info/exclude", ".sentinel/\n")
        repo.githubAPI = server.apiURL
        try repo.write(
            ".sentinel/policy.yml",
            """
            github:
              repository: \(server.repository)
              api: \(server.apiURL)
              labels: [sentinel, automated]
            """)
        let outcome = try AutonomyController(state: repo.state, environment: [:]).act(
            AutonomyRequest(
                candidate: try Candidates.ruleFix(), repository: repo.path, requested: .proposer,
                policy: try Policy.load(path: repo.path + "/.sentinel/policy.yml")))
        return (repo, server, try #require(outcome.proposal))
    }

    func review(_ repo: TestRepository, token: String = ApprovalGitHubTests.token) -> ProposalReview {
        // The GitHub settings are the operator's (a repository's own policy may not name them).
        ProposalReview(
            state: repo.state,
            environment: ["USER": "alice", "GITHUB_TOKEN": token, "SENTINEL_GITHUB_API": repo.githubAPI ?? ""],
            operatorPolicy: try? Policy.load(path: repo.path + "/.sentinel/policy.yml"))
    }

    @Test("approve pushes through the API and opens the pull request with its labels; the audit log has the push")
    func approveOpensPullRequest() throws {
        let (repo, server, proposal) = try setUp()
        defer { server.server.stop() }
        let applied = try review(repo).approve(proposal.id)
        let pull = try #require(applied.pullRequest)
        #expect(server.pulls.count == 1)
        #expect(server.pulls.first?.head == proposal.branch)
        #expect(server.pulls.first?.title == "Fix python.yaml-load in app.py")
        #expect(server.pulls.first?.body.contains("## How to revert") == true)
        #expect(server.labels[pull.number] == ["sentinel", "automated", "security"])
        #expect(server.refs[proposal.branch] != nil)
        #expect(try repo.git(["rev-parse", proposal.branch]) == applied.commit)
        #expect(try AutonomyStore(state: repo.state).find(proposal.id).pullRequest == pull.url)
        #expect(try repo.auditEvents().suffix(2) == ["push", "application"])
        #expect(!(try String(contentsOfFile: repo.audit, encoding: .utf8)).contains(Self.token))
    }

    @Test("422 branch exists, 401 bad token, 403 rate limit: a clear error, nothing half-done, the proposal pending")
    func refusals() throws {
        for failure in ["422", "401", "403"] {
            let (repo, server, proposal) = try setUp()
            defer { server.server.stop() }
            var token = Self.token
            switch failure {
            case "422": server.existingBranches = [proposal.branch]
            case "401": token = "ghp_wrongToken000000000000000000"
            default: server.rateLimited = true
            }
            let refsBefore = server.refs
            let error = #expect(throws: SentinelError.self) { try review(repo, token: token).approve(proposal.id) }
            let message = error?.message ?? ""
            switch failure {
            case "422": #expect(message.contains("already exists"), "\(message)")
            case "401": #expect(message.contains("401"), "\(message)")
            default: #expect(message.contains("rate limit"), "\(message)")
            }
            #expect(message.contains("the local branch was deleted again"), "\(message)")
            #expect(!message.contains(token))
            #expect(server.pulls.isEmpty)
            #expect(server.refs == refsBefore)
            #expect(try repo.git(["branch", "--list", proposal.branch]).isEmpty)
            let stored = try AutonomyStore(state: repo.state).find(proposal.id)
            #expect(stored.status == .pending)
            #expect(stored.reason?.hasPrefix("not applied: ") == true)
            #expect(try repo.auditEvents().suffix(2) == ["push-failed", "application-failed"])
        }
    }

    @Test("--dry-run explains the push: the policy, the files, the repository, the pull request; no token, no push")
    func dryRunExplainsThePush() throws {
        let (repo, server, proposal) = try setUp()
        defer { server.server.stop() }
        let plan = try review(repo).plan(proposal.id)
        #expect(plan.contains("policy: \(repo.path)/.sentinel/policy.yml (--policy)\n"), "\(plan)")
        #expect(plan.contains("files: app.py (changed)\n"), "\(plan)")
        #expect(
            plan.contains(
                "would push branch \(proposal.branch) to octo/demo and open a pull request into main: "
                    + "\"Fix python.yaml-load in app.py\", labels sentinel, automated, security\n"), "\(plan)")
        #expect(plan.contains("  POST /repos/octo/demo/git/blobs (app.py, "), "\(plan)")
        #expect(server.requests.isEmpty, "a dry run sends nothing")

        let unset = try review(repo, token: "").plan(proposal.id)
        #expect(
            unset.hasSuffix(
                "GITHUB_TOKEN is not set: the branch would be committed in this repository only; nothing is pushed to octo/demo\n"),
            "\(unset)")
        #expect(!unset.contains("GitHub requests"))
    }

    @Test("--dry-run refuses an API the approval would refuse (the token only goes to GitHub or SENTINEL_GITHUB_API)")
    func dryRunRefusesForeignAPI() throws {
        let (repo, server, proposal) = try setUp()
        defer { server.server.stop() }
        let foreign = ProposalReview(
            state: repo.state, environment: ["USER": "alice", "GITHUB_TOKEN": Self.token],
            operatorPolicy: try Policy.load(path: repo.path + "/.sentinel/policy.yml"))
        let error = #expect(throws: SentinelError.self) { try foreign.plan(proposal.id) }
        #expect(error?.message.contains("is not GitHub's API") == true, "\(String(describing: error))")
    }
}
