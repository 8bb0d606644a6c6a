/// What proving a finding against the running application showed (`sentinel scan --prove`):
/// the one check of its weakness, sent to its route and its parameter only. Set on the findings
/// a proof was tried for; nil everywhere else.
public struct ProofFacts: Sendable, Hashable {
    /// True when the check confirmed the weakness; false when the application answered without
    /// confirming it (``reason`` says why).
    public var proven: Bool?
    /// Why it is not proven: the route was not reached (404), no answer, the check did not
    /// confirm it, no check for the weakness.
    public var reason: String?
    /// How the check knew (`output: the marker came back`, `time: ...`, `out-of-band: ...`).
    public var oracle: String?
    /// The request that proved it: method, URL and parameter.
    public var request: String?
    /// What the check kept as its proof: the requests it sent and the answers' excerpts
    /// (bounded, redacted like every evidence).
    public var evidence: String?
    /// Requests the proof sent.
    public var requests: Int?

    /// Proof facts; leave out what is unknown.
    public init(
        proven: Bool? = nil, reason: String? = nil, oracle: String? = nil, request: String? = nil, evidence: String? = nil,
        requests: Int? = nil
    ) {
        self.proven = proven
        self.reason = reason
        self.oracle = oracle
        self.request = request
        self.evidence = evidence
        self.requests = requests
    }
}
