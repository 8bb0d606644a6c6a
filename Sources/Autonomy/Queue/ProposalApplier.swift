import Audit
import Foundation
import Git
import HTTP
import Support

/// What applying a proposal produced.
public struct AppliedProposal: Sendable, Hashable, Codable {
    /// The new branch.
    public var branch: String
    /// The commit on it.
    public var commit: String
    /// The commit it was made on (the base branch's tip at the time).
    public var parent: String
    /// The pull request, when one was opened.
    public var pullRequest: PublishedPullRequest?
}

/// Where to publish, and with which credentials.
public struct GitHubTarget: Sendable {
    /// The policy's settings (repository, labels, base).
    public var settings: GitHubSettings
    /// The API and the token.
    public var config: GitHubConfig

    /// A target; see the properties.
    public init(settings: GitHubSettings, config: GitHubConfig) {
        self.settings = settings
        self.config = config
    }
}

/// Turns an `applying` proposal into a commit on a new branch, and, when GitHub is configured,
/// into a pull request. Every step is in the audit log before the next begins, and every failure
/// leaves nothing half-done: a patch that no longer applies marks the proposal stale; a failed
/// publication deletes the branch again and puts the proposal back in the queue; a crash is
/// recovered by `ProposalRecovery` from the branch and the commit's trailer.
public struct ProposalApplier: Sendable {
    /// The queue.
    public var store: AutonomyStore
    /// The audit log.
    public var audit: AuditLog
    /// Where to publish, if anywhere.
    public var github: GitHubTarget?
    /// How requests are sent.
    public var send: @Sendable (HTTPRequest) throws -> (HTTPResponse, [UInt8])
    /// Who is applying (`controller` for the actor level, a user name for approvals).
    public var actor: String
    /// The level in force (`actor` or `proposer`).
    public var level: AutonomyLevel
    /// Called after each durable step (`commit-written`, `branch-created`); tests throw from
    /// it to stand for a crash at that point.
    public var failpoint: @Sendable (String) throws -> Void
    /// Who the commit says wrote the change (nil: Sentinel's own identity).
    public var author: GitIdentity?

    /// An applier; see the properties.
    public init(
        store: AutonomyStore, audit: AuditLog, github: GitHubTarget?,
        send: @escaping @Sendable (HTTPRequest) throws -> (HTTPResponse, [UInt8]) = HTTPClient.send, actor: String,
        level: AutonomyLevel, failpoint: @escaping @Sendable (String) throws -> Void = { _ in }
    ) {
        self.store = store
        self.audit = audit
        self.github = github
        self.send = send
        self.actor = actor
        self.level = level
        self.failpoint = failpoint
    }

    /// Applies `queued` (which the caller has moved to `applying`) from `files`, its verified
    /// files (`ProposalIntegrity`).
    public func apply(_ queued: QueuedProposal, files: ProposalFiles) throws -> AppliedProposal {
        let document = files.document
        let inputs = ["patch": document.patchSHA256]
        do {
            let repository = try GitRepository(containing: queued.repository)
            // Again: the tree may have changed since the caller looked.
            try repository.requireClean()
            if try repository.branchExists(queued.branch) {
                throw SentinelError(.git, "branch \(queued.branch) already exists in \(repository.root)")
            }
            let parent =
                try document.base.flatMap { try repository.commit("refs/heads/" + $0) } ?? document.baseCommit
            try record("apply-started", queued, inputs: inputs, ["branch": queued.branch, "parent": parent])
            let commit: String
            do {
                commit = try repository.commit(
                    patch: files.patch, onto: parent, message: document.commitMessage, author: author)
            } catch let error as SentinelError where error.code == .patchStale {
                try store.transition(queued.id, from: .applying, to: .stale, reason: error.message)
                try record("stale", queued, inputs: inputs, ["reason": error.message, "parent": parent])
                throw error
            }
            try failpoint("commit-written")
            try repository.createBranch(queued.branch, at: commit)
            try record("branch-created", queued, inputs: inputs, ["branch": queued.branch, "commit": commit])
            try failpoint("branch-created")
            var published: PublishedPullRequest?
            if let github {
                published = try publish(
                    queued, files: files, parent: parent, commit: commit, repository: repository, github: github)
            }
            try store.transition(
                queued.id, from: .applying, to: .applied, reason: "applied by \(actor)", commit: commit,
                pullRequest: published?.url)
            try record(
                "application", queued, inputs: inputs,
                ["branch": queued.branch, "commit": commit, "parent": parent, "pullRequest": published?.url ?? ""])
            return AppliedProposal(branch: queued.branch, commit: commit, parent: parent, pullRequest: published)
        } catch let error as SentinelError where error.code != .patchStale {
            // Back in the queue: the proposal can be approved again once the cause is fixed.
            _ = try? store.transition(queued.id, from: .applying, to: .pending, reason: "not applied: \(error.message)")
            try? record("application-failed", queued, inputs: inputs, ["reason": error.message])
            throw error
        }
    }

    private func publish(
        _ queued: QueuedProposal, files: ProposalFiles, parent: String, commit: String,
        repository: GitRepository, github: GitHubTarget
    ) throws -> PublishedPullRequest {
        let document = files.document
        let draft = PullRequestDraft(
            repository: github.settings.repository, base: github.settings.base ?? document.base ?? "main",
            baseCommit: parent, branch: queued.branch, title: document.title,
            body: files.body,
            commitMessage: document.commitMessage, changes: document.changes, labels: document.labels)
        do {
            let published = try GitHubPublisher.publish(draft, config: github.config, send: send)
            try record(
                "push", queued, inputs: ["patch": document.patchSHA256],
                [
                    "repository": draft.repository, "branch": draft.branch, "pullRequest": published.url,
                    "number": String(published.number), "warnings": published.warnings.joined(separator: "; "),
                ])
            return published
        } catch {
            let message = (error as? SentinelError)?.message ?? "\(error)"
            var undone = "the local branch was deleted again"
            do { try repository.deleteBranch(queued.branch, at: commit) } catch {
                undone = "the local branch \(queued.branch) could not be deleted: \(error)"
            }
            try? record("push-failed", queued, inputs: ["patch": document.patchSHA256], ["reason": message, "undone": undone])
            throw SentinelError((error as? SentinelError)?.code ?? .github, "\(message) (\(undone); the proposal is pending again)")
        }
    }

    private func record(_ event: String, _ queued: QueuedProposal, inputs: [String: String], _ details: [String: String])
        throws
    {
        var all = details
        all["proposal"] = queued.id
        try audit.append(AuditEntry(event: event, actor: actor, level: level.rawValue, inputs: inputs, details: all))
    }
}
