import Support

/// Tokens one client may still spend. A request reserves its estimated prompt before it is
/// sent, so concurrent requests cannot all pass the check on the same remainder; the reply's
/// reported usage (or the estimate) is charged when it arrives.
struct LLMTokenBudget: Sendable {
    let limit: Int
    private(set) var used = 0
    private(set) var reserved = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// Reserves `estimate` tokens, or throws `SentinelError(.llmBudget)` when they do not fit.
    mutating func reserve(_ estimate: Int) throws {
        guard used + reserved + estimate <= limit else {
            throw SentinelError(
                .llmBudget,
                "LLM token budget spent: \(used) of \(limit) tokens used, this request needs about \(estimate)"
                    + " (SENTINEL_LLM_MAX_TOKENS)")
        }
        reserved += estimate
    }

    /// Ends a reservation of `estimate`, charging `tokens` (0 when nothing was consumed).
    mutating func settle(_ estimate: Int, charging tokens: Int) {
        reserved -= estimate
        used += max(0, tokens)
    }

    /// A rough count for text without a tokenizer: about four bytes of UTF-8 per token, plus a
    /// few per message for the chat framing.
    static func estimate(_ messages: [LLMMessage]) -> Int {
        messages.reduce(0) { $0 + estimate($1.content) + 4 }
    }

    /// About four bytes of UTF-8 per token, rounded up.
    static func estimate(_ text: String) -> Int {
        (text.utf8.count + 3) / 4
    }
}
