/// A pull request `GitHubPublisher.publish` opened.
public struct PublishedPullRequest: Sendable, Hashable, Codable {
    /// The pull request's number in its repository.
    public var number: Int
    /// Its web address (`html_url`).
    public var url: String
    /// The branch that carries the change.
    public var branch: String
    /// The commit on that branch.
    public var commit: String
    /// What went wrong without undoing the pull request (labels that could not be added).
    public var warnings: [String]

    /// A published pull request; see the properties.
    public init(number: Int, url: String, branch: String, commit: String, warnings: [String] = []) {
        self.number = number
        self.url = url
        self.branch = branch
        self.commit = commit
        self.warnings = warnings
    }
}
