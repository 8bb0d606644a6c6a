import Foundation
import HTTP
import Heal
import LLM
import Support
import Testing
import TestSupport

/// `LLMClient` against a scripted provider on 127.0.0.1; sleeping is recorded, never done.
@Suite(.integration) struct LLMClientTests {
    static let key = "sk-test-SECRET-4f9a8b7c6d5e"
    let messages = [LLMMessage(.system, "You fix code."), LLMMessage(.user, "Fix the division.")]

    @Test func normalReplySendsTheChatRequestAndCountsUsage() throws {
        let provider = try FakeLLMProvider([FakeLLMProvider.completion("use a guard", totalTokens: 123)])
        let log = SleepLog()
        let client = LLMClient(configuration: provider.configuration(key: Self.key), sleep: log.sleep)
        let reply = try client.complete(messages)
        #expect(reply.content == "use a guard")
        #expect(reply.tokens == 123 && !reply.tokensEstimated && reply.attempts == 1 && reply.finishReason == "stop")
        #expect(client.tokensUsed == 123 && client.tokensRemaining == 200_000 - 123)

        let request = try #require(provider.requests.first)
        #expect(request.method == "POST" && request.path == "/v1/chat/completions")
        #expect(request.headers["authorization"] == "Bearer \(Self.key)")
        #expect(request.headers["content-type"] == "application/json")
        let body = try provider.requestJSON(0)
        #expect(body["model"] as? String == "test-model")
        #expect(body["temperature"] as? Double == 0.2)
        let sent = try #require(body["messages"] as? [[String: String]])
        #expect(sent == [["role": "system", "content": "You fix code."], ["role": "user", "content": "Fix the division."]])
        #expect(log.recorded.isEmpty)
    }

    @Test func noKeyNoAuthorizationHeaderAndUsageEstimatedWhenAbsent() throws {
        let provider = try FakeLLMProvider([FakeLLMProvider.completion("ok", totalTokens: nil)])
        let client = LLMClient(configuration: provider.configuration(), sleep: SleepLog().sleep)
        let reply = try client.complete(messages)
        #expect(provider.requests.first?.headers["authorization"] == nil)
        #expect(reply.tokensEstimated && reply.tokens > 0 && client.tokensUsed == reply.tokens)
    }

    @Test(arguments: [
        (LoopbackHTTPServer.Response(status: 200, body: Array("{\"choices\": [".utf8)), "malformed JSON"),
        (FakeLLMProvider.json(200, ["choices": [Any]()]), "no choices"),
        (FakeLLMProvider.json(200, ["object": "chat.completion"]), "no choices"),
        (FakeLLMProvider.json(200, ["choices": [["message": ["role": "assistant"]]]]), "no message content"),
        (FakeLLMProvider.json(404, ["error": ["message": "model 'x' not found"]]), "HTTP 404: model 'x' not found"),
    ])
    func unusableRepliesAreResponseErrors(response: LoopbackHTTPServer.Response, problem: String) throws {
        let provider = try FakeLLMProvider([response])
        let client = LLMClient(configuration: provider.configuration(key: Self.key), sleep: SleepLog().sleep)
        let error = try #require(throws: SentinelError.self) { try client.complete(messages) }
        #expect(error.code == .llmResponse)
        #expect(error.message.hasPrefix("LLM POST \(provider.server.baseURL)/v1/chat/completions: "))
        #expect(error.message.contains(problem))
        #expect(provider.requests.count == 1)
    }

    @Test func tooManyRequestsThenSuccessHonoursRetryAfter() throws {
        let provider = try FakeLLMProvider([
            FakeLLMProvider.json(429, ["error": ["message": "slow down"]], headers: [("Retry-After", "7")]),
            FakeLLMProvider.completion("done"),
        ])
        let log = SleepLog()
        let client = LLMClient(configuration: provider.configuration(key: Self.key), sleep: log.sleep)
        let reply = try client.complete(messages)
        #expect(reply.content == "done" && reply.attempts == 2)
        #expect(log.recorded == [7])
        #expect(provider.requests.count == 2)
        #expect(provider.requests.map(\.body) == [provider.requests[0].body, provider.requests[0].body])
    }

