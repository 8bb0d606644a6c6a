import Documents
import HTTP
import Support

/// A client for an OpenAI-compatible `/v1/embeddings` server (OpenAI, Ollama, vLLM, llama.cpp
/// server): `{"model", "input": [texts]}` out, `data[i].embedding` back. The configuration is the
/// LLM's (`LLMConfiguration`: URL, model, key, timeout, response bound), so the key, its
/// redaction and the loopback-or-HTTPS rule are the chat client's. The answer is hostile: one
/// that is larger than `maximumResponseBytes`, is not JSON, has another count of vectors than
/// inputs, vectors of differing or excessive dimension or a value that is not a finite number is
/// `SentinelError(.llmResponse)` with one line naming the endpoint; nothing of it is used.
public final class EmbeddingClient: Sendable {
    /// The largest answer read, bytes (also bounded by the configuration's `maxResponseBytes`).
    public static let maximumResponseBytes: Int64 = 4 << 20
    /// The largest dimension accepted.
    public static let maximumDimension = 4096
    /// The most texts sent in one request.
    public static let maximumBatch = 64

    /// The settings (`model` is the embedding model); its description redacts the key.
    public let configuration: LLMConfiguration
    private let transport: LLMClient.Transport

    /// A client for `configuration`; `transport` is replaceable for tests.
    public init(configuration: LLMConfiguration, transport: @escaping LLMClient.Transport = { try HTTPClient.send($0) }) {
        self.configuration = configuration
        self.transport = transport
    }

    /// The configuration the environment describes, or nil when `SENTINEL_EMBEDDINGS_MODEL` is
    /// unset: `SENTINEL_EMBEDDINGS_URL` (else `SENTINEL_LLM_URL`) and the model, with the LLM's
    /// key, timeout and plain-HTTP settings (``LLMConfiguration/fromEnvironment(_:)``).
    public static func configuration(environment: [String: String]) throws -> LLMConfiguration? {
        guard let model = environment["SENTINEL_EMBEDDINGS_MODEL"], !model.isEmpty else { return nil }
        var env = environment
        env["SENTINEL_LLM_MODEL"] = model
        if let url = environment["SENTINEL_EMBEDDINGS_URL"], !url.isEmpty { env["SENTINEL_LLM_URL"] = url }
        guard let configuration = try LLMConfiguration.fromEnvironment(env) else {
            throw SentinelError(.invalidInput, "SENTINEL_EMBEDDINGS_MODEL is set but no SENTINEL_EMBEDDINGS_URL or SENTINEL_LLM_URL")
        }
        return configuration
    }

    /// The embeddings URL: `url` itself when it ends in `/embeddings`, `url + /embeddings` when
    /// it ends in `/v1`, else `url + /v1/embeddings`.
    public var endpoint: String {
        var base = configuration.url
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasSuffix("/embeddings") { return base }
        if base.hasSuffix("/chat/completions") { base.removeLast("/chat/completions".count) }
        if base.hasSuffix("/v1") { return base + "/embeddings" }
        return base + "/v1/embeddings"
    }

    /// One vector per text, in order, all of one dimension.
    public func embed(_ texts: [String]) throws -> [[Float]] {
        var vectors: [[Float]] = []
        var start = 0
        while start < texts.count {
            let batch = Array(texts[start..<min(texts.count, start + Self.maximumBatch)])
            let answer = try embedBatch(batch)
            if let first = vectors.first, let next = answer.first, first.count != next.count {
                throw failure(.llmResponse, "vectors of \(first.count) and \(next.count) dimensions in one run")
            }
            vectors += answer
            start += batch.count
        }
        return vectors
    }

