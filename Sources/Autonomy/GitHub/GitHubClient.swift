import HTTP
import Support

/// Sends the requests of one publication: adds the headers and the token, turns transport
/// failures and refusals into one-line `.github` errors naming the step and the repository, and
/// redacts the token from every message.
struct GitHubClient {
    /// Why a request got no answer (connection, timeout, size cap).
    struct TransportFailure: Error {
        /// The HTTP client's message.
        let message: String
    }

    let config: GitHubConfig
    let repository: String
    let send: (HTTPRequest) throws -> (HTTPResponse, [UInt8])

    /// The answer to `request`, whatever its status; throws `TransportFailure` without one.
    func exchange(_ request: GitHubRequest) throws -> GitHubReply {
        var headers = [
            "Authorization": "Bearer \(config.token)", "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "sentinel",
        ]
        if request.body != nil { headers["Content-Type"] = "application/json" }
        let http = HTTPRequest(
            url: config.baseURL + request.path, method: request.method, headers: headers,
            // The body's prose (PR.md, the commit message) was redacted when the proposal was
            // written; here only the token itself, never shapes (blobs are base64 file content).
            body: Redactor(secrets: [config.token], shapes: false).redact(Array((request.body ?? "").utf8)),
            timeout: 120, connectTimeout: 20, maxBytes: 8 << 20)
        do {
            let (response, body) = try send(http)
            return GitHubReply(response: response, body: body)
        } catch let error as SentinelError {
            throw TransportFailure(message: error.message)
        } catch {
            throw TransportFailure(message: "\(error)")
        }
    }

    /// The successful answer to `request`; anything else throws, worded by `explain` when it
    /// has words for the status, else by the reply's own `problem`.
    func call(_ request: GitHubRequest, step: String, explain: (GitHubReply) -> String? = { _ in nil }) throws -> GitHubReply {
        let reply: GitHubReply
        do {
            reply = try exchange(request)
        } catch {
            throw failure(step, describe(error))
        }
        guard reply.succeeded else { throw failure(step, explain(reply) ?? reply.problem(repository: repository)) }
        return reply
    }

    /// The error of `step` failing with `problem`: one line, no token.
    func failure(_ step: String, _ problem: String) -> SentinelError {
        SentinelError(.github, redact("GitHub \(repository), \(step): \(problem)"))
    }

    /// `error` with `note` appended (what was done about the branch).
    func failure(_ error: any Error, adding note: String) -> SentinelError {
        SentinelError(.github, redact("\(describe(error)); \(note)"))
    }

    /// An error's message, whatever its type.
    func describe(_ error: any Error) -> String {
        switch error {
        case let failure as TransportFailure: return redact(failure.message)
        case let failure as SentinelError: return redact(failure.message)
        default: return redact("\(error)")
        }
    }

    /// `text` on one line with the token replaced by `<redacted>`: servers and proxies quote
    /// what they were sent, and a message may end up in a log.
    func redact(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return config.token.isEmpty ? line : line.replacingOccurrences(of: config.token, with: "<redacted>")
    }
}