    @Test func retryAfterIsCapped() throws {
        let provider = try FakeLLMProvider([
            .init(status: 503, headers: [("Retry-After", "86400")]), FakeLLMProvider.completion("done"),
        ])
        let log = SleepLog()
        var configuration = provider.configuration()
        configuration.maxRetryDelay = 30
        _ = try LLMClient(configuration: configuration, sleep: log.sleep).complete(messages)
        #expect(log.recorded == [30])
    }

    /// Hostile inputs round 3, finding 15: a provider answering 503 (with a long Retry-After)
    /// held a one-minute heal for minutes. The exchange ends within the heal's time left.
    @Test func retriesEndWithinTheTimeLeft() throws {
        let provider = try FakeLLMProvider([
            .init(status: 503, headers: [("Retry-After", "20")]), .init(status: 503, headers: [("Retry-After", "20")]),
            FakeLLMProvider.completion("done"),
        ])
        let log = SleepLog()
        var configuration = provider.configuration(maxAttempts: 10)
        configuration.maxRetryDelay = 60
        let client = LLMClient(configuration: configuration, sleep: log.sleep)
        #expect {
            _ = try client.complete(messages, within: 10)
        } throws: { error in
            (error as? SentinelError)?.code == .llmUnavailable && (error as? SentinelError)?.message.contains("out of time") == true
        }
        #expect(log.recorded.isEmpty && provider.requests.count == 1)
        #expect {
            _ = try client.complete(messages, within: 0)
        } throws: { error in (error as? SentinelError)?.message.contains("out of time") == true }
        #expect(provider.requests.count == 1)
        #expect(try client.complete(messages, within: 120).content == "done")
        #expect(log.recorded == [20])
    }

    @Test func serverErrorsUntilTheAttemptsRunOut() throws {
        let provider = try FakeLLMProvider([FakeLLMProvider.json(500, ["error": ["message": "overloaded"]])])
        let log = SleepLog()
        let client = LLMClient(configuration: provider.configuration(key: Self.key, maxAttempts: 3), sleep: log.sleep)
        let error = try #require(throws: SentinelError.self) { try client.complete(messages) }
        #expect(error.code == .llmUnavailable)
        #expect(error.message.contains("gave up after 3 attempt(s): HTTP 500: overloaded"))
        #expect(provider.requests.count == 3)
        #expect(log.recorded == [1, 2])  // exponential backoff from 1 s
        #expect(client.tokensUsed == 0)
    }

    @Test func exhaustedQuotaIsNotRetried() throws {
        let provider = try FakeLLMProvider([
            FakeLLMProvider.json(429, ["error": ["message": "You exceeded your quota", "code": "insufficient_quota"]])
        ])
        let log = SleepLog()
        let error = try #require(throws: SentinelError.self) {
            try LLMClient(configuration: provider.configuration(), sleep: log.sleep).complete(messages)
        }
        #expect(error.code == .llmUnavailable && error.message.contains("quota is exhausted"))
        #expect(provider.requests.count == 1 && log.recorded.isEmpty)
    }

    @Test(arguments: [401, 403])
    func refusedCredentialsAreAuthErrorsWithoutRetry(status: Int) throws {
        // Some providers quote the key they refused: it must not reach the error.
        let provider = try FakeLLMProvider([
            FakeLLMProvider.json(status, ["error": ["message": "Incorrect API key provided: \(Self.key)"]])
        ])
        let log = SleepLog()
        let client = LLMClient(configuration: provider.configuration(key: Self.key), sleep: log.sleep)
        let error = try #require(throws: SentinelError.self) { try client.complete(messages) }
        #expect(error.code == .llmAuth)
        #expect(error.message.contains("HTTP \(status)") && error.message.contains("Incorrect API key provided: <redacted>"))
        #expect(!error.message.contains(Self.key) && !"\(error)".contains(Self.key))
        #expect(provider.requests.count == 1 && log.recorded.isEmpty)
    }

    @Test func budgetRefusesACallBeforeSending() throws {
        let provider = try FakeLLMProvider([FakeLLMProvider.completion("first", totalTokens: 990)])
        let client = LLMClient(configuration: provider.configuration(maxTokens: 1_000), sleep: SleepLog().sleep)
        _ = try client.complete(messages)
        let error = try #require(throws: SentinelError.self) { try client.complete(messages) }
        #expect(error.code == .llmBudget)
        #expect(error.message.contains("990 of 1000 tokens used"))
        #expect(provider.requests.count == 1)  // the second call never reached the server
        #expect(client.tokensUsed == 990)
    }

    @Test func budgetRefusesAPromptLargerThanWhatIsLeft() throws {
        let provider = try FakeLLMProvider([FakeLLMProvider.completion("unused")])
        let client = LLMClient(configuration: provider.configuration(maxTokens: 100), sleep: SleepLog().sleep)
        let huge = [LLMMessage(.user, String(repeating: "x", count: 4_000))]
        #expect(throws: SentinelError.self) { try client.complete(huge) }
        #expect(provider.requests.isEmpty)
    }

    @Test func unreachableServerIsANetworkError() throws {
        let provider = try FakeLLMProvider([FakeLLMProvider.completion("unused")])
        let configuration = provider.configuration(key: Self.key)
        provider.server.stop()
        let error = try #require(throws: SentinelError.self) {
            try LLMClient(configuration: configuration, sleep: SleepLog().sleep).complete(messages)
        }
        #expect(error.code == .network && !error.message.contains(Self.key))
    }

    @Test func theKeyNeverShowsOutsideTheAuthorizationHeader() throws {
        let provider = try FakeLLMProvider([
            FakeLLMProvider.json(400, ["error": ["message": "bad request from \(Self.key)"]]),
            .init(status: 200, body: Array("not json \(Self.key)".utf8)),
            FakeLLMProvider.completion("here is your key: \(Self.key)"),
            FakeLLMProvider.json(502, ["error": Self.key]),
        ])
        let configuration = provider.configuration(key: Self.key, maxAttempts: 1)
        let client = LLMClient(configuration: configuration, sleep: SleepLog().sleep)
        var errors: [String] = []
        for _ in 0..<4 {
            do { _ = try client.complete(messages) } catch { errors.append("\(error)|\(String(reflecting: error))") }
        }
        #expect(errors.count == 4)
        #expect(provider.requests.allSatisfy { $0.headers["authorization"] == "Bearer \(Self.key)" })
        var dumped = ""
        dump(configuration, to: &dumped)
        dump(client, to: &dumped)
        let shown =
            errors + [
                String(describing: configuration), String(reflecting: configuration), "\(configuration)", dumped,
                String(describing: client), String(describing: configuration.key as Any),
            ]
        for text in shown { #expect(!text.contains(Self.key), "leaked in: \(text)") }
        #expect(String(describing: configuration).contains("key: <redacted>"))
    }

    @Test func scriptedTransportNeedsNoServer() throws {
        let configuration = LLMConfiguration(url: "https://llm.example/v1", model: "m", key: LLMAPIKey(Self.key))
        let client = LLMClient(
            configuration: configuration,
            transport: { request in
                #expect(request.url == "https://llm.example/v1/chat/completions")
                let body = Array(#"{"choices":[{"message":{"content":"hi"}}],"usage":{"total_tokens":5}}"#.utf8)
                return (HTTPResponse(status: 200, bodyBytes: Int64(body.count)), body)
            }, sleep: SleepLog().sleep)
        #expect(try client.complete(messages).content == "hi")
    }
}
