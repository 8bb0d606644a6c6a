import Foundation
import Store
import Support
import Testing
import TestSupport

@testable import Heal
@testable import LLM
@testable import Signals

/// Issue 58: heal memory retrieves lessons by similarity across signals. The local embedding is
/// deterministic and ranks the same exception in nearby code above an unrelated signal; a
/// configured `/v1/embeddings` provider is used when it answers well, and a hostile answer is a
/// one-line error after which recall falls back to the local embedding and says so.
@Suite("Heal memory by similarity")
struct SignalEmbeddingTests {
    static let repository = "https://example.com/shop"

    static func traceback(_ frame: String, _ message: String, exception: String = "KeyError") -> Signal {
        Signal(
            kind: .exception, source: "python", message: "\(exception): \(message)",
            locations: [Signal.Location(file: String(frame.split(separator: ":")[0]), line: 10)], exceptionType: exception,
            topFrames: [frame])
    }

    static let current = traceback("shop/cart.py:add_item", "'price'")
    static let nearby = traceback("shop/cart.py:remove_item", "'price' in cart line")
    static let unrelated = Signal(
        kind: .finding, source: "sarif", message: "subprocess call with shell=True",
        locations: [Signal.Location(file: "ops/deploy.py", line: 4)],
        ruleId: "python.subprocess-shell-true")

    static func attempt(_ description: String, lesson: String?, verdict: Verdict = .failed) -> Attempt {
        let patch = "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n"
        return Attempt(
            number: 1, actor: .logicRepair, description: description, strategy: "s", patchHash: description, patch: patch,
            size: patch.count, verdict: verdict, lesson: lesson.map { Lesson(summary: $0) }, verifications: [], rescan: nil,
            notes: [])
    }

    static func memory(embedder: any SignalEmbedder = LocalSignalEmbedding()) throws -> HealMemory {
        try HealMemory(path: try ScratchDirectory.make(prefix: "heal-similar") + "/heal.sqlite", embedder: embedder)
    }

