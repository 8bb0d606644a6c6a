import Autonomy
import Foundation
import Heal
import Support
import Testing

/// Issue 26: what the controller writes (proposal, notification, audit) goes through one
/// redactor; a patch that holds a credential is neither proposed nor applied.
@Suite("autonomy controller redaction")
struct ControllerRedactionTests {
    static let token = "ctl-" + "ControllerTestSecret-0123456789"

    @Test("a credential quoted by the signal: replaced in PR.md, proposal.json, notes.jsonl and audit.jsonl")
    func signalQuotesToken() throws {
        let repo = try TestRepository()
        var candidate = try Candidates.ruleFix()
        candidate.signal.message += " (token=\(Self.token))"
        let policy = try repo.policy("notify:\n  file: notes.jsonl\ngithub:\n  repository: acme/shop\n  tokenEnv: DEPLOY_BOT\n")
        let outcome = try AutonomyController(state: repo.state, environment: ["DEPLOY_BOT": Self.token]).act(
            AutonomyRequest(candidate: candidate, repository: repo.path, requested: .proposer, policy: policy))
        let directory = try #require(outcome.proposal?.directory)
        let body = try String(contentsOfFile: directory + "/PR.md", encoding: .utf8)
        #expect(body.contains(#"\(token=<redacted>\)"#), "\(body)")
        for path in [directory + "/PR.md", directory + "/proposal.json", repo.state.file("notes.jsonl"), repo.state.file("audit.jsonl")] {
            #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains(Self.token), "\(path)")
        }
        #expect(try ProposalWriter.read(directory).patch == candidate.patch, "the patch is written as it is")
    }

    @Test("a patch holding a credential's value: observer, rule secret-in-patch, no proposal")
    func patchHoldsToken() throws {
        let repo = try TestRepository()
        let policy = try repo.policy("notify:\n  file: notes.jsonl\n")
        let outcome = try AutonomyController(state: repo.state, environment: ["DEPLOY_TOKEN": "yaml.safe_load(text)"]).act(
            AutonomyRequest(candidate: try Candidates.ruleFix(), repository: repo.path, requested: .proposer, policy: policy))
        #expect(outcome.decision.level == .observer)
        #expect(outcome.decision.rule == "secret-in-patch")
        #expect(outcome.proposal == nil)
        #expect(try AutonomyStore(state: repo.state).list().isEmpty)
    }
}
