import Audit
import Foundation
import Git
import HTTP
import Store
import Support

/// A person's side of the queue: approve (a commit on a new branch, and a pull request when
/// GitHub is configured) or deny (with a reason). Each starts by recovering what a crashed run
/// left half-done, and each decision is audited with the reviewer's name.
public struct ProposalReview: Sendable {
    /// Where the queue and the audit log live.
    public var state: StateDirectory
    /// The environment (tokens, the reviewer's name).
    public var environment: [String: String]
    /// How HTTP requests are sent.
    public var send: @Sendable (HTTPRequest) throws -> (HTTPResponse, [UInt8])
    /// Crash points for tests.
    public var failpoint: @Sendable (String) throws -> Void
    /// The operator's policy (`--policy FILE`), used instead of the repository's: only it may name
    /// the GitHub repository, API and token, or a notification file or webhook.
    public var operatorPolicy: Policy?
    /// Who the commit of an approval says wrote the change (`--author`, else git's own
    /// `GIT_AUTHOR_NAME`/`GIT_AUTHOR_EMAIL`; nil: Sentinel's identity).
    public var author: GitIdentity?

    /// A review; see the properties.
    public init(
        state: StateDirectory, environment: [String: String], operatorPolicy: Policy? = nil,
        send: @escaping @Sendable (HTTPRequest) throws -> (HTTPResponse, [UInt8]) = HTTPClient.send,
        failpoint: @escaping @Sendable (String) throws -> Void = { _ in }
    ) {
        self.state = state
        self.environment = environment
        self.operatorPolicy = operatorPolicy
        self.send = send
        self.failpoint = failpoint
    }

    /// Who is reviewing: `SUDO_USER`, else `USER`, else `uid N`.
    public var reviewer: String {
        environment["SUDO_USER"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["USER"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "uid \(getuid())"
    }

    /// The queue, after recovery.
    public func store() throws -> AutonomyStore {
        try state.create()
        let store = try AutonomyStore(state: state)
        try ProposalRecovery.run(store: store, audit: controller().auditLog(policy: .default), actor: "sentinel")
        return store
    }

    /// The operator's policy when given, else the proposal's repository's (`.sentinel/policy.yml`,
    /// which may name no host, file or credential), or the default.
    public func policy(for queued: QueuedProposal) throws -> Policy {
        if let operatorPolicy { return operatorPolicy }
        return try Policy.load(repository: queued.repository)
    }

    /// Approves proposal `id` (a unique prefix): commits it on its branch, and opens a pull
    /// request when the policy names a GitHub repository and the token is set.
    public func approve(_ id: String) throws -> AppliedProposal {
        let store = try store()
        let queued = try pending(id, store: store)
        // Refused before anything is recorded; the applier checks again just before committing.
        try GitRepository(containing: queued.repository).requireClean()
        let policy = try policy(for: queued)
        // What is approved is exactly what was proposed: every file, against the digest recorded
        // outside the proposal's directory; nothing is read from the directory again after this.
        let files = try ProposalIntegrity.verified(queued, auditLog: state.file("audit.jsonl"))
        let controller = controller()
        let github = try controller.githubTarget(policy: policy)
        guard try store.transition(queued.id, from: .pending, to: .applying, reason: ProposalRecovery.marker()) else {
            throw SentinelError(.invalidInput, "proposal \(queued.id) was decided by another process")
        }
        let audit = controller.auditLog(policy: policy)
        try audit.append(
            AuditEntry(
                event: "approval", actor: reviewer, level: AutonomyLevel.proposer.rawValue,
                inputs: [
                    "patch": files.document.patchSHA256, "proposal": files.digest.description,
                    "policy": policy.sha256 ?? "built-in default",
                ],
                details: ["proposal": queued.id, "branch": queued.branch]))
        var applying = queued
        applying.status = .applying
        let applier = ProposalApplier(
            store: store, audit: audit, github: github, send: send, actor: reviewer,
            level: .proposer, failpoint: failpoint)
        var authored = applier
        authored.author = author
        return try authored.apply(applying, files: files)
    }

    /// Denies proposal `id` (a unique prefix) with `reason`.
    public func deny(_ id: String, reason: String) throws -> QueuedProposal {
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw SentinelError(.invalidInput, "--reason: say why the proposal is denied") }
        let store = try store()
        let queued = try pending(id, store: store)
        guard try store.transition(queued.id, from: .pending, to: .denied, reason: trimmed) else {
            throw SentinelError(.invalidInput, "proposal \(queued.id) was decided by another process")
        }
        let policy = (try? policy(for: queued)) ?? .default
        try controller().auditLog(policy: policy).append(
            AuditEntry(
                event: "denial", actor: reviewer, level: AutonomyLevel.proposer.rawValue,
                details: ["proposal": queued.id, "reason": trimmed, "branch": queued.branch]))
        return try store.find(queued.id)
    }

    func pending(_ id: String, store: AutonomyStore) throws -> QueuedProposal {
        let queued = try store.find(id)
        guard queued.status == .pending else {
            let why = queued.reason.map { " (\($0))" } ?? ""
            throw SentinelError(.invalidInput, "proposal \(queued.id) is already \(queued.status.rawValue)\(why)")
        }
        return queued
    }

    func controller() -> AutonomyController {
        AutonomyController(state: state, environment: environment, send: send, failpoint: failpoint)
    }
}
