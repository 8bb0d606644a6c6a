import Audit
import Digest
import Foundation
import Git
import HTTP
import Heal
import Store
import Support

/// One verified candidate to act on, with what the decision needs beyond the candidate.
public struct AutonomyRequest: Sendable {
    /// The candidate (from `sentinel heal`, or anywhere).
    public var candidate: Candidate
    /// The repository it was made for.
    public var repository: String
    /// The level asked for; nil takes the policy's `level`.
    public var requested: AutonomyLevel?
    /// The policy in force.
    public var policy: Policy
    /// CWE ids of the signal's SAST rule (its metadata), for the risk's sensitive areas.
    public var ruleCWEs: [Int]
    /// The heal actor's verified success rate in memory, nil without history.
    public var actorSuccessRate: Double?
    /// SHA-256 of the evidence file, when one was written.
    public var evidenceSHA256: String?
    /// Who an Actor-level commit says wrote the change (`heal --author`, else git's own
    /// identity: ``GitIdentity/resolve(option:environment:repository:)``); nil: Sentinel's.
    public var author: GitIdentity? = nil
    /// The repository, when the caller opened it already (heal checks it before it starts);
    /// nil: opened here. Each opening is a sandboxed git run.
    public var opened: GitRepository? = nil

    /// A request; see the properties.
    public init(
        candidate: Candidate, repository: String, requested: AutonomyLevel?, policy: Policy, ruleCWEs: [Int] = [],
        actorSuccessRate: Double? = nil, evidenceSHA256: String? = nil
    ) {
        self.candidate = candidate
        self.repository = repository
        self.requested = requested
        self.policy = policy
        self.ruleCWEs = ruleCWEs
        self.actorSuccessRate = actorSuccessRate
        self.evidenceSHA256 = evidenceSHA256
    }
}

/// What the controller did with a candidate.
public struct AutonomyOutcome: Sendable, Codable {
    /// The decision, after every fallback.
    public var decision: Decision
    /// `notified`, `proposed` or `applied`.
    public var action: String
    /// The proposal, at Proposer and Actor.
    public var proposal: QueuedProposal?
    /// The branch and commit, at Actor.
    public var applied: AppliedProposal?
    /// Channels or steps that failed without changing the decision.
    public var warnings: [String]
    /// What was sent to the notification channels.
    public var notification: Notification
}

/// The controller of DESIGN §2: decides, under the policy, whether a verified candidate only
/// produces a notification (Observer), a proposal queued for approval (Proposer), or a commit
/// on a new branch (Actor), and records every step in the audit log.
///
/// The level granted is the lowest of: the level asked for; the policy's verdict on the
/// candidate's class and paths (deny → Observer, ask or a path no rule covers → Proposer, allow →
/// Actor); for Actor, confidence at or above `actor.minConfidence` and risk at or below
/// `actor.maxRisk`, a clean working tree, and a free slot in the daily rate limits (each
/// falls back to Proposer); and the kill switch. The repository itself is only ever changed at
/// Actor, and then only by a new branch (`GitRepository` plumbing).
public struct AutonomyController: Sendable {
    /// Where the queue, the proposals and the audit log live.
    public var state: StateDirectory
    /// The environment (kill switch, tokens).
    public var environment: [String: String]
    /// How HTTP requests are sent (webhook, GitHub).
    public var send: @Sendable (HTTPRequest) throws -> (HTTPResponse, [UInt8])
    /// The clock.
    public var now: @Sendable () -> Date
    /// Crash points for tests (see `ProposalApplier.failpoint`).
    public var failpoint: @Sendable (String) throws -> Void

    /// A controller; see the properties.
    public init(
        state: StateDirectory, environment: [String: String],
        send: @escaping @Sendable (HTTPRequest) throws -> (HTTPResponse, [UInt8]) = HTTPClient.send,
        now: @escaping @Sendable () -> Date = { Date() }, failpoint: @escaping @Sendable (String) throws -> Void = { _ in }
    ) {
        self.state = state
        self.environment = environment
        self.send = send
        self.now = now
        self.failpoint = failpoint
    }

    /// The one redactor for everything this controller writes or sends: the environment's
    /// credentials, `GITHUB_TOKEN`, `SENTINEL_LLM_KEY` and the variable the policy names.
    public func redactor(policy: Policy) -> Redactor {
        Redactor(environment: environment, naming: ["GITHUB_TOKEN", "SENTINEL_LLM_KEY"] + [policy.github?.tokenEnv].compactMap { $0 })
    }

    /// The audit log (`audit.jsonl` in the state directory), with every token this process knows redacted.
    public func auditLog(policy: Policy) -> AuditLog {
        AuditLog(path: state.file("audit.jsonl"), redactor: redactor(policy: policy))
    }

