import ArgumentParser
import Autonomy
import Fleet
import Foundation
import Support

/// `fleet worker`'s pull-request publisher: where an approved heal patch is opened as a pull request.
/// The operator's, on the worker's command line; the token from an environment variable, which the
/// worker's jobs never inherit.
struct FleetPublishOptions: ParsableArguments {
    @Option(
        name: .customLong("github-repository"),
        help: ArgumentHelp(
            "Open a pull request here (owner/name) for each approved heal patch; without it, the patch is committed on a branch only.",
            valueName: "owner/name"))
    var repository: String?
    @Option(name: .customLong("github-api"), help: ArgumentHelp("The GitHub API pull requests are opened through.", valueName: "url"))
    var api = GitHubSettings.defaultAPI
    @Option(name: .customLong("github-base"), help: ArgumentHelp("The branch pull requests target.", valueName: "branch"))
    var base = "main"
    @Option(name: .customLong("github-token-env"), help: ArgumentHelp("The variable holding the GitHub token.", valueName: "name"))
    var tokenVariable = "GITHUB_TOKEN"

    /// The options again, for the worker root launches as its analysis (which reads its own command line).
    var arguments: [String] {
        guard let repository else { return [] }
        return ["--github-repository", repository, "--github-api", api, "--github-base", base, "--github-token-env", tokenVariable]
    }

    /// The publisher, and the environment without the token's variable (for the jobs); nil without --github-repository.
    func resolve(environment: [String: String]) throws -> (FleetPublisher?, [String: String]) {
        guard let repository else { return (nil, environment) }
        let parts = repository.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) } })
        else {
            throw SentinelError(.invalidInput, "--github-repository: '\(DisplayText.escaped(repository.prefix(100)))' is not owner/name")
        }
        guard let token = environment[tokenVariable], !token.isEmpty else {
            throw SentinelError(.invalidInput, "--github-repository: no token in \(tokenVariable) (name another with --github-token-env)")
        }
        let publisher = FleetPublisher(repository: repository, config: GitHubConfig(apiURL: api, token: token), base: base)
        return (publisher, environment.filter { $0.key != tokenVariable })
    }
}
