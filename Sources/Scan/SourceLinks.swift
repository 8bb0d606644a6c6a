/// Where a report's file locations can be opened in a browser, when the environment says:
/// `SENTINEL_SOURCE_URL` (the repository root's page, e.g. `https://git.example/r/blob/main/`),
/// else GitHub Actions (`GITHUB_SERVER_URL/GITHUB_REPOSITORY/blob/GITHUB_SHA/`), else GitLab CI
/// (`CI_PROJECT_URL/-/blob/CI_COMMIT_SHA/`). Nothing is guessed otherwise.
public enum SourceLinks {
    /// The base URL for files of the scanned directory, which is `prefix` below the repository root.
    public static func baseURL(environment: [String: String], prefix: String) -> String? {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        var root: String
        if let explicit = value("SENTINEL_SOURCE_URL") {
            root = explicit
        } else if let server = value("GITHUB_SERVER_URL"), let repository = value("GITHUB_REPOSITORY"),
            let sha = value("GITHUB_SHA")
        {
            root = "\(server)/\(repository)/blob/\(sha)/"
        } else if let project = value("CI_PROJECT_URL"), let sha = value("CI_COMMIT_SHA") {
            root = "\(project)/-/blob/\(sha)/"
        } else {
            return nil
        }
        if !root.hasSuffix("/") { root += "/" }
        return prefix.isEmpty ? root : root + prefix + "/"
    }
}