    /// The GitHub target when the policy names a repository and the token's variable is set.
    /// The policy comes from the repository, so it may not choose where the operator's token
    /// goes: an API other than GitHub's own must also be named by `SENTINEL_GITHUB_API` (the
    /// operator's opt-in for GitHub Enterprise), else `SentinelError(.invalidInput)` and no
    /// request is sent.
    public func githubTarget(policy: Policy) throws -> GitHubTarget? {
        guard let settings = policy.github, let token = environment[settings.tokenEnv], !token.isEmpty else { return nil }
        let api = settings.api.hasSuffix("/") ? String(settings.api.dropLast()) : settings.api
        let allowed = [GitHubSettings.defaultAPI, environment["SENTINEL_GITHUB_API"] ?? ""].map {
            $0.hasSuffix("/") ? String($0.dropLast()) : $0
        }
        guard allowed.contains(api) else {
            throw SentinelError(
                .invalidInput,
                "\(policy.file ?? "policy"): github.api \(settings.api) is not GitHub's API; the token is only sent there "
                    + "when SENTINEL_GITHUB_API names the same URL")
        }
        return GitHubTarget(settings: settings, config: GitHubConfig(apiURL: settings.api, token: token))
    }

    /// The decision for `request` from the policy, the risk and the kill switch alone (rate
    /// limits and the working tree are checked by `act`).
    public func decide(_ request: AutonomyRequest, repositoryRoot: String?) -> Decision {
        let candidate = request.candidate
        let policy = request.policy
        let requested = request.requested ?? policy.level
        let action = ActionClass(candidate.actor)
        let verdict = policy.evaluate(
            action, paths: candidate.files, ecosystem: candidate.signal.dependency?.ecosystem ?? "PyPI")
        let changed = GitPatch.changedLines(candidate.patch).map(String.init)
        let risk = Risk.score(
            RiskInputs(
                action: action, changedLines: candidate.changedLines, files: candidate.files,
                changedLinesCovered: candidate.coverage?.covered, changedLinesTotal: candidate.coverage?.total,
                sensitiveAreas: SensitiveCode.areas(changedText: changed, paths: candidate.files, cwes: request.ruleCWEs),
                actorSuccessRate: request.actorSuccessRate))
        var decision = Decision(
            requested: requested, level: requested, rule: "requested",
            reasons: ["\(requested.rawValue) was asked for"], policy: verdict, risk: risk,
            confidence: candidate.confidence.value, rateLimit: nil)
        switch verdict.effect {
        case .deny:
            decision.lower(
                to: .observer, rule: verdict.rule, reason: Self.join(verdict.reasons, or: "denied by the policy"),
                always: true)
        case .ask:
            decision.lower(
                to: .proposer, rule: verdict.rule, reason: Self.join(verdict.reasons, or: "the policy asks for approval"),
                always: true)
        case .allow:
            if decision.level == .actor { decision.reasons.append(Self.join(verdict.reasons, or: "allowed by \(verdict.rule)")) }
        }
        if decision.level == .actor {
            let confidence = candidate.confidence.value
            if confidence < policy.minConfidence {
                decision.lower(
                    to: .proposer, rule: "min-confidence",
                    reason: "confidence \(Self.format(confidence)) is below the policy's minimum \(Self.format(policy.minConfidence))")
            } else if risk.value > policy.maxRisk {
                decision.lower(
                    to: .proposer, rule: "max-risk",
                    reason:
                        "risk \(Self.format(risk.value)) (\(risk.level.rawValue)) is above the policy's ceiling \(Self.format(policy.maxRisk))"
                )
            } else {
                decision.reasons.append(
                    "confidence \(Self.format(confidence)) ≥ \(Self.format(policy.minConfidence)), "
                        + "risk \(Self.format(risk.value)) ≤ \(Self.format(policy.maxRisk))")
            }
        }
        if let brake = KillSwitch.ceiling(environment: environment, repository: repositoryRoot, state: state) {
            decision.lower(to: brake.level, rule: "kill-switch", reason: brake.reason)
        }
        return decision
    }

