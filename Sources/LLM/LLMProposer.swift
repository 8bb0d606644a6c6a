import Git

/// What the model proposed for one signal.
public struct LLMProposal: Sendable, Hashable {
    /// The file changes, only files that change.
    public var changes: [FileChange]
    /// The paths among `changes` that are tests: the loop rejects such a proposal.
    public var testPaths: [String]
    /// The reply they came from (its text and token count, for the evidence).
    public var reply: LLMReply

    /// A proposal; see the properties.
    public init(changes: [FileChange], testPaths: [String], reply: LLMReply) {
        self.changes = changes
        self.testPaths = testPaths
        self.reply = reply
    }
}

/// The LLM actor's core: prompt, one completion, the reply turned into changes. The heal loop
/// owns the rest (choosing excerpts, applying in a workspace, verifying, reflecting).
public struct LLMProposer: Sendable {
    /// The client whose budget all proposals share.
    public let client: LLMClient
    /// The edit format the prompt asks for.
    public var format: LLMEditFormat

    /// A proposer asking through `client` for edits in `format`.
    public init(client: LLMClient, format: LLMEditFormat = .searchReplace) {
        self.client = client
        self.format = format
    }

    /// Asks for a fix of `signal` shown `excerpts` and earlier `attempts`, and parses the reply
    /// against `files` (path → current content of every file the model may edit). Throws the
    /// client's errors, or `.llmEdits` when the reply holds no usable edits (a lesson for the
    /// next attempt).
    /// `within`: seconds the exchange may take, retries included (the heal's time left).
    public func propose(
        signal: String, excerpts: [LLMExcerpt], attempts: [LLMAttempt] = [], files: [String: String], within seconds: Double? = nil
    ) throws -> LLMProposal {
        let messages = LLMPrompt.messages(signal: signal, excerpts: excerpts, attempts: attempts, format: format)
        let reply = try client.complete(messages, within: seconds)
        let changes = try LLMEdits.changes(from: reply.content, files: files)
        return LLMProposal(changes: changes, testPaths: LLMEdits.touchesTests(changes), reply: reply)
    }
}
