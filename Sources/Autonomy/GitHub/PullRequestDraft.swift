import Git

/// An approved change, ready to become a pull request: where it goes (repository, base branch
/// and the commit it was made against), the new branch, the texts, the files and the labels.
public struct PullRequestDraft: Sendable, Hashable, Codable {
    /// The repository as `owner/name`.
    public var repository: String
    /// The branch the pull request merges into, e.g. `main`.
    public var base: String
    /// The 40-hex commit the change was made against; it must already be on GitHub.
    public var baseCommit: String
    /// The new branch that carries the change, e.g. `sentinel/fix/python.yaml-load-1a2b3c4d`.
    public var branch: String
    /// The pull request's title.
    public var title: String
    /// The pull request's description (the proposal's `PR.md`).
    public var body: String
    /// The message of the commit that holds the change.
    public var commitMessage: String
    /// The files: added (`before` nil), changed, or deleted (`after` nil).
    public var changes: [FileChange]
    /// Labels to put on the pull request; adding them is best-effort.
    public var labels: [String]

    /// A draft with every field given.
    public init(
        repository: String, base: String, baseCommit: String, branch: String, title: String, body: String,
        commitMessage: String, changes: [FileChange], labels: [String]
    ) {
        self.repository = repository
        self.base = base
        self.baseCommit = baseCommit
        self.branch = branch
        self.title = title
        self.body = body
        self.commitMessage = commitMessage
        self.changes = changes
        self.labels = labels
    }
}
