import Audit
import Autonomy
import Digest
import Foundation
import Git
import Heal
import Signals
import Store
import Support
import Testing

/// Level semantics: Observer never writes to the repository, Proposer writes only the proposal,
/// Actor commits on a branch only when every condition holds, and each fallback is explained.
@Suite("autonomy controller")
struct ControllerTests {
    static let allowRuleFix = """
        rules:
          - id: fixes
            allow: [rule-fix, dependency-bump]
            paths: ["**"]
        actor:
          minConfidence: 0.95
          maxRisk: medium
        """

    func controller(_ repo: TestRepository, environment: [String: String] = [:]) -> AutonomyController {
        AutonomyController(state: repo.state, environment: environment)
    }

    @Test("observer: the tree (.git included) is byte-identical; a notification and the audit say why")
    func observerWritesNothing() throws {
        let repo = try TestRepository()
        let before = try repo.snapshot()
        let policy = try repo.policy("notify:\n  file: notes.jsonl\n")
        let outcome = try controller(repo).act(
            AutonomyRequest(candidate: try Candidates.ruleFix(), repository: repo.path, requested: .observer, policy: policy))
        #expect(outcome.decision.level == .observer)
        #expect(outcome.action == "notified")
        #expect(outcome.decision.rule == "requested")
        #expect(try repo.snapshot() == before)
        #expect(try AutonomyStore(state: repo.state).list().isEmpty)
        let note = try String(contentsOfFile: repo.state.file("notes.jsonl"), encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(note.utf8)) as? [String: Any])
        #expect(object["action"] as? String == "notified")
        #expect((object["signal"] as? [String: Any])?["ruleId"] as? String == "python.yaml-load")
        #expect((object["reason"] as? String)?.contains("observer was asked for") == true)
        #expect(try repo.auditEvents() == ["observation", "decision"])
        #expect(try AuditVerifier.verify(path: repo.audit).intact)
    }

    @Test("proposer: only the proposal is written; the repository is untouched")
    func proposerWritesOnlyTheProposal() throws {
        let repo = try TestRepository()
        let before = try repo.snapshot()
        let outcome = try controller(repo).act(
            AutonomyRequest(
                candidate: try Candidates.ruleFix(), repository: repo.path, requested: .proposer, policy: .default))
        #expect(outcome.decision.level == .proposer)
        #expect(outcome.action == "proposed")
        #expect(try repo.snapshot() == before)
        let proposal = try #require(outcome.proposal)
        #expect(proposal.status == .pending)
        #expect(proposal.branch.hasPrefix("sentinel/fix/python.yaml-load-"))
        #expect(proposal.title == "Fix python.yaml-load in app.py")
        let files = try FileManager.default.contentsOfDirectory(atPath: proposal.directory).sorted()
        #expect(files == ["PR.md", "patch.diff", "proposal.json"])
        let body = try String(contentsOfFile: proposal.directory + "/PR.md", encoding: .utf8)
        for section in ["## Summary", "## Why", "## Change", "## Evidence", "## Risk and confidence", "## How to revert"] {
            #expect(body.contains(section), "\(section)")
        }
        #expect(body.contains("app.py | 2 +-"))
        let written = try ProposalWriter.read(proposal.directory)
        let document = written.document
        #expect(SHA256.hex(written.patch) == document.patchSHA256)
        #expect(document.baseCommit == (try repo.git(["rev-parse", "HEAD"])))
        #expect(document.base == "main")
        #expect(document.commitMessage.contains("Sentinel-Proposal: \(proposal.id)\n"))
        #expect(document.commitMessage.contains("Sentinel-Signal: \(Candidates.signal().fingerprint)\n"))
        #expect(try repo.auditEvents() == ["observation", "decision", "proposal"])
        // The same candidate again is the same proposal, not a second one.
        let again = try controller(repo).act(
            AutonomyRequest(
                candidate: try Candidates.ruleFix(), repository: repo.path, requested: .proposer, policy: .default))
        #expect(again.proposal?.id == proposal.id)
        #expect(try AutonomyStore(state: repo.state).list().count == 1)
    }

    @Test("actor: allowed, confident, low risk, within limits: a commit on a new branch, HEAD and tree untouched")
    func actorCommitsOnABranch() throws {
        let repo = try TestRepository()
        let head = try repo.git(["rev-parse", "HEAD"])
        let worktree = try repo.read("app.py")
        let outcome = try controller(repo).act(
            AutonomyRequest(
                candidate: try Candidates.ruleFix(), repository: repo.path, requested: .actor,
                policy: try repo.policy(Self.allowRuleFix)))
        #expect(outcome.decision.level == .actor, "\(outcome.decision.reasons)")
        #expect(outcome.action == "applied")
        let applied = try #require(outcome.applied)
        #expect(try repo.git(["rev-parse", "HEAD"]) == head)
        #expect(try repo.git(["symbolic-ref", "--short", "HEAD"]) == "main")
        #expect(try repo.read("app.py") == worktree)
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        #expect(try repo.git(["rev-parse", applied.branch]) == applied.commit)
        #expect(try repo.git(["rev-parse", applied.commit + "^"]) == head)
        #expect(try repo.git(["show", applied.commit + ":app.py"]).contains("yaml.safe_load(text)"))
        let message = try repo.git(["log", "-1", "--format=%B", applied.commit])
        #expect(message.hasPrefix("Fix python.yaml-load in app.py"))
        #expect(message.contains("Sentinel-Proposal: \(outcome.proposal?.id ?? "?")"))
        #expect(try AutonomyStore(state: repo.state).find(outcome.proposal?.id ?? "").status == .applied)
        #expect(
            try repo.auditEvents() == [
                "observation", "decision", "proposal", "apply-started", "branch-created", "application",
            ])
    }

    @Test("actor falls back to proposer below the confidence threshold, above the risk ceiling, without an allow rule")
    func actorFallsBack() throws {
        let repo = try TestRepository()
        let policy = try repo.policy(Self.allowRuleFix)
        let unsure = try controller(repo).act(
            AutonomyRequest(
                candidate: try Candidates.ruleFix(confidence: 0.9), repository: repo.path, requested: .actor, policy: policy))
        #expect(unsure.decision.level == .proposer)
        #expect(unsure.decision.rule == "min-confidence")
        #expect(unsure.decision.reasons.last == "confidence 0.90 is below the policy's minimum 0.95")
        #expect(unsure.applied == nil)

        let risky = try repo.policy(Self.allowRuleFix.replacingOccurrences(of: "maxRisk: medium", with: "maxRisk: 0.01"))
        let tooRisky = try controller(repo).act(
            AutonomyRequest(candidate: try Candidates.bump(), repository: repo.path, requested: .actor, policy: risky))
        #expect(tooRisky.decision.level == .proposer)
        #expect(tooRisky.decision.rule == "max-risk")

        let uncovered = try controller(repo).act(
            AutonomyRequest(
                candidate: try Candidates.edit("app.py", actor: .llmPatch), repository: repo.path, requested: .actor,
                policy: policy))
        #expect(uncovered.decision.level == .proposer)
        #expect(uncovered.decision.rule == "uncovered: app.py")
        #expect(try repo.git(["branch", "--list", "sentinel/*"]).isEmpty)
    }

    @Test("a deny rule and a protected path leave only a notification, whatever level was asked for")
    func denyAndProtected() throws {
        let repo = try TestRepository()
        let policy = try repo.policy(
            """
            rules:
              - id: no-auth
                deny: "*"
                paths: ["src/auth/**"]
              - id: fixes
                allow: [rule-fix, dependency-bump]
            """)
        let denied = try controller(repo).act(
            AutonomyRequest(
                candidate: try Candidates.edit("src/auth/login.py"), repository: repo.path, requested: .actor, policy: policy))
        #expect(denied.decision.level == .observer)
        #expect(denied.decision.rule == "no-auth")
        let protected = try controller(repo).act(
            AutonomyRequest(
                candidate: try Candidates.edit(".github/workflows/ci.yml"), repository: repo.path, requested: .actor,
                policy: policy))
        #expect(protected.decision.level == .observer)
        #expect(protected.decision.rule == "protected: .github/**")
        #expect(try AutonomyStore(state: repo.state).list().isEmpty)
    }

    @Test("rate limit: the limit-th automatic change of the day is the last; the next is proposed and audited")
    func rateLimit() throws {
        let repo = try TestRepository()
        let policy = try repo.policy(Self.allowRuleFix + "\nlimits:\n  repository: 5\n  classes: {rule-fix: 1}\n")
        let first = try controller(repo).act(
            AutonomyRequest(candidate: try Candidates.ruleFix(), repository: repo.path, requested: .actor, policy: policy))
        #expect(first.action == "applied")
        let second = try controller(repo).act(
            AutonomyRequest(
                candidate: try Candidates.edit("app.py"), repository: repo.path, requested: .actor, policy: policy))
        #expect(second.decision.level == .proposer)
        #expect(second.decision.rule == "rate-limit")
        #expect(second.decision.rateLimit?.classCount == 1)
        #expect(second.action == "proposed")
        #expect(try repo.auditEvents().contains("rate-limit"))
        // Another class still has room.
        let bump = try controller(repo).act(
            AutonomyRequest(candidate: try Candidates.bump(), repository: repo.path, requested: .actor, policy: policy))
        #expect(bump.action == "applied", "\(bump.decision.reasons)")
        #expect(bump.applied?.branch == "sentinel/pip/pyyaml-5.4")
    }

    @Test("kill switch: SENTINEL_AUTONOMY=observer or a STOP file forces observer")
    func killSwitch() throws {
        let repo = try TestRepository()
        let policy = try repo.policy(Self.allowRuleFix)
        let environment = try controller(repo, environment: ["SENTINEL_AUTONOMY": "observer"]).act(
            AutonomyRequest(candidate: try Candidates.ruleFix(), repository: repo.path, requested: .actor, policy: policy))
        #expect(environment.decision.level == .observer)
        #expect(environment.decision.rule == "kill-switch")
        try repo.state.create()
        try "".write(toFile: repo.state.file("STOP"), atomically: false, encoding: .utf8)
        let stopped = try controller(repo).act(
            AutonomyRequest(candidate: try Candidates.ruleFix(), repository: repo.path, requested: .proposer, policy: policy))
        #expect(stopped.decision.level == .observer)
        #expect(stopped.decision.reasons.last == "kill switch: \(repo.state.file("STOP")) exists")
        #expect(try AutonomyStore(state: repo.state).list().isEmpty)
    }

    @Test("actor with uncommitted changes in the repository proposes instead")
    func dirtyTreeFallsBack() throws {
        let repo = try TestRepository()
        try repo.write("requirements.txt", "pyyaml==5.3\nrequests==2.32.0\n")
        let outcome = try controller(repo).act(
            AutonomyRequest(
                candidate: try Candidates.ruleFix(), repository: repo.path, requested: .actor,
                policy: try repo.policy(Self.allowRuleFix)))
        #expect(outcome.decision.level == .proposer)
        #expect(outcome.decision.rule == "uncommitted-changes")
        #expect(try repo.read("requirements.txt") == "pyyaml==5.3\nrequests==2.32.0\n")
    }

    @Test("the level is never above the one asked for; without --level the policy's level applies")
    func requestedIsACeiling() throws {
        let repo = try TestRepository()
        let policy = try repo.policy(Self.allowRuleFix + "\nlevel: proposer\n")
        let decision = controller(repo).decide(
            AutonomyRequest(candidate: try Candidates.ruleFix(), repository: repo.path, requested: nil, policy: policy),
            repositoryRoot: repo.path)
        #expect(decision.requested == .proposer)
        #expect(decision.level == .proposer)
    }

    @Test("secrets never reach the audit log")
    func secretsRedacted() throws {
        let repo = try TestRepository()
        let token = "ghp_knownSecretToken0123456789"
        var candidate = try Candidates.ruleFix()
        candidate.description = "fix using \(token)"
        _ = try controller(repo, environment: ["GITHUB_TOKEN": token]).act(
            AutonomyRequest(candidate: candidate, repository: repo.path, requested: .proposer, policy: .default))
        let log = try String(contentsOfFile: repo.audit, encoding: .utf8)
        #expect(!log.contains(token))
        #expect(log.contains("<redacted>"))
    }
}
