// TEMPORARY: replaced by the github branch on merge.
import Git
import HTTP
public struct PullRequestDraft: Sendable, Hashable, Codable {
    public var repository: String
    public var base: String
    public var baseCommit: String
    public var branch: String
    public var title: String
    public var body: String
    public var commitMessage: String
    public var changes: [FileChange]
    public var labels: [String]
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
public struct GitHubConfig: Sendable {
    public var apiURL: String
    public var token: String
    public init(apiURL: String = "https://api.github.com", token: String) {
        self.apiURL = apiURL
        self.token = token
    }
}
public struct GitHubRequest: Sendable, Hashable {
    public var method: String
    public var path: String
    public var body: String?
}
public struct PublishedPullRequest: Sendable, Hashable, Codable {
    public var number: Int
    public var url: String
    public var branch: String
    public var commit: String
    public var warnings: [String]
}
public enum GitHubPublisher {
    public static func plan(_ draft: PullRequestDraft) -> [GitHubRequest] { [] }
    public static func publish(
        _ draft: PullRequestDraft, config: GitHubConfig,
        send: (HTTPRequest) throws -> (HTTPResponse, [UInt8]) = HTTPClient.send
    ) throws -> PublishedPullRequest { fatalError() }
}
import Support
extension SentinelError.Code {
    public static let github = SentinelError.Code("github", exitStatus: 1)
}
