/// What a scanner knows about a finding beyond the common fields, typed per kind of scanner.
/// Encoded as the finding's `properties` object (JSON and SARIF), one string per key; the key
/// names live in `FindingFacts+Properties.swift` alone. Equality and hashing go by that encoding,
/// so two values that write the same object are equal.
public struct FindingFacts: Sendable, Hashable, Codable {
    /// The vulnerable package (SCA).
    public var dependency: DependencyFacts
    /// Where and how a web check proved it (native DAST, ZAP, Wapiti).
    public var web: WebFacts
    /// What a source-code rule found out (SAST, secrets).
    public var code: CodeFacts
    /// The external tool's own names for the check (Bandit, Semgrep, Wapiti, ZAP).
    public var external: ExternalToolFacts
    /// What the findings pipeline recorded: merged copies, the suppression that hid it.
    public var pipeline: PipelineFacts
    /// Whether a confined request against the running application confirmed it (`--prove`).
    public var proof: ProofFacts
    /// Properties no facet knows, kept verbatim: the other result properties of a SARIF log read
    /// back, or a value a facet cannot hold exactly (`cvssScore: "9.80"`). Open-ended by nature:
    /// reports written by other tools or hand-edited baselines must survive a round trip.
    public var other: [String: String]

    /// Facts from typed facets; `other` holds only keys no facet writes.
    public init(
        dependency: DependencyFacts = .init(), web: WebFacts = .init(), code: CodeFacts = .init(),
        external: ExternalToolFacts = .init(), pipeline: PipelineFacts = .init(), proof: ProofFacts = .init(),
        other: [String: String] = [:]
    ) {
        self.dependency = dependency
        self.web = web
        self.code = code
        self.external = external
        self.pipeline = pipeline
        self.proof = proof
        self.other = other
    }

    /// Equal when they encode the same `properties` object.
    public static func == (a: FindingFacts, b: FindingFacts) -> Bool { a.properties == b.properties }

    /// Hashes the encoded `properties` object.
    public func hash(into hasher: inout Hasher) { hasher.combine(properties) }

    /// Decodes the `properties` object of a finding.
    public init(from decoder: any Decoder) throws {
        self.init(properties: try decoder.singleValueContainer().decode([String: String].self))
    }

    /// Encodes the `properties` object of a finding.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(properties)
    }

    /// Fills every key `self` lacks from `donor`'s encoding: a merge keeps the winner's facts and
    /// adopts the loser's others. The merged-copy lists are left alone; `PipelineFacts.noteCopy`
    /// accumulates them.
    mutating func adoptMissing(from donor: FindingFacts) {
        var merged = properties
        for (key, value) in donor.properties where merged[key] == nil && !Self.mergeListKeys.contains(key) {
            merged[key] = value
        }
        self = FindingFacts(properties: merged)
    }
}
