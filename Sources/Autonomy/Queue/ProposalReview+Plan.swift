import Git

extension ProposalReview {
    /// What `approve` would do, without doing it: the policy that decides, the files, the commit,
    /// where the branch would be pushed and the pull request opened (or why nothing is pushed),
    /// then every GitHub request. A GitHub API the approval would refuse is refused here too.
    public func plan(_ id: String) throws -> String {
        let queued = try pending(id, store: try store())
        let files = try ProposalIntegrity.verified(queued, auditLog: state.file("audit.jsonl"))
        let document = files.document
        let policy = try policy(for: queued)
        var text = "would commit the patch of proposal \(queued.id) on top of "
        text += (document.base.map { "refs/heads/\($0)" } ?? document.baseCommit) + " as branch \(queued.branch)\n"
        let source = operatorPolicy == nil ? "the repository's" : "--policy"
        text += "policy: " + (policy.file.map { "\($0) (\(source))" } ?? "built-in default") + "\n"
        text += "files: " + document.changes.map(Self.describe).joined(separator: ", ") + "\n"
        text +=
            "commit message:\n"
            + document.commitMessage.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "    " + $0 }.joined(separator: "\n") + "\n"
        guard let settings = policy.github else {
            return text + "no GitHub repository in the policy: nothing is pushed\n"
        }
        guard try controller().githubTarget(policy: policy) != nil else {
            return text
                + "\(settings.tokenEnv) is not set: the branch would be committed in this repository only; "
                + "nothing is pushed to \(settings.repository)\n"
        }
        let draft = PullRequestDraft(
            repository: settings.repository, base: settings.base ?? document.base ?? "main",
            baseCommit: document.baseCommit, branch: queued.branch, title: document.title,
            body: files.body, commitMessage: document.commitMessage, changes: document.changes, labels: document.labels)
        text += "would push branch \(draft.branch) to \(draft.repository) and open a pull request into \(draft.base): "
        text += "\"\(draft.title)\"" + (draft.labels.isEmpty ? "" : ", labels \(draft.labels.joined(separator: ", "))") + "\n"
        text += "GitHub requests to \(settings.api) (token from \(settings.tokenEnv): set):\n"
        var contents = document.changes.compactMap { change in change.after.map { (change.path, $0.utf8.count) } }[...]
        for request in GitHubPublisher.plan(draft) {
            text += "  \(request.method) \(request.path)"
            if request.path.hasSuffix("/git/blobs"), let (path, size) = contents.popFirst() {
                text += " (\(path), \(size) bytes)"
            } else if let body = request.body {
                text += " " + String(body.prefix(300)) + (body.count > 300 ? "…" : "")
            }
            text += "\n"
        }
        return text
    }

    /// `path (changed)`, `(added)` or `(removed)`.
    private static func describe(_ change: FileChange) -> String {
        switch (change.before, change.after) {
        case (nil, _): "\(change.path) (added)"
        case (_, nil): "\(change.path) (removed)"
        default: "\(change.path) (changed)"
        }
    }
}
