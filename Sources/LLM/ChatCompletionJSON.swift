import Documents

/// The wire format of `/v1/chat/completions`, the part every OpenAI-compatible server shares:
/// `{"model", "messages": [{"role", "content"}], "temperature", "stream": false}` out,
/// `choices[0].message.content` and `usage.total_tokens` back.
enum ChatCompletionJSON {
    /// What a successful answer holds.
    struct Answer: Equatable {
        var content: String
        var totalTokens: Int?
        var finishReason: String?
    }

    /// The request body.
    static func body(model: String, messages: [LLMMessage], temperature: Double?) -> [UInt8] {
        var members: [(String, DocumentNode.Value)] = [
            ("model", .string(model)),
            (
                "messages",
                .array(messages.map { node(object([("role", .string($0.role.rawValue)), ("content", .string($0.content))])) })
            ),
            ("stream", .bool(false)),
        ]
        if let temperature { members.append(("temperature", .double(temperature))) }
        return JSONWriter.bytes(node(object(members)), sortKeys: false)
    }

    /// The answer in `bytes`; throws the problem as text (the client adds the request's name).
    static func answer(_ bytes: [UInt8]) throws(Problem) -> Answer {
        let document: DocumentNode
        do {
            document = try JSON.parse(bytes, file: "reply")
        } catch {
            throw Problem("malformed JSON in the reply (\(error))")
        }
        guard let choice = document["choices"]?.elements.first else {
            throw Problem("the reply has no choices")
        }
        guard let content = text(of: choice["message"]?["content"]) else {
            throw Problem("the reply's first choice has no message content")
        }
        let usage = document["usage"]
        var total = integer(usage?["total_tokens"])
        if total == nil, let prompt = integer(usage?["prompt_tokens"]), let completion = integer(usage?["completion_tokens"]) {
            total = prompt + completion
        }
        return Answer(content: content, totalTokens: total, finishReason: choice["finish_reason"]?.string)
    }

    /// The provider's own explanation in an error body (`{"error": {"message"}}` as OpenAI and
    /// vLLM send it, `{"error": "..."}` as Ollama does), else the body's first line, shortened.
    static func providerMessage(_ bytes: [UInt8]) -> String {
        let document = try? JSON.parse(bytes, file: "reply")
        let text =
            document?["error"]?["message"]?.string ?? document?["error"]?.string ?? document?["message"]?.string
            ?? String(decoding: bytes.prefix(300), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }

    /// Whether a 429 says the account's quota is gone (OpenAI): waiting will not help.
    static func quotaExhausted(_ bytes: [UInt8]) -> Bool {
        let document = try? JSON.parse(bytes, file: "reply")
        let code = document?["error"]?["code"]?.string ?? document?["error"]?["type"]?.string
        return code == "insufficient_quota"
    }

    /// A problem with a reply, as text.
    struct Problem: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// A string, or the `text` parts of a content array (some servers answer in parts).
    private static func text(of node: DocumentNode?) -> String? {
        guard let node else { return nil }
        if let text = node.string { return text }
        let parts = node.elements.compactMap { $0["text"]?.string }
        return node.isArray && !parts.isEmpty ? parts.joined() : nil
    }

    private static func integer(_ node: DocumentNode?) -> Int? {
        switch node?.value {
        case .integer(let number): return number
        case .double(let number) where number.isFinite && number >= 0: return Int(number)
        default: return nil
        }
    }

    private static func node(_ value: DocumentNode.Value) -> DocumentNode {
        DocumentNode(value, line: 0, column: 0)
    }

    private static func object(_ members: [(String, DocumentNode.Value)]) -> DocumentNode.Value {
        .object(members.map { DocumentMember(key: $0.0, line: 0, column: 0, value: node($0.1)) })
    }
}
