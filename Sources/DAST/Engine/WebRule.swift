import Findings

/// What one check reports: its id (`dast.<id>`), name, severity, confidence, CWEs and advice.
/// Each check file holds its own rule; `WebRules.all` lists them for SARIF's rule metadata.
public struct WebRule: Sendable, Hashable {
    /// The id after `dast.` (`xss-reflected`).
    public var id: String
    /// A short name (`Reflected cross-site scripting`).
    public var name: String
    /// How bad a finding is.
    public var severity: Severity
    /// How sure a finding of this rule is, by default.
    public var confidence: Confidence
    /// The most specific CWE first, then the broader class tools commonly use.
    public var cwe: [Int]
    /// How to fix it.
    public var help: String

    /// A rule; see the properties.
    public init(id: String, name: String, severity: Severity, confidence: Confidence = .high, cwe: [Int], help: String) {
        self.id = id
        self.name = name
        self.severity = severity
        self.confidence = confidence
        self.cwe = cwe
        self.help = help
    }

    /// `dast.<id>`.
    public var ruleId: String { "dast." + id }

    /// The SARIF rule metadata.
    public var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: ruleId, tool: DAST.toolName, name: name, shortDescription: name, help: help, defaultSeverity: severity,
            cwe: cwe, tags: ["dast"], precision: confidence)
    }

    /// A finding of this rule at `url` (`method`, `parameter`), with `evidence`.
    public func finding(
        url: String, method: String? = nil, parameter: String? = nil, message: String, evidence: String,
        confidence: Confidence? = nil, web: WebFacts = WebFacts()
    ) -> Finding {
        Finding(
            ruleId: ruleId, tool: DAST.toolName, severity: severity, confidence: confidence ?? self.confidence,
            message: message, location: Location(url: url, method: method, parameter: parameter), cwe: cwe,
            evidence: Evidence.bounded(evidence), facts: FindingFacts(web: web))
    }

    /// A finding of this rule at an insertion point.
    public func finding(
        at point: InsertionPoint, message: String, evidence: String, confidence: Confidence? = nil,
        web: WebFacts = WebFacts()
    ) -> Finding {
        var web = web
        web.parameterIn = point.kind
        return finding(
            url: point.endpoint.url.string, method: point.endpoint.method, parameter: point.parameter,
            message: message, evidence: evidence, confidence: confidence, web: web)
    }
}
