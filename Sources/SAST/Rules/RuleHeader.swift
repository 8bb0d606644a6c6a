import Documents
import Findings

/// The keys every rule has, whatever it looks for: id, message, severity, confidence, languages,
/// CWEs and metadata (format in `rules/README.md`).
struct RuleHeader {
    var id: String
    var message: String
    var severity: Severity
    var confidence: Confidence
    var languages: [String]
    var cwe: [Int]
    var references: [String] = []
    var bandit: [String] = []
    var semgrep: [String] = []

    /// Reads the header keys of `map`; throws naming the file and the problem.
    init(_ map: Mapping, _ c: Cursor) throws {
        let file = c.file
        guard let id = try map["id"].map({ try c.string($0, "id") }), !id.isEmpty else {
            throw RuleLoader.fail(file, "missing 'id'")
        }
        guard let message = try map["message"].map({ try c.string($0, "message") }), !message.isEmpty else {
            throw RuleLoader.fail(file, "missing 'message'")
        }
        guard let severityNode = map["severity"] else { throw RuleLoader.fail(file, "missing 'severity'") }
        let severityText = try c.string(severityNode, "severity")
        guard let severity = Severity(rawValue: severityText) else {
            throw RuleLoader.fail(
                file, severityNode.line, "bad severity '\(severityText)' (expected info, low, medium, high or critical)")
        }
        let confidence = try map["confidence"].map { try c.confidence($0, "confidence") } ?? .medium
        let languages = try map["languages"].map { try c.strings($0, "languages") } ?? ["python"]
        let cwe = try map["cwe"].map { try c.cwes($0) } ?? []

        var references: [String] = []
        var bandit: [String] = []
        var semgrep: [String] = []
        if let node = map["metadata"] {
            let meta = try c.mapping(node, "metadata")
            references = try meta["references"].map { try c.strings($0, "metadata.references") } ?? []
            bandit = try meta["bandit"].map { try c.strings($0, "metadata.bandit") } ?? []
            semgrep = try meta["semgrep"].map { try c.strings($0, "metadata.semgrep") } ?? []
        }
        self.id = id
        self.message = message
        self.severity = severity
        self.confidence = confidence
        self.languages = languages
        self.cwe = cwe
        self.references = references
        self.bandit = bandit
        self.semgrep = semgrep
    }
}

extension Cursor {
    /// A confidence (`low`, `medium`, `high`) under `key`; throws naming the file and the line.
    func confidence(_ node: DocumentNode, _ key: String) throws -> Confidence {
        let text = try string(node, key)
        guard let value = Confidence(rawValue: text) else {
            throw RuleLoader.fail(file, node.line, "bad \(key) '\(text)' (expected low, medium or high)")
        }
        return value
    }
}
