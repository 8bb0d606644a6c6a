import Audit
import Autonomy
import Foundation
import Git
import Heal
import Store
import Support
import Testing

/// Approvals and denials: a commit on a branch, refusals that change nothing, stale proposals,
/// and recovery from a crash half-way through an application.
@Suite("proposal review")
struct ProposalReviewTests {
    func propose(_ repo: TestRepository, _ candidate: Candidate? = nil) throws -> QueuedProposal {
        let outcome = try AutonomyController(state: repo.state, environment: [:]).act(
            AutonomyRequest(
                candidate: try candidate ?? Candidates.ruleFix(), repository: repo.path, requested: .proposer,
                policy: .default))
        return try #require(outcome.proposal)
    }

    func review(_ repo: TestRepository, failpoint: @escaping @Sendable (String) throws -> Void = { _ in }) -> ProposalReview {
        ProposalReview(state: repo.state, environment: ["USER": "alice"], failpoint: failpoint)
    }

    @Test("approve commits the patch on the proposal's branch from the base's tip; the checkout is untouched")
    func approve() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        let head = try repo.git(["rev-parse", "HEAD"])
        let applied = try review(repo).approve(String(proposal.id.prefix(6)))
        #expect(applied.branch == proposal.branch)
        #expect(applied.parent == head)
        #expect(try repo.git(["rev-parse", "HEAD"]) == head)
        #expect(try repo.read("app.py") == TestRepository.files["app.py"])
        #expect(try repo.git(["show", applied.branch + ":app.py"]).contains("yaml.safe_load"))
        #expect(try repo.git(["log", "-1", "--format=%B", applied.branch]).contains("Sentinel-Proposal: \(proposal.id)"))
        let stored = try AutonomyStore(state: repo.state).find(proposal.id)
        #expect(stored.status == .applied)
        #expect(stored.commit == applied.commit)
        let events = try repo.auditEvents()
        #expect(Array(events.suffix(4)) == ["approval", "apply-started", "branch-created", "application"])
        #expect(try String(contentsOfFile: repo.audit, encoding: .utf8).contains(#""actor":"alice""#))
        // Decided proposals and unknown ids are refused (exit 2).
        let again = #expect(throws: SentinelError.self) { try review(repo).approve(proposal.id) }
        #expect(again?.code == .invalidInput)
        #expect(again?.message == "proposal \(proposal.id) is already applied (applied by alice)")
        let unknown = #expect(throws: SentinelError.self) { try review(repo).approve("ffffffff") }
        #expect(unknown?.message == "ffffffff: no such proposal")
    }

    @Test("a repository with uncommitted changes is refused and the proposal stays pending")
    func dirtyRepositoryRefused() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        try repo.write("app.py", "# my work in progress\n")
        let error = #expect(throws: SentinelError.self) { try review(repo).approve(proposal.id) }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("uncommitted changes in app.py") == true)
        #expect(try AutonomyStore(state: repo.state).find(proposal.id).status == .pending)
        #expect(try repo.git(["branch", "--list", "sentinel/*"]).isEmpty)
        #expect(try repo.read("app.py") == "# my work in progress\n")
    }

    @Test("the base moved under the patch: the proposal is marked stale with git's reason; a move elsewhere still applies")
    func staleAndRebased() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        let other = try propose(repo, try Candidates.bump())
        try repo.write("app.py", "import yaml\n\n\ndef load(text):\n    return yaml.full_load(text)\n")
        try repo.git(["commit", "-qam", "someone else changed app.py"])
        let error = #expect(throws: SentinelError.self) { try review(repo).approve(proposal.id) }
        #expect(error?.code == .patchStale)
        let stored = try AutonomyStore(state: repo.state).find(proposal.id)
        #expect(stored.status == .stale)
        #expect(stored.reason?.contains("the patch no longer applies") == true)
        #expect(try repo.auditEvents().last == "stale")
        // The bump touches another file: it applies on the moved tip.
        let applied = try review(repo).approve(other.id)
        #expect(applied.parent == (try repo.git(["rev-parse", "main"])))
        #expect(try repo.git(["show", applied.branch + ":app.py"]).contains("full_load"))
        #expect(try repo.git(["show", applied.branch + ":requirements.txt"]).hasPrefix("pyyaml==5.4"))
    }

    @Test("deny records the reason; a denial needs one")
    func deny() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        let missing = #expect(throws: SentinelError.self) { try review(repo).deny(proposal.id, reason: "  ") }
        #expect(missing?.code == .invalidInput)
        let denied = try review(repo).deny(proposal.id, reason: "we are replacing yaml")
        #expect(denied.status == .denied)
        #expect(denied.reason == "we are replacing yaml")
        #expect(try repo.auditEvents().last == "denial")
        #expect(throws: SentinelError.self) { try review(repo).approve(proposal.id) }
    }

    @Test("a crash after the branch was created is completed on the next run, from the branch and its trailer")
    func recoverAfterBranch() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        #expect(throws: SimulatedCrash.self) {
            try review(repo) { if $0 == "branch-created" { throw SimulatedCrash() } }.approve(proposal.id)
        }
        #expect(try AutonomyStore(state: repo.state).find(proposal.id).status == .applying)
        #expect(try repo.auditEvents().last == "branch-created")
        let listed = try review(repo).store().find(proposal.id)
        #expect(listed.status == .applied)
        #expect(listed.commit == (try repo.git(["rev-parse", proposal.branch])))
        let log = try String(contentsOfFile: repo.audit, encoding: .utf8)
        let last = try #require(log.split(separator: "\n").last)
        #expect(last.contains(#""event":"recovery""#))
        #expect(last.contains(#""outcome":"completed""#))
        #expect(last.contains(#""lastEvent":"branch-created""#))
        #expect(try AuditVerifier.verify(path: repo.audit).intact)
    }

    @Test("a crash after the commit was written but before the branch is rolled back to pending, then approvable")
    func recoverBeforeBranch() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        #expect(throws: SimulatedCrash.self) {
            try review(repo) { if $0 == "commit-written" { throw SimulatedCrash() } }.approve(proposal.id)
        }
        #expect(try review(repo).store().find(proposal.id).status == .pending)
        let log = try String(contentsOfFile: repo.audit, encoding: .utf8)
        #expect(log.contains(#""outcome":"rolled back""#))
        #expect(log.contains(#""lastEvent":"apply-started""#))
        let applied = try review(repo).approve(proposal.id)
        #expect(try repo.git(["rev-parse", applied.branch]) == applied.commit)
    }

    @Test("a proposal whose patch was edited after it was proposed is refused")
    func tamperedPatch() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        try "diff --git a/x b/x\n".write(toFile: proposal.directory + "/patch.diff", atomically: false, encoding: .utf8)
        let error = #expect(throws: SentinelError.self) { try review(repo).approve(proposal.id) }
        #expect(error?.message.contains("changed since it was proposed") == true)
        #expect(try AutonomyStore(state: repo.state).find(proposal.id).status == .pending)
    }

    @Test("--dry-run plans the git steps and changes nothing")
    func dryRun() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        let before = try repo.snapshot()
        let events = try repo.auditEvents()
        let plan = try review(repo).plan(proposal.id)
        #expect(plan.contains("as branch \(proposal.branch)"))
        #expect(plan.contains("Sentinel-Proposal: \(proposal.id)"))
        #expect(plan.contains("nothing is pushed"))
        #expect(try repo.snapshot() == before)
        #expect(try repo.auditEvents() == events)
        #expect(try AutonomyStore(state: repo.state).find(proposal.id).status == .pending)
    }
}