    private func embedBatch(_ texts: [String]) throws -> [[Float]] {
        var headers = ["Content-Type": "application/json", "Accept": "application/json"]
        if let key = configuration.key { headers["Authorization"] = "Bearer \(key.value)" }
        // Signals quote hostile text: the environment's credentials and the key are replaced.
        let redactor = Redactor(secrets: Redactor.process.secrets + [configuration.key?.value].compactMap { $0 }, shapes: false)
        let body = DocumentNode(
            .object([
                DocumentMember(key: "model", line: 0, column: 0, value: DocumentNode(.string(configuration.model), line: 0, column: 0)),
                DocumentMember(
                    key: "input", line: 0, column: 0,
                    value: DocumentNode(
                        .array(texts.map { DocumentNode(.string(redactor.redact($0)), line: 0, column: 0) }), line: 0, column: 0)),
            ]), line: 0, column: 0)
        let request = HTTPRequest(
            url: endpoint, method: "POST", headers: headers, body: JSONWriter.bytes(body, sortKeys: false),
            timeout: configuration.requestTimeout, connectTimeout: min(30, configuration.requestTimeout),
            maxBytes: min(configuration.maxResponseBytes, Self.maximumResponseBytes))
        let response: HTTPResponse
        let bytes: [UInt8]
        do {
            (response, bytes) = try transport(request)
        } catch let error as SentinelError {
            throw failure(error.code == .llmResponse ? .llmResponse : .network, error.message)
        } catch {
            throw failure(.network, "\(error)")
        }
        switch response.status {
        case 200..<300: break
        case 401, 403:
            throw failure(.llmAuth, "HTTP \(response.status): the server refused the credentials")
        case 408, 429, 500..<600:
            throw failure(.llmUnavailable, "HTTP \(response.status)")
        default:
            throw failure(.llmResponse, "HTTP \(response.status)")
        }
        do {
            return try Self.vectors(bytes, count: texts.count)
        } catch {
            throw failure(.llmResponse, error.text)
        }
    }

    /// The vectors in an answer to `count` inputs, by their `index` (in order when there is none).
    static func vectors(_ bytes: [UInt8], count: Int) throws(ChatCompletionJSON.Problem) -> [[Float]] {
        guard bytes.count <= Int(maximumResponseBytes) else { throw .init("the answer is larger than \(maximumResponseBytes) bytes") }
        let document: DocumentNode
        do {
            document = try JSON.parse(bytes, file: "reply")
        } catch {
            throw .init("malformed JSON in the answer")
        }
        guard let data = document["data"], data.isArray else { throw .init("the answer has no data array") }
        guard data.elements.count == count else {
            throw .init("the answer has \(data.elements.count) vectors for \(count) inputs")
        }
        var vectors = [[Float]?](repeating: nil, count: count)
        for (position, item) in data.elements.enumerated() {
            var index = position
            if case .integer(let given)? = item["index"]?.value { index = given }
            guard (0..<count).contains(index), vectors[index] == nil else { throw .init("the answer's data[\(position)] has a bad index") }
            guard let numbers = item["embedding"], numbers.isArray, (1...maximumDimension).contains(numbers.elements.count) else {
                throw .init("the answer's data[\(position)] has no embedding of 1 to \(maximumDimension) numbers")
            }
            var vector: [Float] = []
            vector.reserveCapacity(numbers.elements.count)
            for number in numbers.elements {
                let value: Double
                switch number.value {
                case .double(let double): value = double
                case .integer(let integer): value = Double(integer)
                default: throw .init("the answer's data[\(position)] holds something that is not a number")
                }
                guard value.isFinite, abs(value) < 1e30 else { throw .init("the answer's data[\(position)] holds a number out of range") }
                vector.append(Float(value))
            }
            if let first = vectors.compactMap({ $0 }).first, first.count != vector.count {
                throw .init("the answer's vectors differ in dimension")
            }
            vectors[index] = vector
        }
        return vectors.compactMap { $0 }
    }

    private func failure(_ code: SentinelError.Code, _ problem: String) -> SentinelError {
        let line = problem.split(whereSeparator: \.isNewline).first.map(String.init) ?? problem
        let text = "embeddings POST \(endpoint): \(line.prefix(300))"
        return SentinelError(code, configuration.key?.scrub(text) ?? text)
    }
}
