/// What a rule checks, independent of any one finding: the metadata SARIF puts in
/// `tool.driver.rules` and the HTML report links to.
public struct RuleDescriptor: Sendable, Codable, Hashable {
    /// The id findings carry (`python.sqli.string-format`, `bandit.B602`).
    public var id: String
    /// The tool that owns the rule (`native`, `bandit`, ...); decides its SARIF run.
    public var tool: ToolName
    /// A short human name (`SQL built from strings`).
    public var name: String?
    /// One sentence on what the rule finds.
    public var shortDescription: String
    /// A longer explanation; defaults to the short description in renderers.
    public var fullDescription: String?
    /// How to fix it, plain text.
    public var help: String?
    /// How to fix it, Markdown (GitHub shows this).
    public var helpMarkdown: String?
    /// A page with more detail.
    public var helpURI: String?
    /// The severity findings of this rule get unless overridden.
    public var defaultSeverity: Severity
    /// CWE ids (integers, `79` for CWE-79).
    public var cwe: [Int]
    /// Free-form tags (`injection`, `crypto`); `security` and `CWE-n` are added by SARIF output.
    public var tags: [String]
    /// How often the rule's findings are real (SARIF/GitHub `precision`); `nil` when unknown.
    public var precision: Confidence?
    /// The 0–10 score SARIF's `security-severity` gives when one is known (an advisory's CVSS base
    /// score); otherwise it is derived from `defaultSeverity`.
    public var securitySeverityScore: Double?

    /// Makes a rule descriptor from its metadata.
    public init(
        id: String, tool: ToolName = ToolName.native, name: String? = nil, shortDescription: String,
        fullDescription: String? = nil, help: String? = nil, helpMarkdown: String? = nil,
        helpURI: String? = nil, defaultSeverity: Severity, cwe: [Int] = [], tags: [String] = [],
        precision: Confidence? = nil
    ) {
        self.id = id
        self.tool = tool
        self.name = name
        self.shortDescription = shortDescription
        self.fullDescription = fullDescription
        self.help = help
        self.helpMarkdown = helpMarkdown
        self.helpURI = helpURI
        self.defaultSeverity = defaultSeverity
        self.cwe = cwe
        self.tags = tags
        self.precision = precision
    }
}
