import Foundation
import Heal
import LLM
import Synchronization
import TestSupport

/// A scripted OpenAI-compatible provider on 127.0.0.1: answers requests with the scripted
/// responses in order (the last one repeats) and records what it received.
final class FakeLLMProvider: Sendable {
    let server: LoopbackHTTPServer

    init(_ responses: [LoopbackHTTPServer.Response]) throws {
        let script = Script(responses)
        server = try LoopbackHTTPServer { _ in script.next() }
    }

    /// The responses still to send.
    private final class Script: Sendable {
        private let queue: Mutex<[LoopbackHTTPServer.Response]>
        init(_ responses: [LoopbackHTTPServer.Response]) { queue = Mutex(responses) }
        func next() -> LoopbackHTTPServer.Response {
            queue.withLock { queue in queue.count > 1 ? queue.removeFirst() : queue[0] }
        }
    }

    deinit { server.stop() }

    var requests: [LoopbackHTTPServer.Request] { server.requests }

    /// A configuration pointing at this provider.
    func configuration(key: String? = nil, maxTokens: Int = 200_000, maxAttempts: Int = 4) -> LLMConfiguration {
        LLMConfiguration(
            url: server.baseURL, model: "test-model", key: key.map(LLMAPIKey.init), maxTokens: maxTokens,
            requestTimeout: 10, maxAttempts: maxAttempts)
    }

    /// A chat-completions answer holding `content`, with `usage.total_tokens` when given.
    static func completion(_ content: String, totalTokens: Int? = 50) -> LoopbackHTTPServer.Response {
        var object: [String: Any] = [
            "id": "chatcmpl-1", "object": "chat.completion", "model": "test-model",
            "choices": [["index": 0, "message": ["role": "assistant", "content": content], "finish_reason": "stop"]],
        ]
        if let totalTokens {
            object["usage"] = ["prompt_tokens": totalTokens - 10, "completion_tokens": 10, "total_tokens": totalTokens]
        }
        return json(200, object)
    }

    /// A response with `object` as its JSON body.
    static func json(_ status: Int, _ object: Any, headers: [(String, String)] = []) -> LoopbackHTTPServer.Response {
        let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return .init(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(body))
    }

    /// The JSON body of request `index`, as Foundation reads it.
    func requestJSON(_ index: Int) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(requests[index].body))
        return object as? [String: Any] ?? [:]
    }
}

/// Records the delays a client asked for instead of waiting.
final class SleepLog: Sendable {
    private let delays = Mutex<[Double]>([])
    var recorded: [Double] { delays.withLock { $0 } }
    var sleep: LLMClient.Sleep { { seconds in self.delays.withLock { $0.append(seconds) } } }
}
