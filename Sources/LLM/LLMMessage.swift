/// One chat message sent to the model.
public struct LLMMessage: Sendable, Hashable, Codable {
    /// Who speaks, as chat-completions APIs name it.
    public enum Role: String, Sendable, Hashable, Codable {
        /// Standing instructions.
        case system
        /// The request.
        case user
        /// An earlier answer of the model.
        case assistant
    }

    /// Who speaks.
    public var role: Role
    /// The text.
    public var content: String

    /// A message from `role`.
    public init(_ role: Role, _ content: String) {
        self.role = role
        self.content = content
    }
}

/// The model's answer to one completion request.
public struct LLMReply: Sendable, Hashable {
    /// `choices[0].message.content`.
    public var content: String
    /// Tokens charged to the budget for this request (prompt and reply).
    public var tokens: Int
    /// Whether `tokens` is an estimate because the server reported no `usage`.
    public var tokensEstimated: Bool
    /// `choices[0].finish_reason` (`stop`, `length`: cut off), when the server sent one.
    public var finishReason: String?
    /// HTTP attempts the request took (1 without retries).
    public var attempts: Int

    /// A reply; see the properties.
    public init(content: String, tokens: Int, tokensEstimated: Bool, finishReason: String? = nil, attempts: Int = 1) {
        self.content = content
        self.tokens = tokens
        self.tokensEstimated = tokensEstimated
        self.finishReason = finishReason
        self.attempts = attempts
    }
}
