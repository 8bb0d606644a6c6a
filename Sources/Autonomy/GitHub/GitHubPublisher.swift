import HTTP

/// Publishes an approved change as a GitHub pull request over the REST API: the blobs, a tree
/// on the base commit's tree, a commit, a new branch, the pull request, then its labels. Every
/// step is checked before the next; nothing is half-done: if the pull request cannot be
/// opened, the branch made for it is deleted again. Blobs, trees and commits nothing refers to
/// are left for GitHub's garbage collection.
public enum GitHubPublisher {
    /// Placeholders the plan shows where a value comes from an earlier answer.
    enum Placeholder {
        static let baseTree = "<tree of the base commit>"
        static let tree = "<sha of the new tree>"
        static let commit = "<sha of the new commit>"
        static let pullRequest = "<number of the new pull request>"
        static func blob(_ number: Int) -> String { "<sha of blob \(number)>" }
    }

    /// The requests `publish` would send, in order, with placeholders like "<sha of blob 1>"
    /// where a value comes from an earlier response; the token never appears. Requests sent
    /// only on failure (telling a missing repository from a missing commit, removing the
    /// branch again) are not listed.
    public static func plan(_ draft: PullRequestDraft) -> [GitHubRequest] {
        let repository = draft.repository
        var requests = [GitHubRequest.readCommit(repository, draft.baseCommit)]
        var entries: [(path: String, blob: String?)] = []
        for change in draft.changes {
            guard let content = change.after else {
                entries.append((change.path, nil))
                continue
            }
            requests.append(.createBlob(repository, content: content))
            entries.append((change.path, Placeholder.blob(requests.count - 1)))
        }
        requests += [
            .createTree(repository, baseTree: Placeholder.baseTree, entries: entries),
            .createCommit(repository, message: draft.commitMessage, tree: Placeholder.tree, parent: draft.baseCommit),
            .createBranch(repository, branch: draft.branch, commit: Placeholder.commit),
            .openPullRequest(draft),
        ]
        if !draft.labels.isEmpty {
            requests.append(.addLabels(repository, number: Placeholder.pullRequest, labels: draft.labels))
        }
        return requests
    }

    /// Sends them; returns the PR. Throws `SentinelError(.invalidInput)` for a draft or
    /// configuration it refuses before sending anything, and `SentinelError(.github)` with a
    /// one-line message naming the step and the repository (never the token) when GitHub
    /// refuses or fails. Labels that cannot be added leave a warning, not an error.
    public static func publish(
        _ draft: PullRequestDraft, config: GitHubConfig,
        send: (HTTPRequest) throws -> (HTTPResponse, [UInt8]) = HTTPClient.send
    ) throws -> PublishedPullRequest {
        try draft.validate()
        try config.validate()
        return try withoutActuallyEscaping(send) { send in
            let client = GitHubClient(config: config, repository: draft.repository, send: send)
            return try GitHubPublication(draft: draft, client: client).run()
        }
    }
}
