/// One remembered attempt: the signal it was for, what was tried and how it ended.
public struct MemoryRecord: Sendable, Hashable, Codable {
    /// Row id (`sentinel memory show ID`).
    public var id: Int64
    /// The signal's fingerprint.
    public var fingerprint: String
    /// The signal's kind.
    public var kind: String
    /// The signal's one-line message.
    public var signalMessage: String
    /// Exception type, rule id or package: what makes signals similar.
    public var exceptionType: String?
    /// The innermost frame (`file:function`).
    public var topFrame: String?
    /// The rule that raised the finding.
    public var ruleId: String?
    /// The vulnerable package.
    public var package: String?
    /// The actor that proposed it.
    public var actor: String
    /// The template or strategy.
    public var strategy: String
    /// The proposal's description.
    public var description: String
    /// SHA-256 of the patch.
    public var patchHash: String
    /// The patch.
    public var patch: String
    /// How it ended: verified, failed, rejected or flaky (a skipped attempt is not remembered).
    public var verdict: Verdict
    /// The lesson's summary, for failures.
    public var lesson: String?
    /// When it was recorded (ISO 8601, UTC).
    public var created: String
    /// The repository it was made on (``RepositoryIdentity``); nil for a record older than that.
    public var repository: String?
    /// True when it was for this very signal, not only a similar one (retrieval only).
    public var exact: Bool = false
    /// The cosine similarity of its signal to the one being healed, when retrieval found it by
    /// similarity (``HealMemory/recall(_:repository:limit:)``), not by fingerprint, rule or exception.
    public var similarity: Float? = nil

    /// Whether this attempt was verified.
    public var verified: Bool { verdict == .verified }
}
