import Autonomy
import Digest
import Foundation
import Git
import Store
import Support
import TestSupport
import Testing

/// A proposal directory is files on disk between `heal` and `proposals approve`; whoever can edit
/// them must not get their edit committed or published. Approve re-derives the digest of every
/// file it reads and compares it with the one recorded outside the directory (the queue and the
/// audit log) when the proposal was made; the hash inside `proposal.json` proves nothing, since
/// whoever edits the patch edits that too.
@Suite("hostile proposal directory", .integration)
struct HostileProposalTests {
    static let evil = "import os\n\n\ndef load(text):\n    return os.system(text)\n"

    /// Rewrites `proposal.json` in `directory` after `edit`, encoded as the writer encodes it.
    static func editDocument(_ directory: String, _ edit: (inout ProposalDocument) throws -> Void) throws {
        let path = directory + "/proposal.json"
        var document = try JSONDecoder().decode(ProposalDocument.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        try edit(&document)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(document) + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
    }

    /// Replaces the patch with one that makes `app.py` run its input, and its hash in
    /// `proposal.json` (and the uploaded change) to agree.
    static func swapPatch(_ directory: String) throws {
        let change = FileChange(path: "app.py", before: TestRepository.files["app.py"], after: evil)
        let patch = try GitPatch.diff([change])
        try patch.write(toFile: directory + "/patch.diff", atomically: false, encoding: .utf8)
        try editDocument(directory) {
            $0.patchSHA256 = SHA256.hex(patch)
            $0.changes = [change]
        }
    }

    func propose(_ repo: TestRepository, policy: Policy = .default) throws -> QueuedProposal {
        let outcome = try AutonomyController(state: repo.state, environment: [:]).act(
            AutonomyRequest(candidate: try Candidates.ruleFix(), repository: repo.path, requested: .proposer, policy: policy))
        return try #require(outcome.proposal)
    }

    @Test("an edited patch with its hash in proposal.json edited too is refused: nothing committed, still pending")
    func patchAndHashEdited() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        try Self.swapPatch(proposal.directory)
        let review = ProposalReview(state: repo.state, environment: ["USER": "alice"])
        let error = #expect(throws: SentinelError.self) { try review.approve(proposal.id) }
        #expect(error?.code == .invalidInput)
        #expect(
            error?.message == "\(proposal.directory)/patch.diff: changed since it was proposed (its SHA-256 is not the one "
                + "the approval queue and the audit log recorded); not approved")
        #expect(!(error?.message.contains("\n") ?? true))
        #expect(try repo.git(["branch", "--list", "sentinel/*"]).isEmpty)
        #expect(try AutonomyStore(state: repo.state).find(proposal.id).status == .pending)
        let dryRun = #expect(throws: SentinelError.self) { try review.plan(proposal.id) }
        #expect(dryRun?.message.contains("patch.diff: changed since it was proposed") == true)
    }

    /// Each edit to something the commit or the pull request is made from.
    enum Tamper: String, CaseIterable, Sendable {
        case patchAndHash, title, uploadedChanges, commitMessage, labels, base, body

        var file: String {
            switch self {
            case .patchAndHash: "patch.diff"
            case .body: "PR.md"
            default: "proposal.json"
            }
        }

        func apply(to directory: String) throws {
            switch self {
            case .patchAndHash: try HostileProposalTests.swapPatch(directory)
            case .title: try HostileProposalTests.editDocument(directory) { $0.title = "Bump requests (routine)" }
            case .uploadedChanges:
                try HostileProposalTests.editDocument(directory) { $0.changes[0].after = HostileProposalTests.evil }
            case .commitMessage: try HostileProposalTests.editDocument(directory) { $0.commitMessage = "chore: typo" }
            case .labels: try HostileProposalTests.editDocument(directory) { $0.labels = ["automerge"] }
            case .base: try HostileProposalTests.editDocument(directory) { $0.base = "release" }
            case .body:
                try "Routine cleanup, merge at will.\n".write(toFile: directory + "/PR.md", atomically: false, encoding: .utf8)
            }
        }
    }

    @Test("every field the commit or the GitHub upload reads is covered: any edit is refused before a request", arguments: Tamper.allCases)
    func githubUploadRefusesEdits(_ tamper: Tamper) throws {
        let repo = try TestRepository()
        let head = try repo.git(["rev-parse", "HEAD"])
        let server = try FakeGitHubServer(
            token: ApprovalGitHubTests.token, commits: [head: try repo.git(["rev-parse", "HEAD^{tree}"])],
            branches: ["main": head, "release": head])
        defer { server.server.stop() }
        try repo.git(["branch", "release"])
        let policy = try repo.policy("github:\n  repository: \(server.repository)\n  api: \(server.apiURL)\n")
        let proposal = try propose(repo, policy: policy)
        try tamper.apply(to: proposal.directory)
        let review = ProposalReview(
            state: repo.state,
            environment: ["USER": "alice", "GITHUB_TOKEN": ApprovalGitHubTests.token, "SENTINEL_GITHUB_API": server.apiURL],
            operatorPolicy: policy)
        let error = #expect(throws: SentinelError.self) { try review.approve(proposal.id) }
        #expect(error?.code == .invalidInput)
        #expect(
            error?.message.hasPrefix("\(proposal.directory)/\(tamper.file): changed since it was proposed") == true,
            "\(error?.message ?? "")")
        #expect(server.requests.isEmpty)
        #expect(try repo.git(["branch", "--list", "sentinel/*"]).isEmpty)
        #expect(try AutonomyStore(state: repo.state).find(proposal.id).status == .pending)
    }

    @Test("the digest is anchored outside the directory: in the queue row and in the audit log's proposal entry")
    func digestAnchored() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        let digest = try #require(proposal.digest)
        #expect(try AutonomyStore(state: repo.state).find(proposal.id).digest == digest)
        let files = try ProposalWriter.read(proposal.directory)
        #expect(files.digest.description == digest)
        let log = try String(contentsOfFile: repo.audit, encoding: .utf8)
        #expect(log.contains(#""proposal":"\#(digest)""#))
        // An untouched proposal is approved.
        let applied = try ProposalReview(state: repo.state, environment: ["USER": "alice"]).approve(proposal.id)
        #expect(try repo.git(["show", applied.branch + ":app.py"]).contains("yaml.safe_load"))
    }

    @Test("edited files with the queue's digest edited to match are refused: the audit log's proposal entry disagrees")
    func queueRewrittenToo() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        try Self.swapPatch(proposal.directory)
        let forged = try ProposalWriter.read(proposal.directory).digest.description
        try Database(path: repo.state.file("autonomy.sqlite")).execute(
            "UPDATE proposals SET digest = '\(forged)' WHERE id = '\(proposal.id)'")
        let error = #expect(throws: SentinelError.self) {
            try ProposalReview(state: repo.state, environment: ["USER": "alice"]).approve(proposal.id)
        }
        #expect(
            error?.message == "\(repo.audit): the proposal entry of \(proposal.id) is missing or records other files than "
                + "the approval queue; not approved")
        #expect(try repo.git(["branch", "--list", "sentinel/*"]).isEmpty)
    }

    @Test("a queue row without a digest (an older Sentinel's) is refused: there is nothing to prove the files by")
    func rowWithoutDigest() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        try Database(path: repo.state.file("autonomy.sqlite")).execute("UPDATE proposals SET digest = NULL")
        let error = #expect(throws: SentinelError.self) {
            try ProposalReview(state: repo.state, environment: ["USER": "alice"]).approve(proposal.id)
        }
        #expect(error?.message.hasPrefix("proposal \(proposal.id): the approval queue holds no digest of its files") == true)
        #expect(try AutonomyStore(state: repo.state).find(proposal.id).status == .pending)
    }

    @Test("a link planted for a proposal file is not followed")
    func linkedFileRefused() throws {
        let repo = try TestRepository()
        let proposal = try propose(repo)
        let outside = repo.root + "/outside.md"
        try "text from elsewhere\n".write(toFile: outside, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: proposal.directory + "/PR.md")
        try FileManager.default.createSymbolicLink(atPath: proposal.directory + "/PR.md", withDestinationPath: outside)
        let error = #expect(throws: SentinelError.self) {
            try ProposalReview(state: repo.state, environment: ["USER": "alice"]).approve(proposal.id)
        }
        #expect(error?.message.contains("PR.md") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("text from elsewhere") == false)
        #expect(try repo.git(["branch", "--list", "sentinel/*"]).isEmpty)
    }
}
