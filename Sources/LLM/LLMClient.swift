import Foundation
import HTTP
import Support
import Synchronization

/// A client for an OpenAI-compatible `/v1/chat/completions` server. It retries 429 and 5xx
/// with backoff (honouring `Retry-After`), keeps a token budget across calls, and turns
/// failures into `SentinelError`s that never hold the key. Safe to share between threads.
public final class LLMClient: Sendable {
    /// Sends one request and returns the response with its body (`HTTPClient.send`; tests and
    /// the heal loop's own tests can script one).
    public typealias Transport = @Sendable (HTTPRequest) throws -> (HTTPResponse, [UInt8])
    /// Waits between attempts, seconds (`Thread.sleep`; tests record instead of waiting).
    public typealias Sleep = @Sendable (Double) -> Void

    /// The settings; its description redacts the key.
    public let configuration: LLMConfiguration
    private let transport: Transport
    private let sleep: Sleep
    private let budget: Mutex<LLMTokenBudget>

    /// A client for `configuration`; `transport` and `sleep` are replaceable for tests.
    public init(
        configuration: LLMConfiguration, transport: @escaping Transport = { try HTTPClient.send($0) },
        sleep: @escaping Sleep = { Thread.sleep(forTimeInterval: $0) }
    ) {
        self.configuration = configuration
        self.transport = transport
        self.sleep = sleep
        budget = Mutex(LLMTokenBudget(limit: configuration.maxTokens))
    }

    /// Tokens charged so far (reported usage, or estimates where the server reported none).
    public var tokensUsed: Int { budget.withLock { $0.used } }
    /// Tokens left in the budget (not counting requests in flight).
    public var tokensRemaining: Int { budget.withLock { max(0, $0.limit - $0.used) } }

    /// Asks the model to continue `messages` and returns its answer.
    ///
    /// Throws `SentinelError` with `.llmBudget` (before sending) when the budget cannot cover
    /// the prompt, `.llmAuth` on 401/403, `.llmUnavailable` when 429/5xx outlast the attempts
    /// (or the quota is gone), `.llmResponse` for malformed JSON, missing choices or another
    /// status, and `.network` when the server cannot be reached. Messages name the endpoint
    /// and never the key.
    ///
    /// `within`: seconds the whole exchange may take, every attempt and wait included (the heal's
    /// `--max-minutes` left); each request's timeout is cut to what is left, and no retry starts
    /// after it (`.llmUnavailable`, "out of time").
    public func complete(_ messages: [LLMMessage], within seconds: Double? = nil) throws -> LLMReply {
        let estimate = LLMTokenBudget.estimate(messages)
        try budget.withLock { try $0.reserve(estimate) }
        var charged = 0
        defer { budget.withLock { $0.settle(estimate, charging: charged) } }
        let deadline = seconds.map { Date().addingTimeInterval(max(0, $0)) }
        func left() -> Double? { deadline.map { $0.timeIntervalSinceNow } }
        var request = makeRequest(messages)
        var attempt = 0
        while true {
            attempt += 1
            if let left = left() {
                guard left > 0.5 else { throw failure(.llmUnavailable, "out of time (--max-minutes) after \(attempt - 1) attempt(s)") }
                request.timeout = min(configuration.requestTimeout, left)
                request.connectTimeout = min(request.connectTimeout, left)
            }
            let (response, body) = try send(request)
            switch response.status {
            case 200..<300:
                let answer: ChatCompletionJSON.Answer
                do {
                    answer = try ChatCompletionJSON.answer(body)
                } catch {
                    charged = estimate  // the server did the work; charge what we know it read
                    throw failure(.llmResponse, error.text)
                }
                let tokens = answer.totalTokens ?? estimate + LLMTokenBudget.estimate(answer.content)
                charged = tokens
                if let key = configuration.key, !key.value.isEmpty, answer.content.contains(key.value) {
                    throw failure(.llmResponse, "the reply repeats the API key; discarded")
                }
                return LLMReply(
                    content: answer.content, tokens: tokens, tokensEstimated: answer.totalTokens == nil,
                    finishReason: answer.finishReason, attempts: attempt)
            case 401, 403:
                throw failure(
                    .llmAuth,
                    "HTTP \(response.status): the server refused the credentials (check SENTINEL_LLM_KEY or SENTINEL_LLM_KEY_FILE): "
                        + ChatCompletionJSON.providerMessage(body))
            case 408, 429, 500..<600:
                let detail = "HTTP \(response.status): \(ChatCompletionJSON.providerMessage(body))"
                if response.status == 429, ChatCompletionJSON.quotaExhausted(body) {
                    throw failure(.llmUnavailable, "\(detail) (the account's quota is exhausted)")
                }
                guard attempt < configuration.maxAttempts else {
                    throw failure(.llmUnavailable, "gave up after \(attempt) attempt(s): \(detail)")
                }
                let delay = LLMRetryDelay.seconds(
                    attempt: attempt, retryAfter: response.header("Retry-After"), base: configuration.retryBaseDelay,
                    cap: configuration.maxRetryDelay)
                if let left = left(), delay >= left {
                    throw failure(.llmUnavailable, "out of time (--max-minutes) for another attempt: \(detail)")
                }
                sleep(delay)
            default:
                throw failure(.llmResponse, "HTTP \(response.status): \(ChatCompletionJSON.providerMessage(body))")
            }
        }
    }

    private func makeRequest(_ messages: [LLMMessage]) -> HTTPRequest {
        var headers = ["Content-Type": "application/json", "Accept": "application/json"]
        if let key = configuration.key { headers["Authorization"] = "Bearer \(key.value)" }
        return HTTPRequest(
            url: configuration.endpoint, method: "POST", headers: headers,
            // The prompt quotes the signal and the sources (hostile text): the environment's
            // credentials and the key are replaced; shapes are not (they are the code's own).
            body: Redactor(secrets: Redactor.process.secrets + [configuration.key?.value].compactMap { $0 }, shapes: false).redact(
                ChatCompletionJSON.body(model: configuration.model, messages: messages, temperature: configuration.temperature)),
            timeout: configuration.requestTimeout, connectTimeout: min(30, configuration.requestTimeout),
            maxBytes: configuration.maxResponseBytes)
    }

    /// The transport's answer; its errors come back scrubbed of the key.
    private func send(_ request: HTTPRequest) throws -> (HTTPResponse, [UInt8]) {
        do {
            return try transport(request)
        } catch let error as SentinelError {
            var scrubbed = error
            scrubbed.message = scrub(error.message)
            throw scrubbed
        } catch {
            throw SentinelError(.network, scrub("POST \(configuration.endpoint): \(error)"))
        }
    }

    private func failure(_ code: SentinelError.Code, _ problem: String) -> SentinelError {
        SentinelError(code, scrub("LLM POST \(configuration.endpoint): \(problem)"))
    }

    private func scrub(_ text: String) -> String {
        configuration.key?.scrub(text) ?? text
    }
}

extension LLMClient: CustomStringConvertible, CustomReflectable {
    /// The endpoint, model and tokens used; never the key.
    public var description: String {
        "LLMClient(endpoint: \(configuration.endpoint), model: \(configuration.model), tokensUsed: \(tokensUsed))"
    }

    /// `dump` and debuggers see the (redacted) configuration and the tokens used only.
    public var customMirror: Mirror {
        Mirror(self, children: ["configuration": configuration, "tokensUsed": tokensUsed], displayStyle: .class)
    }
}
