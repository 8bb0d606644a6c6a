import LLM
import Signals
import Store
import Support

/// What of a signal memory embeds: the fields every memory keeps of it (its own records and those
/// shared from other workers), so a vector can be made again for any record, by any embedder.
public struct SignalText: Sendable, Hashable {
    /// The signal's kind (`traceback`, `finding`...).
    public var kind: String
    /// Its one-line message (redacted as memory keeps it).
    public var message: String
    /// The exception type.
    public var exceptionType: String?
    /// The innermost frame (`file:function`).
    public var topFrame: String?
    /// The rule.
    public var ruleId: String?
    /// The package.
    public var package: String?

    /// The fields as given.
    public init(
        kind: String, message: String, exceptionType: String? = nil, topFrame: String? = nil, ruleId: String? = nil,
        package: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.exceptionType = exceptionType
        self.topFrame = topFrame
        self.ruleId = ruleId
        self.package = package
    }

    /// The fields of `signal`, as ``HealMemory/record(_:for:repository:at:)`` stores them.
    public init(signal: Signal, redactor: Redactor) {
        self.init(
            kind: signal.kind.rawValue, message: redactor.redact(signal.message), exceptionType: signal.exceptionType,
            topFrame: signal.topFrames.first, ruleId: signal.ruleId, package: signal.dependency?.package.lowercased())
    }

    /// One line for a provider's model: the fields labelled, bounded.
    public var line: String {
        var parts = ["kind: \(kind)"]
        if let exceptionType { parts.append("exception: \(exceptionType)") }
        if let topFrame { parts.append("frame: \(topFrame)") }
        if let ruleId { parts.append("rule: \(ruleId)") }
        if let package { parts.append("package: \(package)") }
        parts.append("message: \(message.prefix(2000))")
        return parts.joined(separator: "; ")
    }
}

/// Turns signals into vectors for retrieval by similarity. `name` is stored with every vector:
/// vectors of two embedders are never compared.
public protocol SignalEmbedder: Sendable {
    /// The embedder and its parameters (`local-hash-v1-256`, `api:MODEL`).
    var name: String { get }
    /// One vector per text, in order.
    func embed(_ texts: [SignalText]) throws -> [[Float]]
}

/// The embedding used when no provider is configured: deterministic feature hashing, the same on
/// every machine and run. Each identifier is split at case changes and underscores into lowercase
/// words (numbers and one-letter words dropped: line numbers and ids are noise); the features are
/// those words, the message's word bigrams, and labelled whole values (exception type, rule,
/// package, frame file and function, kind) weighted above the words. Each feature's FNV-1a 64-bit
/// hash picks one of ``dimension`` buckets and a sign; the sum is L2-normalised, so cosine
/// similarity is a dot product. Swift's `Hasher` is seeded per process, so it is not used.
public struct LocalSignalEmbedding: SignalEmbedder {
    /// The vector's dimension.
    public static let dimension = 256

    /// `local-hash-v1-256`: a change to the features is a new version (old vectors are then not compared).
    public var name: String { "local-hash-v1-\(Self.dimension)" }

    /// An embedder.
    public init() {}

    /// One vector per text (never fails).
    public func embed(_ texts: [SignalText]) -> [[Float]] { texts.map(vector) }

    /// The vector of `text`.
    public func vector(_ text: SignalText) -> [Float] {
        var vector = [Float](repeating: 0, count: Self.dimension)
        func add(_ feature: String, _ weight: Float) {
            let hash = Self.fnv1a(feature)
            let sign: Float = (hash >> 63) == 0 ? 1 : -1
            vector[Int(hash % UInt64(Self.dimension))] += sign * weight
        }
        add("kind:" + text.kind.lowercased(), 1)
        if let exception = text.exceptionType?.lowercased() {
            add("exception:" + exception, 4)
            for word in Self.words(exception) { add(word, 1) }
        }
        if let rule = text.ruleId?.lowercased() {
            add("rule:" + rule, 4)
            for word in Self.words(rule) { add(word, 1) }
        }
        if let package = text.package?.lowercased() { add("package:" + package, 4) }
        if let frame = text.topFrame {
            // `path/to/file.py:function`: the file and the function each count whole, and their words.
            let parts = frame.split(separator: ":", maxSplits: 1)
            if let file = parts.first { add("file:" + file.lowercased(), 2) }
            if parts.count > 1 { add("function:" + parts[1].lowercased(), 2) }
            for word in Self.words(frame) { add(word, 1) }
        }
        let words = Self.words(String(text.message.prefix(4000)))
        for word in words { add(word, 1) }
        for (first, second) in zip(words, words.dropFirst()) { add(first + " " + second, 0.5) }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? vector.map { $0 / norm } : vector
    }

    /// Lowercase words of `text`: split at anything not a letter or digit and at case changes
    /// (`KeyError` → key, error; `get_user` → get, user); numbers and one-letter words dropped.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousLower = false
        func flush() {
            if current.count > 1, !current.allSatisfy(\.isNumber) { words.append(current.lowercased()) }
            current = ""
        }
        for character in text {
            guard character.isLetter || character.isNumber else {
                flush()
                previousLower = false
                continue
            }
            if character.isUppercase, previousLower { flush() }
            current.append(character)
            previousLower = character.isLowercase || character.isNumber
        }
        flush()
        return words
    }

    /// FNV-1a, 64 bits, over the UTF-8 bytes.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// Embeddings from a configured OpenAI-compatible `/v1/embeddings` server (``EmbeddingClient``).
public struct ProviderSignalEmbedding: SignalEmbedder {
    /// The client.
    public let client: EmbeddingClient

    /// Embeddings from `client`.
    public init(client: EmbeddingClient) { self.client = client }

    /// `api:MODEL`.
    public var name: String { "api:\(client.configuration.model)" }

    /// One vector per text; a provider failure or hostile answer is the client's one-line error.
    public func embed(_ texts: [SignalText]) throws -> [[Float]] {
        try client.embed(texts.map(\.line))
    }
}

/// The embedder a heal uses.
public enum SignalEmbedders {
    /// The provider `environment` configures (`SENTINEL_EMBEDDINGS_MODEL`, with
    /// `SENTINEL_EMBEDDINGS_URL` or the LLM's URL, and the LLM's key: ``EmbeddingClient``), else
    /// the local embedding. A bad setting is the configuration's one-line error (exit 2).
    public static func configured(environment: [String: String]) throws -> any SignalEmbedder {
        guard let configuration = try EmbeddingClient.configuration(environment: environment) else { return LocalSignalEmbedding() }
        return ProviderSignalEmbedding(client: EmbeddingClient(configuration: configuration))
    }

    /// One line saying which embedder `environment` configures (`sentinel doctor`).
    public static func summary(environment: [String: String]) throws -> String {
        guard let configuration = try EmbeddingClient.configuration(environment: environment) else {
            return "\(LocalSignalEmbedding().name): local embedding, \(LocalSignalEmbedding.dimension) dimensions "
                + "(SENTINEL_EMBEDDINGS_MODEL unset)"
        }
        return "api:\(configuration.model) at \(EmbeddingClient(configuration: configuration).endpoint)"
    }
}