    /// Decides and acts: notification, proposal or branch, each audited.
    public func act(_ request: AutonomyRequest) throws -> AutonomyOutcome {
        let candidate = request.candidate
        let policy = request.policy
        try state.create()
        let audit = auditLog(policy: policy)
        let repository = request.opened ?? (try? GitRepository(containing: request.repository))
        var decision = decide(request, repositoryRoot: repository?.root)
        let patchHash = SHA256.hex(candidate.patch)
        var inputs = ["patch": patchHash, "policy": policy.sha256 ?? "built-in default", "signal": candidate.signal.fingerprint]
        if let evidence = request.evidenceSHA256 { inputs["evidence"] = evidence }
        let root = repository?.root ?? request.repository
        try audit.append(
            AuditEntry(
                event: "observation", actor: "sentinel heal", inputs: inputs,
                details: [
                    "repository": root, "signal": candidate.signal.kind.rawValue,
                    "message": String(candidate.signal.message.prefix(200)), "candidate": candidate.description,
                    "files": candidate.files.joined(separator: ", "),
                    "confidence": Self.format(candidate.confidence.value),
                ]), at: now())
        if decision.level > .observer, repository == nil {
            decision.lower(
                to: .observer, rule: "not-a-repository",
                reason: "\(request.repository) is not a git repository: nothing can be proposed or applied")
        }
        let redactor = self.redactor(policy: policy)
        if decision.level > .observer, redactor.finds(in: candidate.patch) {
            // Redacting the patch would break it; proposing it would publish the credential.
            decision.lower(
                to: .observer, rule: "secret-in-patch",
                reason: "the patch contains the value of a credential: it is neither proposed nor applied")
        }
        let id = String(SHA256.hex(root + "\n" + candidate.signal.fingerprint + "\n" + candidate.patch).prefix(12))
        // One connection for the whole decision; Observer never opens the queue.
        let queue = decision.level > .observer ? try store() : nil
        if decision.level == .actor, let repository {
            let dirty = (try? repository.uncommittedChanges()) ?? ["?"]
            if !dirty.isEmpty {
                decision.lower(
                    to: .proposer, rule: "uncommitted-changes",
                    reason: "the repository has uncommitted changes (\(dirty.prefix(3).joined(separator: ", "))): proposing instead")
            }
        }
        if decision.level == .actor, let queue {
            let check = try queue.reserveApplication(
                repository: root, action: ActionClass(candidate.actor), proposal: id,
                repositoryLimit: policy.repositoryDailyLimit, classLimit: policy.classDailyLimits[ActionClass(candidate.actor)],
                at: now())
            decision.rateLimit = check
            if !check.allowed {
                try audit.append(
                    AuditEntry(
                        event: "rate-limit", actor: "controller", level: AutonomyLevel.actor.rawValue, rule: "rate-limit",
                        inputs: inputs,
                        details: [
                            "proposal": id, "repositoryCount": String(check.repositoryCount),
                            "repositoryLimit": String(check.repositoryLimit), "classCount": String(check.classCount),
                            "classLimit": check.classLimit.map(String.init) ?? "none", "explanation": check.explanation,
                        ]), at: now())
                decision.lower(to: .proposer, rule: "rate-limit", reason: check.explanation + ": proposing instead")
            }
        }
        try audit.append(
            AuditEntry(
                event: "decision", actor: "controller", level: decision.level.rawValue, rule: decision.rule, inputs: inputs,
                details: [
                    "requested": decision.requested.rawValue, "reasons": decision.reasons.joined(separator: " | "),
                    "risk": Self.format(decision.risk.value), "riskLevel": decision.risk.level.rawValue,
                    "confidence": Self.format(decision.confidence), "policyEffect": decision.policy.effect.rawValue,
                    "proposal": decision.level == .observer ? "" : id,
                ]), at: now())
        var outcome = AutonomyOutcome(
            decision: decision, action: "notified", proposal: nil, applied: nil, warnings: [],
            notification: notification(candidate, decision, repository: root, action: "notified"))
        if decision.level >= .proposer, let repository, let queue {
            let queued = try propose(
                candidate, id: id, decision: decision, repository: repository, policy: policy, inputs: inputs, audit: audit,
                queue: queue, redactor: redactor)
            outcome.proposal = queued
            outcome.action = "proposed"
            if decision.level == .actor, queued.status == .pending {
                do {
                    outcome.applied = try applyNow(queued, policy: policy, audit: audit, queue: queue, author: request.author)
                    outcome.action = "applied"
                    outcome.proposal?.status = .applied
                } catch {
                    try? queue.releaseApplication(proposal: id)
                    let reason = (error as? SentinelError)?.message ?? "\(error)"
                    outcome.decision.lower(to: .proposer, rule: "application-failed", reason: "not applied: \(reason)")
                    outcome.proposal = try? queue.find(id)
                    outcome.warnings.append("not applied: \(reason)")
                }
            } else if decision.level == .actor {
                try? queue.releaseApplication(proposal: id)
                outcome.decision.lower(
                    to: .proposer, rule: "already-\(queued.status.rawValue)",
                    reason: "this change was proposed before and is \(queued.status.rawValue)")
            }
        }
        outcome.notification = notification(
            candidate, outcome.decision, repository: root, action: outcome.action, proposal: outcome.proposal,
            applied: outcome.applied)
        let notifier = Notifier(
            file: policy.notifyFile.map { $0.hasPrefix("/") ? $0 : state.file($0) }, webhook: policy.webhook, send: send,
            redactor: redactor)
        outcome.warnings += notifier.deliver(outcome.notification)
        return outcome
    }

