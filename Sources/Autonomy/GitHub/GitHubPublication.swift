/// One run of `GitHubPublisher.publish`: the steps in order, each failing with its own name,
/// and the branch removed again when the pull request cannot be opened on it.
struct GitHubPublication {
    let draft: PullRequestDraft
    let client: GitHubClient

    private var repository: String { draft.repository }

    func run() throws -> PublishedPullRequest {
        let baseTree = try readBaseTree()
        var entries: [(path: String, blob: String?)] = []
        for change in draft.changes {
            // A deleted file has no blob: its tree entry removes the path.
            let blob = try change.after.map { try create(.createBlob(repository, content: $0), step: "upload \(change.path)") }
            entries.append((change.path, blob))
        }
        let tree = try create(.createTree(repository, baseTree: baseTree, entries: entries), step: "create tree")
        let commit = try create(
            .createCommit(repository, message: draft.commitMessage, tree: tree, parent: draft.baseCommit), step: "create commit")
        try createBranch(at: commit)
        let (number, url) = try openPullRequest()
        return PublishedPullRequest(number: number, url: url, branch: draft.branch, commit: commit, warnings: addLabels(to: number))
    }

    /// The tree of the base commit, which the new tree is built on.
    private func readBaseTree() throws -> String {
        let step = "read base commit"
        let reply = try client.call(.readCommit(repository, draft.baseCommit), step: step) { reply in
            reply.status == 404 ? missingCommitOrRepository() : nil
        }
        guard let tree = reply.string("tree", "sha"), !tree.isEmpty else {
            throw client.failure(step, "GitHub answered \(reply.status) without the commit's tree")
        }
        return tree
    }

    /// GitHub answers 404 both for a commit it does not have and for a repository the token
    /// cannot see; reading the repository tells which.
    private func missingCommitOrRepository() -> String {
        if let reply = try? client.exchange(.readRepository(repository)), reply.status == 404 {
            return reply.problem(repository: repository)
        }
        return "base commit \(draft.baseCommit) is not on GitHub (push the base branch first)"
    }

    /// Sends `request`, which creates a blob, tree or commit, and returns the new object's sha.
    private func create(_ request: GitHubRequest, step: String) throws -> String {
        let reply = try client.call(request, step: step)
        guard let sha = reply.string("sha"), !sha.isEmpty else {
            throw client.failure(step, "GitHub answered \(reply.status) without a sha")
        }
        return sha
    }

    /// Creates the branch at `commit`. When the answer leaves it unclear whether the branch
    /// was made (no answer, a 5xx), the branch is removed if it points at this commit.
    private func createBranch(at commit: String) throws {
        let step = "create branch"
        let reply: GitHubReply
        do {
            reply = try client.exchange(.createBranch(repository, branch: draft.branch, commit: commit))
        } catch {
            throw client.failure(client.failure(step, client.describe(error)), adding: removeBranch(ifAt: commit))
        }
        if reply.succeeded { return }
        if reply.status == 422, reply.message.map({ $0.contains("already exists") }) ?? true {
            let reason = reply.message ?? "Reference already exists"
            throw client.failure(step, "branch '\(draft.branch)' already exists in \(repository) (422 \(reason))")
        }
        let failure = client.failure(step, reply.problem(repository: repository))
        throw reply.status >= 500 ? client.failure(failure, adding: removeBranch(ifAt: commit)) : failure
    }

    /// Opens the pull request; on any failure the branch is removed again, so that nothing
    /// is left half-done.
    private func openPullRequest() throws -> (number: Int, url: String) {
        let step = "open pull request"
        do {
            let reply = try client.call(.openPullRequest(draft), step: step)
            guard let number = reply.integer("number"), let url = reply.string("html_url") else {
                throw client.failure(step, "GitHub answered \(reply.status) without the number and html_url")
            }
            return (number, url)
        } catch {
            throw client.failure(error, adding: removeBranch())
        }
    }

    /// Labels are best-effort: the pull request stands without them, with a warning.
    private func addLabels(to number: Int) -> [String] {
        guard !draft.labels.isEmpty else { return [] }
        do {
            _ = try client.call(.addLabels(repository, number: String(number), labels: draft.labels), step: "add labels")
            return []
        } catch {
            return ["pull request #\(number) is open but its labels were not added: \(client.describe(error))"]
        }
    }

    /// Deletes the branch; says what happened, for the error message.
    private func removeBranch() -> String {
        let failure: String
        do {
            let reply = try client.exchange(.deleteBranch(repository, branch: draft.branch))
            if reply.succeeded { return "branch '\(draft.branch)' was removed again" }
            failure = reply.problem(repository: repository)
        } catch {
            failure = client.describe(error)
        }
        return "removing branch '\(draft.branch)' also failed (\(failure)); delete it by hand"
    }

    /// Deletes the branch only if it points at `commit`, the one just made: a branch that
    /// existed before is someone else's.
    private func removeBranch(ifAt commit: String) -> String {
        let reply = try? client.exchange(.readBranch(repository, branch: draft.branch))
        switch reply {
        case let reply? where reply.status == 404: return "branch '\(draft.branch)' was not created"
        case let reply? where reply.succeeded && reply.string("object", "sha") == commit: return removeBranch()
        case let reply? where reply.succeeded: return "branch '\(draft.branch)' points elsewhere and was left alone"
        default: return "branch '\(draft.branch)' may exist at \(commit); check it and delete it by hand"
        }
    }
}