    @Test("the local embedding is deterministic, unit length, and ranks the same exception in nearby code above an unrelated signal")
    func localEmbeddingRanks() {
        let embedder = LocalSignalEmbedding()
        let redactor = Redactor()
        let text = SignalText(signal: Self.current, redactor: redactor)
        let vector = embedder.vector(text)
        #expect(vector.count == LocalSignalEmbedding.dimension && embedder.name == "local-hash-v1-256")
        #expect(vector == embedder.vector(text) && vector == LocalSignalEmbedding().embed([text])[0])
        let norm = vector.reduce(0) { $0 + $1 * $1 }
        #expect(abs(norm - 1) < 1e-4)
        let near = MemoryEmbedding.cosine(vector, embedder.vector(SignalText(signal: Self.nearby, redactor: redactor))) ?? -1
        let far = MemoryEmbedding.cosine(vector, embedder.vector(SignalText(signal: Self.unrelated, redactor: redactor))) ?? 1
        #expect(near > HealMemory.similarityThreshold && far < HealMemory.similarityThreshold && near > far + 0.3, "\(near) \(far)")
        // Words split at case changes and underscores; numbers and single letters are noise.
        #expect(
            LocalSignalEmbedding.words("KeyError in get_user_by_id line 42 x") == ["key", "error", "in", "get", "user", "by", "id", "line"])
        // A fixed hash, the same in every process (Swift's Hasher is seeded per run).
        #expect(LocalSignalEmbedding.fnv1a("") == 0xcbf2_9ce4_8422_2325 && LocalSignalEmbedding.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
    }

    @Test("recall brings the lessons of a similar signal, marked with its similarity, and not an unrelated one's (SQLite)")
    func recallBySimilarity() throws {
        let memory = try Self.memory()
        try memory.record(
            Self.attempt("guard the lookup", lesson: "cart lines may lack a price"), for: Self.nearby, repository: Self.repository)
        try memory.record(Self.attempt("quote the command", lesson: "shell=True stays"), for: Self.unrelated, repository: Self.repository)
        // Another repository's similar signal is never offered.
        try memory.record(Self.attempt("elsewhere", lesson: "other repo"), for: Self.nearby, repository: "https://example.com/other")
        // The structural match (same exception and innermost frame) finds nothing: only similarity does.
        #expect(try memory.similar(to: Self.current, repository: Self.repository).isEmpty)
        let recalled = memory.recall(Self.current, repository: Self.repository)
        #expect(recalled.notes.isEmpty)
        #expect(recalled.records.map(\.lesson) == ["cart lines may lack a price"])
        let similarity = try #require(recalled.records.first?.similarity)
        #expect(similarity >= HealMemory.similarityThreshold && similarity <= 1.0001)
        // The vectors were kept, by embedder: a second recall embeds nothing again and agrees.
        let stored = try memory.withDatabase { database in
            let query = try database.prepare("SELECT embedder, COUNT(*) FROM heal_signal_vectors GROUP BY embedder")
            var rows: [String] = []
            while try query.step() { rows.append("\(query.text(0) ?? "") \(query.int(1))") }
            return rows
        }
        #expect(stored == ["local-hash-v1-256 2"])
        #expect(memory.recall(Self.current, repository: Self.repository).records.map(\.id) == recalled.records.map(\.id))
    }

    @Test("a vector row that is not one (damaged, foreign) is made again, not trusted")
    func damagedVectorIsRemade() throws {
        let memory = try Self.memory()
        try memory.record(
            Self.attempt("guard the lookup", lesson: "cart lines may lack a price"), for: Self.nearby, repository: Self.repository)
        _ = memory.recall(Self.current, repository: Self.repository)
        try memory.withDatabase { database in try database.execute("UPDATE heal_signal_vectors SET vector = x'00'") }
        #expect(memory.recall(Self.current, repository: Self.repository).records.count == 1)
        #expect(HealMemory.vector([0, 0, 0x80, 0x7f]) == nil && HealMemory.vector(HealMemory.bytes([0.5, -2])) == [0.5, -2])
    }

    /// An `/v1/embeddings` answer: one vector per input, the first component 1 and the second
    /// set by whether the input mentions the cart, so the fake ranks as a model would.
    static func embeddingsAnswer(_ vectors: [[Double]]) -> LoopbackHTTPServer.Response {
        FakeLLMProvider.json(
            200,
            [
                "object": "list", "model": "embed-model",
                "data": vectors.enumerated().map { ["object": "embedding", "index": $0.offset, "embedding": $0.element] },
            ])
    }

    @Test(.integration, arguments: [false, true])
    func providerEmbeddingsAreUsed(withKey: Bool) throws {
        // Candidates first (the nearby signal), the signal being healed last.
        let provider = try FakeLLMProvider([Self.embeddingsAnswer([[1, 0.1, 0], [0.9, 0.2, 0]])])
        var configuration = provider.configuration(key: withKey ? "sk-embed-secret" : nil)
        configuration.model = "embed-model"
        let client = EmbeddingClient(configuration: configuration)
        #expect(client.endpoint == provider.server.baseURL + "/v1/embeddings")
        let memory = try Self.memory(embedder: ProviderSignalEmbedding(client: client))
        try memory.record(
            Self.attempt("guard the lookup", lesson: "cart lines may lack a price"), for: Self.nearby, repository: Self.repository)
        let recalled = memory.recall(Self.current, repository: Self.repository)
        #expect(recalled.notes.isEmpty && recalled.records.map(\.lesson) == ["cart lines may lack a price"])
        let request = try provider.requestJSON(0)
        #expect(request["model"] as? String == "embed-model")
        let inputs = try #require(request["input"] as? [String])
        #expect(inputs.count == 2 && inputs[0].contains("frame: shop/cart.py:remove_item") && inputs[1].contains("add_item"))
        #expect(provider.requests[0].path == "/v1/embeddings")
        #expect(provider.requests[0].headers["authorization"] == (withKey ? "Bearer sk-embed-secret" : nil))
        let stored = try memory.withDatabase { database in
            let query = try database.prepare("SELECT embedder FROM heal_signal_vectors")
            return try query.step() ? query.text(0) : nil
        }
        #expect(stored == "api:embed-model")
    }

    /// Answers no embeddings client may use (named, so a failing case prints its name, not its bytes).
    enum HostileAnswer: String, CaseIterable, Sendable {
        case truncatedJSON, tooFewVectors, notANumber, mixedDimensions, oversize, refusedKey

        var response: LoopbackHTTPServer.Response {
            let json = [("Content-Type", "application/json")]
            switch self {
            case .truncatedJSON: return .init(status: 200, headers: json, body: Array("{\"data\": [".utf8))
            case .tooFewVectors: return FakeLLMProvider.json(200, ["data": [["index": 0, "embedding": [1, 0]]]])
            case .notANumber:
                return FakeLLMProvider.json(200, ["data": [["index": 0, "embedding": [1, 0]], ["index": 1, "embedding": [1, "x"]]]])
            case .mixedDimensions:
                return FakeLLMProvider.json(200, ["data": [["index": 0, "embedding": [1, 0]], ["index": 1, "embedding": [1, 0, 0]]]])
            case .oversize:
                // 6 MiB of numbers: past the 4 MiB bound, never read whole.
                return .init(
                    status: 200, headers: json, body: Array(("{\"data\": [" + String(repeating: "0,", count: 3 << 20) + "0]}").utf8))
            case .refusedKey: return FakeLLMProvider.json(401, ["error": ["message": "bad key"]])
            }
        }

        var problem: String {
            switch self {
            case .truncatedJSON: "malformed JSON in the answer"
            case .tooFewVectors: "the answer has 1 vectors for 2 inputs"
            case .notANumber: "holds something that is not a number"
            case .mixedDimensions: "vectors differ in dimension"
            case .oversize: "bytes"
            case .refusedKey: "HTTP 401"
            }
        }
    }

    @Test(.integration, arguments: HostileAnswer.allCases)
    func hostileAnswerFallsBackToLocal(_ answer: HostileAnswer) throws {
        let (response, problem) = (answer.response, answer.problem)
        let provider = try FakeLLMProvider([response])
        var configuration = provider.configuration(key: "sk-embed-secret")
        configuration.model = "embed-model"
        let client = EmbeddingClient(configuration: configuration)
        // The client alone: one line naming the endpoint, never the key.
        do {
            _ = try client.embed(["a", "b"])
            Issue.record("a hostile answer was accepted")
        } catch let error as SentinelError {
            #expect(error.message.hasPrefix("embeddings POST \(client.endpoint): ") && error.message.contains(problem), "\(error.message)")
            #expect(!error.message.contains("\n") && !error.message.contains("sk-embed-secret") && error.message.count < 500)
        }
        // Recall: the local embedding instead, said once in the notes; the similar signal is still found.
        let memory = try Self.memory(embedder: ProviderSignalEmbedding(client: client))
        try memory.record(
            Self.attempt("guard the lookup", lesson: "cart lines may lack a price"), for: Self.nearby, repository: Self.repository)
        let recalled = memory.recall(Self.current, repository: Self.repository)
        #expect(recalled.records.map(\.lesson) == ["cart lines may lack a price"])
        #expect(recalled.notes.count == 1 && recalled.notes[0].hasPrefix("memory: embeddings from api:embed-model failed ("))
        #expect(recalled.notes[0].hasSuffix("); using local-hash-v1-256") && !recalled.notes[0].contains("sk-embed-secret"))
    }

    @Test("the environment chooses the provider only when an embeddings model is named")
    func configuredFromEnvironment() throws {
        #expect(try SignalEmbedders.configured(environment: [:]).name == "local-hash-v1-256")
        #expect(
            try SignalEmbedders.configured(environment: ["SENTINEL_LLM_URL": "http://127.0.0.1:9/v1", "SENTINEL_LLM_MODEL": "m"]).name
                == "local-hash-v1-256")
        let configured = try SignalEmbedders.configured(environment: [
            "SENTINEL_LLM_URL": "http://127.0.0.1:9/v1", "SENTINEL_LLM_MODEL": "chat", "SENTINEL_EMBEDDINGS_MODEL": "nomic-embed-text",
        ])
        #expect(configured.name == "api:nomic-embed-text")
        #expect((configured as? ProviderSignalEmbedding)?.client.endpoint == "http://127.0.0.1:9/v1/embeddings")
        #expect(throws: SentinelError.self) { try SignalEmbedders.configured(environment: ["SENTINEL_EMBEDDINGS_MODEL": "m"]) }
        // What `sentinel doctor` says.
        #expect(
            try SignalEmbedders.summary(environment: [:])
                == "local-hash-v1-256: local embedding, 256 dimensions (SENTINEL_EMBEDDINGS_MODEL unset)")
        #expect(
            try SignalEmbedders.summary(environment: [
                "SENTINEL_EMBEDDINGS_URL": "http://127.0.0.1:11434", "SENTINEL_EMBEDDINGS_MODEL": "nomic-embed-text",
            ]) == "api:nomic-embed-text at http://127.0.0.1:11434/v1/embeddings")
    }
}
