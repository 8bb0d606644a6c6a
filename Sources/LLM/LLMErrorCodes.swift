import Support

extension SentinelError.Code {
    /// The LLM provider refused the credentials (HTTP 401 or 403).
    public static let llmAuth = SentinelError.Code("llm-auth")
    /// The LLM token budget is spent: the request was not sent.
    public static let llmBudget = SentinelError.Code("llm-budget")
    /// The provider answered with something that is not a usable chat completion (malformed
    /// JSON, no choices, an unexpected status).
    public static let llmResponse = SentinelError.Code("llm-response")
    /// The provider stayed overloaded or failing (429, 5xx) through every attempt.
    public static let llmUnavailable = SentinelError.Code("llm-unavailable")
    /// The model's reply holds no usable edits: no blocks or diff, a block that does not match,
    /// a diff that does not apply, a path outside the repository. The message names the block
    /// or file, so the heal loop can hand it back as a lesson.
    public static let llmEdits = SentinelError.Code("llm-edits")
}