    /// The approval queue.
    public func store() throws -> AutonomyStore { try AutonomyStore(state: state) }

    private func propose(
        _ candidate: Candidate, id: String, decision: Decision, repository: GitRepository, policy: Policy,
        inputs: [String: String], audit: AuditLog, queue: AutonomyStore, redactor: Redactor
    ) throws -> QueuedProposal {
        let (commit, base) = try repository.head()
        guard let head = commit else {
            throw SentinelError(.invalidInput, "\(repository.root): the repository has no commit to propose a change on")
        }
        let patchHash = SHA256.hex(candidate.patch)
        let title = PullRequestText.title(for: candidate)
        let branch = PullRequestText.branch(for: candidate, patchHash: patchHash)
        let created = AutonomyStore.timestamp(now())
        var document = ProposalDocument(
            id: id, created: created, repository: repository.root, branch: branch,
            base: base, baseCommit: head, title: title,
            commitMessage: PullRequestText.commitMessage(for: candidate, title: title, proposal: id),
            labels: PullRequestText.labels(for: candidate, configured: policy.github?.labels ?? ["sentinel"]),
            files: candidate.files, changes: candidate.changes, action: ActionClass(candidate.actor),
            signal: SignalSummary(candidate.signal), confidence: candidate.confidence, risk: decision.risk,
            decision: decision, patchSHA256: patchHash)
        document.decision = decision
        let (directory, digest) = try ProposalWriter.write(
            document, patch: candidate.patch, body: PullRequestText.body(for: candidate, document: document), state: state,
            redactor: redactor)
        let queued = try queue.enqueue(
            QueuedProposal(
                id: id, repository: repository.root, status: .pending, created: created, decided: nil, reason: nil,
                branch: branch, title: title, action: ActionClass(candidate.actor), fingerprint: candidate.signal.fingerprint,
                directory: directory, commit: nil, pullRequest: nil, digest: digest.description))
        if queued.created == created {
            // The digest of its files, outside their directory (also in the queue row): approval
            // compares both with the files before committing or publishing anything.
            var recorded = inputs
            recorded["proposal"] = digest.description
            try audit.append(
                AuditEntry(
                    event: "proposal", actor: "controller", level: decision.level.rawValue, rule: decision.rule,
                    inputs: recorded, details: ["proposal": id, "branch": branch, "title": title, "directory": directory]),
                at: now())
        }
        return queued
    }

    private func applyNow(
        _ queued: QueuedProposal, policy: Policy, audit: AuditLog, queue: AutonomyStore, author: GitIdentity?
    ) throws -> AppliedProposal {
        let github = try githubTarget(policy: policy)
        let files = try ProposalIntegrity.verified(queued, auditLog: state.file("audit.jsonl"))
        guard try queue.transition(queued.id, from: .pending, to: .applying, reason: ProposalRecovery.marker()) else {
            throw SentinelError(.invalidInput, "proposal \(queued.id) was decided by another process")
        }
        var applier = ProposalApplier(
            store: queue, audit: audit, github: github, send: send, actor: "controller",
            level: .actor, failpoint: failpoint)
        applier.author = author
        var applying = queued
        applying.status = .applying
        return try applier.apply(applying, files: files)
    }

    private func notification(
        _ candidate: Candidate, _ decision: Decision, repository: String, action: String, proposal: QueuedProposal? = nil,
        applied: AppliedProposal? = nil
    ) -> Notification {
        let reason: String
        switch action {
        case "notified":
            // The reason that decided: the request itself, or the last thing that lowered it.
            reason = (decision.rule == "requested" ? decision.reasons.first : decision.reasons.last) ?? "observer"
        case "proposed": reason = "queued for approval: sentinel proposals approve \(proposal?.id ?? "")"
        default: reason = "applied on branch \(applied?.branch ?? "")"
        }
        return Notification(
            time: AutonomyStore.timestamp(now()), repository: repository, signal: SignalSummary(candidate.signal),
            candidate: NotifiedCandidate(candidate), decision: decision, action: action, proposal: proposal?.id,
            branch: applied?.branch, commit: applied?.commit, pullRequest: applied?.pullRequest?.url, reason: reason)
    }

    static func join(_ reasons: [String], or fallback: String) -> String {
        reasons.isEmpty ? fallback : reasons.joined(separator: "; ")
    }

    static func format(_ value: Double) -> String { PullRequestText.format(value) }
}
