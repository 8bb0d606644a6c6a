import Foundation
import HTTP

/// One answer from the API: its status and headers, the parsed body, and what a failed one
/// means in a sentence.
struct GitHubReply {
    /// The HTTP status.
    let status: Int
    /// The status line's headers (rate-limit headers are read from them).
    let response: HTTPResponse
    /// The body as `JSONSerialization` reads it; nil when it is not JSON.
    let json: Any?

    /// Reads `body`; garbage leaves `json` nil rather than failing.
    init(response: HTTPResponse, body: [UInt8]) {
        self.status = response.status
        self.response = response
        self.json = GitHubJSON.parse(body)
    }

    /// Whether the status is 2xx.
    var succeeded: Bool { (200..<300).contains(status) }

    /// The string at `keys` inside nested objects, nil when missing or not a string.
    func string(_ keys: String...) -> String? {
        value(keys) as? String
    }

    /// The integer at `key`, nil when missing or not an integer.
    func integer(_ key: String) -> Int? {
        (value([key]) as? NSNumber).flatMap { Int(exactly: $0.doubleValue) }
    }

    private func value(_ keys: [String]) -> Any? {
        keys.reduce(json) { current, key in (current as? [String: Any])?[key] }
    }

    /// GitHub's `message`, followed by the first of its `errors` (where a 422 says what is
    /// wrong), on one line and bounded: it goes into an error message.
    var message: String? {
        guard let object = json as? [String: Any] else { return nil }
        let errors = object["errors"] as? [Any] ?? []
        let detail = (errors.first as? [String: Any])?["message"] as? String ?? errors.first as? String
        let parts = [object["message"] as? String, detail].compactMap { $0 }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return nil }
        let line = parts.joined(separator: ": ").split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 300 ? String(line.prefix(300)) + "..." : line
    }

    /// What a failed answer means, for any step; steps word their own statuses first.
    func problem(repository: String) -> String {
        let rateLimited =
            status == 429 || (status == 403 && (response.header("x-ratelimit-remaining") == "0" || response.header("retry-after") != nil))
        if rateLimited { return "GitHub API rate limit exceeded (\(status)); \(rateLimitReset)" }
        switch status {
        case 401: return "GitHub rejected the token (401 \(message ?? "Bad credentials")); check the token"
        case 403: return "forbidden (403): \(message ?? "no reason given")"
        case 404: return "repository \(repository) not found or the token cannot see it (404)"
        case 500...: return "GitHub server error (\(status)): \(message ?? "no message")"
        default: return "GitHub refused the request (\(status) \(message ?? "no message"))"
        }
    }

    /// When a rate limit lifts: `x-ratelimit-reset` (epoch seconds) as an ISO 8601 time, else
    /// `retry-after` seconds.
    private var rateLimitReset: String {
        if let reset = response.header("x-ratelimit-reset").flatMap(Double.init), reset.isFinite, reset >= 0, reset < 1e11 {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            return "it resets at \(formatter.string(from: Date(timeIntervalSince1970: reset)))"
        }
        if let seconds = response.header("retry-after").flatMap(Int.init) { return "retry after \(seconds) seconds" }
        return "try again later"
    }
}
