import Findings

/// What the worker reports to the parent: findings, out-of-band probes still waiting for the
/// canary, the counts, and why the scan stopped. Encoded as one JSON object on stdout.
public struct WebScanResult: Sendable, Codable {
    /// What the checks proved.
    public var findings: [Finding] = []
    /// SSRF/XXE probes: a canary hit on a token turns its finding into a report.
    public var probes: [OOBProbe] = []
    /// Requests sent.
    public var requests = 0
    /// Pages the crawler fetched.
    public var pages = 0
    /// Distinct endpoints found.
    public var endpoints = 0
    /// Requests sent per phase and check (`crawl`, `probes`, `baseline`, then rule ids; logins
    /// and renewals are counted where they happened).
    public var requestsByCheck: [String: Int] = [:]
    /// Insertion points the active checks tested.
    public var insertionPoints = 0
    /// Seconds the scan took.
    public var seconds = 0.0
    /// `complete`, or what cut the scan short (`request budget`, `time limit`).
    public var stoppedBy = "complete"
    /// Links and actions left alone because they are out of scope (a sample).
    public var outOfScope: [String] = []
    /// Things to tell the user: responses cut at the size cap, requests that got no answer.
    public var notices: [String] = []
    /// What proving each ``WebScanOptions/proofs`` target showed, in their order.
    public var proofs: [ProofOutcome] = []
    /// Set when the scan could not start (the target did not answer): the one-line reason.
    public var fatal: String?

    /// An empty result.
    public init() {}
}
