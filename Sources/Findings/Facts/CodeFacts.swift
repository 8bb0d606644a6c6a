/// The facts of a source-code finding (SAST, secrets) beyond its `codeFlow`.
public struct CodeFacts: Sendable, Hashable {
    /// Whose input reaches the sink.
    public enum TaintSource: String, Sendable, Hashable, CaseIterable {
        /// The operator's own input: environment, argv, stdin.
        case local
        /// Input from outside: requests, files, the network.
        case remote
    }

    /// Whose input reaches the sink, for a taint finding.
    public var taintSource: TaintSource?
    /// The encoding the file was decoded with when the secret showed only then (`utf-16`).
    public var sourceEncoding: String?

    /// Code facts; leave out what is unknown.
    public init(taintSource: TaintSource? = nil, sourceEncoding: String? = nil) {
        self.taintSource = taintSource
        self.sourceEncoding = sourceEncoding
    }
}
