/// The policy's `github` section: where the publisher opens pull requests.
public struct GitHubSettings: Sendable, Hashable, Codable {
    /// `owner/name` of the repository pull requests go to.
    public var repository: String
    /// The API root, without a trailing `/`; `https://api.github.com` by default.
    public var api: String
    /// The environment variable holding the token; `GITHUB_TOKEN` by default.
    public var tokenEnv: String
    /// Labels put on every pull request; `["sentinel"]` by default.
    public var labels: [String]
    /// The branch pull requests target; nil for the repository's default branch.
    public var base: String?

    /// The default API root.
    public static let defaultAPI = "https://api.github.com"

    /// Settings for `repository`, defaults for the rest.
    public init(
        repository: String, api: String = GitHubSettings.defaultAPI, tokenEnv: String = "GITHUB_TOKEN",
        labels: [String] = ["sentinel"], base: String? = nil
    ) {
        self.repository = repository
        self.api = api
        self.tokenEnv = tokenEnv
        self.labels = labels
        self.base = base
    }
}
