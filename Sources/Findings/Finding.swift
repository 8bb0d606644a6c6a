/// One problem a scanner reports (DESIGN §4 "Finding"). Scanners construct these; the pipeline
/// (suppressions, baseline, dedupe, gate) and the renderers consume them.
public struct Finding: Sendable, Codable, Hashable {
    /// The rule that fired (`python.sqli`, `bandit.B602`, `semgrep.<id>`, `osv.GHSA-...`).
    public var ruleId: String
    /// The tool that produced it (`native`, `secrets`, `osv`, `bandit`, `semgrep`, ...; see `ToolName`).
    public var tool: ToolName
    /// How bad the problem is if real; the gate and `--severity` judge by it.
    public var severity: Severity
    /// How sure the tool is that the finding is real.
    public var confidence: Confidence
    /// One human sentence; may name the tainted source or the vulnerable package.
    public var message: String
    /// Where the problem is: a file position, or a URL.
    public var location: Location
    /// CWE ids as integers (`89` for CWE-89).
    public var cwe: [Int]
    /// Stable identity across unrelated edits; see `Fingerprint`.
    public var fingerprint: String
    /// The suggested fix, when the rule has one.
    public var fix: Fix?
    /// Why the tool believes it: a taint path, an HTTP response excerpt, a matched version range.
    public var evidence: String?
    /// The matched source lines, verbatim (secrets already redacted by the scanner).
    public var snippet: String?
    /// The function or class the match is in (`Views.login`), when known; part of the fingerprint.
    public var enclosingScope: String?
    /// What the scanner knows beyond the common fields, typed per scanner (the vulnerable
    /// package, the web technique, the external tool's test id, the merged copies); encoded as
    /// the `properties` object.
    public var facts: FindingFacts
    /// Links to advisories or documentation.
    public var references: [String]
    /// The data flow that makes the finding, source first and sink last; empty when the rule
    /// proved no flow. Not part of the fingerprint: a new path to the same sink is the same problem.
    public var codeFlow: [FlowStep]

    /// Creates a finding. When `fingerprint` is `nil` it is computed from the rule id, the file,
    /// the normalised `snippet` (or the message when there is no snippet) and `enclosingScope`
    /// (see `Fingerprint.compute`).
    public init(
        ruleId: String, tool: ToolName = ToolName.native, severity: Severity, confidence: Confidence = .medium,
        message: String, location: Location, cwe: [Int] = [], fingerprint: String? = nil,
        fix: Fix? = nil, evidence: String? = nil, snippet: String? = nil, enclosingScope: String? = nil,
        facts: FindingFacts = FindingFacts(), references: [String] = [], codeFlow: [FlowStep] = []
    ) {
        self.ruleId = ruleId
        self.tool = tool
        self.severity = severity
        self.confidence = confidence
        self.message = message
        self.location = location
        self.cwe = cwe
        self.fix = fix
        self.evidence = evidence
        self.snippet = snippet
        self.enclosingScope = enclosingScope
        self.facts = facts
        self.references = references
        self.codeFlow = codeFlow
        self.fingerprint =
            fingerprint
            ?? Fingerprint.compute(
                for: ruleId, location: location,
                snippet: snippet, enclosingScope: enclosingScope, message: message)
    }

    /// `CWE-89` style names of `cwe`.
    public var cweTags: [String] { cwe.map { "CWE-\($0)" } }

    private enum CodingKeys: String, CodingKey {
        case ruleId, tool, severity, confidence, message, location, cwe, fingerprint, fix, evidence, snippet
        case enclosingScope, references, codeFlow
        case facts = "properties"
    }

    /// Decodes leniently: only `ruleId`, `severity`, `message` and `location` are required, so
    /// findings written by hand or by older versions load; a missing fingerprint is computed and a
    /// missing `codeFlow` is empty.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            ruleId: try c.decode(String.self, forKey: .ruleId),
            tool: try c.decodeIfPresent(ToolName.self, forKey: .tool) ?? ToolName.native,
            severity: try c.decode(Severity.self, forKey: .severity),
            confidence: try c.decodeIfPresent(Confidence.self, forKey: .confidence) ?? .medium,
            message: try c.decode(String.self, forKey: .message),
            location: try c.decode(Location.self, forKey: .location),
            cwe: try c.decodeIfPresent([Int].self, forKey: .cwe) ?? [],
            fingerprint: try c.decodeIfPresent(String.self, forKey: .fingerprint),
            fix: try c.decodeIfPresent(Fix.self, forKey: .fix),
            evidence: try c.decodeIfPresent(String.self, forKey: .evidence),
            snippet: try c.decodeIfPresent(String.self, forKey: .snippet),
            enclosingScope: try c.decodeIfPresent(String.self, forKey: .enclosingScope),
            facts: try c.decodeIfPresent(FindingFacts.self, forKey: .facts) ?? FindingFacts(),
            references: try c.decodeIfPresent([String].self, forKey: .references) ?? [],
            codeFlow: try c.decodeIfPresent([FlowStep].self, forKey: .codeFlow) ?? [])
    }

    /// Encodes every field; optional ones and an empty `codeFlow` are left out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(ruleId, forKey: .ruleId)
        try c.encode(tool, forKey: .tool)
        try c.encode(severity, forKey: .severity)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(message, forKey: .message)
        try c.encode(location, forKey: .location)
        try c.encode(cwe, forKey: .cwe)
        try c.encode(fingerprint, forKey: .fingerprint)
        try c.encodeIfPresent(fix, forKey: .fix)
        try c.encodeIfPresent(evidence, forKey: .evidence)
        try c.encodeIfPresent(snippet, forKey: .snippet)
        try c.encodeIfPresent(enclosingScope, forKey: .enclosingScope)
        try c.encode(facts, forKey: .facts)
        try c.encode(references, forKey: .references)
        if !codeFlow.isEmpty { try c.encode(codeFlow, forKey: .codeFlow) }
    }
}
