import Foundation
import Support

/// Where the GitHub REST API is and the token that may write to the repository. The token is
/// a credential: descriptions, debug output and `dump` never show it.
public struct GitHubConfig: Sendable {
    /// The API's base URL: `https://api.github.com`, or a GitHub Enterprise `https://HOST/api/v3`.
    public var apiURL: String
    /// A token with contents and pull-request write access; sent only as `Authorization: Bearer`.
    public var token: String

    /// A configuration for `apiURL` (default GitHub.com) with `token`.
    public init(apiURL: String = "https://api.github.com", token: String) {
        self.apiURL = apiURL
        self.token = token
    }

    /// `apiURL` without a trailing `/`, so that paths join with one.
    var baseURL: String {
        var url = apiURL
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// Refuses an empty token or one that would split a header, and a plain-http URL to anything
    /// but this machine (the token would cross the network in clear). Never shows the token.
    func validate() throws {
        guard !token.isEmpty else { throw SentinelError(.invalidInput, "GitHub: the token is empty") }
        guard !token.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7f }) else {
            throw SentinelError(.invalidInput, "GitHub: the token holds whitespace or a control character")
        }
        let components = URLComponents(string: baseURL)
        let scheme = components?.scheme?.lowercased()
        let host = components?.host?.lowercased() ?? ""
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        guard !host.isEmpty, scheme == "https" || (scheme == "http" && loopback) else {
            throw SentinelError(.invalidInput, "GitHub: API URL '\(apiURL)' must be https (plain http only to this machine)")
        }
    }
}

extension GitHubConfig: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The API URL, with the token shown as `<redacted>`.
    public var description: String { "GitHubConfig(apiURL: \(apiURL), token: <redacted>)" }

    /// Same as `description`: debug output must not show the token either.
    public var debugDescription: String { description }

    /// `dump` and debuggers see the API URL and a redacted token.
    public var customMirror: Mirror {
        Mirror(self, children: ["apiURL": apiURL, "token": "<redacted>"], displayStyle: .struct)
    }
}
