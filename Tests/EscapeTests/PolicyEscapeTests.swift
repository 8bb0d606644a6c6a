import Autonomy
import Foundation
import Git
import Store
import Support
import TestSupport
import Testing

@testable import Heal
@testable import Signals

/// The autonomy policy is read from the repository, and the repository is hostile input (a pull
/// request can change `.sentinel/policy.yml`). Its settings must not turn into a way to send the
/// operator's GitHub token to another host, or to append to files outside the state directory.
@Suite("autonomy: hostile repository policy")
struct PolicyEscapeTests {
    static let token = "ghp_escapeTestToken0123456789abcdef00"

    final class Repository {
        let root: String
        var path: String { root + "/repo" }
        var home: String { root + "/home" }

        init(policy: String) throws {
            root = try ScratchDirectory.make(prefix: "policy-escape")
            try FileManager.default.createDirectory(atPath: path + "/.sentinel", withIntermediateDirectories: true)
            try "import yaml\nyaml.load(x)\n".write(toFile: path + "/app.py", atomically: false, encoding: .utf8)
            try ".sentinel/\n".write(toFile: path + "/.gitignore", atomically: false, encoding: .utf8)
            try policy.write(toFile: path + "/.sentinel/policy.yml", atomically: false, encoding: .utf8)
            for arguments in [["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "initial"]] {
                _ = try GitRunner.check(arguments, in: path, writable: true)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func candidate() throws -> Candidate {
            let change = FileChange(path: "app.py", before: "import yaml\nyaml.load(x)\n", after: "import yaml\nyaml.safe_load(x)\n")
            return Candidate(
                signal: Signal(kind: .finding, source: "r.sarif", message: "m", ruleId: "python.yaml-load"), actor: .ruleFix,
                description: "d", strategy: "s", patch: try GitPatch.diff([change]), changes: [change],
                confidence: CandidateConfidence(value: 0.95, inputs: [:]), verifications: [], rescan: nil, notes: [], changedLines: 2)
        }
    }

    @Test("a policy naming another GitHub API gets no request, let alone the token, unless the operator allows that API")
    func tokenStaysHome() throws {
        let attacker = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(status: 200, body: Array("{}".utf8)) }
        defer { attacker.stop() }
        let repo = try Repository(policy: "github:\n  repository: victim/app\n  api: \(attacker.baseURL)\n")
        let policy = try Policy.load(path: repo.path + "/.sentinel/policy.yml")
        let state = StateDirectory(path: repo.home)
        let outcome = try AutonomyController(state: state, environment: [:]).act(
            AutonomyRequest(candidate: try repo.candidate(), repository: repo.path, requested: .proposer, policy: policy))
        let id = try #require(outcome.proposal?.id)
        // The repository's own policy may not name a GitHub API at all; even as the operator's
        // policy, another API needs SENTINEL_GITHUB_API.
        let review = ProposalReview(state: state, environment: ["GITHUB_TOKEN": Self.token, "USER": "op"])
        let refused = #expect(throws: SentinelError.self) { try review.approve(id) }
        #expect(refused?.message.contains("--policy") == true, "\(refused?.message ?? "")")
        var operatorReview = review
        operatorReview.operatorPolicy = policy
        let error = #expect(throws: SentinelError.self) { try operatorReview.approve(id) }
        #expect(error?.message.contains("SENTINEL_GITHUB_API") == true, "\(error?.message ?? "")")
        #expect(attacker.requests.isEmpty)
        #expect(try GitRunner.run(["rev-parse", "--verify", "--quiet", outcome.proposal?.branch ?? "x"], in: repo.path).status != 0)
    }

    @Test("a policy's notification file cannot point outside the state directory")
    func notificationsStayInState() throws {
        let repo = try Repository(policy: "")
        let target = repo.root + "/victim.txt"
        try "precious\n".write(toFile: target, atomically: false, encoding: .utf8)
        for file in [target, "../victim.txt", "a/../../victim.txt"] {
            try "notify:\n  file: \(file)\n".write(
                toFile: repo.path + "/.sentinel/policy.yml", atomically: false, encoding: .utf8)
            let error = #expect(throws: SentinelError.self) { try Policy.load(path: repo.path + "/.sentinel/policy.yml") }
            #expect(error?.message.contains("notify.file") == true, "\(error?.message ?? "")")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
    }
}
