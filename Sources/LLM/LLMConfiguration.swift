/// Where and how the LLM actor asks for fixes: an OpenAI-compatible chat-completions server
/// (OpenAI, Ollama, vLLM, llama.cpp server), the model, an optional key and the limits.
/// Printing it never shows the key.
public struct LLMConfiguration: Sendable, Hashable {
    /// The total token budget when `SENTINEL_LLM_MAX_TOKENS` is not set.
    public static let defaultMaxTokens = 200_000

    /// The server's base URL (`http://127.0.0.1:11434`, `https://api.openai.com/v1`) or the
    /// full `.../chat/completions` URL; `endpoint` is the URL requests go to.
    public var url: String
    /// The model name as the server knows it.
    public var model: String
    /// The API key, sent as `Authorization: Bearer KEY`; nil sends no `Authorization` header.
    public var key: LLMAPIKey?
    /// Tokens all requests of one client may use together (prompt and reply).
    public var maxTokens: Int
    /// The limit for one HTTP request, seconds.
    public var requestTimeout: Double
    /// HTTP attempts per completion, the first included (429 and 5xx are retried).
    public var maxAttempts: Int
    /// Sampling temperature; nil leaves it to the server (some models accept only their default).
    public var temperature: Double?
    /// The first retry's delay, seconds; each further retry doubles it.
    public var retryBaseDelay: Double
    /// The longest wait between attempts, seconds, whatever `Retry-After` asks for.
    public var maxRetryDelay: Double
    /// The largest response body accepted, bytes.
    public var maxResponseBytes: Int64

    /// A configuration for `model` at `url`; see the properties for the limits.
    public init(
        url: String, model: String, key: LLMAPIKey? = nil, maxTokens: Int = LLMConfiguration.defaultMaxTokens,
        requestTimeout: Double = 120, maxAttempts: Int = 4, temperature: Double? = 0.2, retryBaseDelay: Double = 1,
        maxRetryDelay: Double = 60, maxResponseBytes: Int64 = 8 << 20
    ) {
        self.url = url
        self.model = model
        self.key = key
        self.maxTokens = maxTokens
        self.requestTimeout = requestTimeout
        self.maxAttempts = maxAttempts
        self.temperature = temperature
        self.retryBaseDelay = retryBaseDelay
        self.maxRetryDelay = maxRetryDelay
        self.maxResponseBytes = maxResponseBytes
    }

    /// The chat-completions URL: `url` itself when it already ends in `/chat/completions`,
    /// `url + /chat/completions` when it ends in `/v1`, else `url + /v1/chat/completions`.
    public var endpoint: String {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasSuffix("/chat/completions") { return base }
        if base.hasSuffix("/v1") { return base + "/chat/completions" }
        return base + "/v1/chat/completions"
    }
}

extension LLMConfiguration: CustomStringConvertible, CustomDebugStringConvertible {
    /// The settings with the key shown as `<redacted>` (or `none`).
    public var description: String {
        let temperature = self.temperature.map { String($0) } ?? "default"
        return "LLMConfiguration(endpoint: \(endpoint), model: \(model), key: \(key == nil ? "none" : "<redacted>"), "
            + "maxTokens: \(maxTokens), requestTimeout: \(requestTimeout)s, maxAttempts: \(maxAttempts), "
            + "temperature: \(temperature))"
    }

    /// Same as `description`.
    public var debugDescription: String { description }
}
