import Findings

/// ZAP alerts turned into findings `zap.<pluginId>` (tool `zap`) with web locations, and a rule
/// descriptor for each plugin seen. False positives are dropped; identical alerts (same plugin,
/// URL, parameter and method: ZAP raises one per message) become one finding. Every text is
/// cleaned: the API key redacted, control characters dropped, lengths bounded.
public enum ZAPAlertMapping {
    /// The tool name findings carry.
    public static let tool = ToolName.zap
    /// ZAP's home page (SARIF `informationUri`).
    public static let informationURI = "https://www.zaproxy.org/"

    /// What `map` made of a list of alerts.
    public struct Result: Sendable {
        /// One finding per distinct alert, in ZAP's order.
        public var findings: [Finding] = []
        /// One descriptor per plugin seen, sorted by id.
        public var rules: [RuleDescriptor] = []
        /// Alerts ZAP (or its user) marked `False Positive`.
        public var falsePositives = 0
        /// Alerts that repeated an earlier one.
        public var duplicates = 0
    }

    /// Maps `alerts`; `secret` (the API key) is redacted from every text.
    public static func map(_ alerts: [ZAPAlert], secret: String? = nil) -> Result {
        var result = Result()
        var seen = Set<[String]>()
        var rules: [String: RuleDescriptor] = [:]
        for alert in alerts {
            guard let finding = finding(for: alert, secret: secret) else {
                result.falsePositives += 1
                continue
            }
            let key = [finding.ruleId, finding.location.url ?? "", finding.location.parameter ?? "", finding.location.method ?? ""]
            guard seen.insert(key).inserted else {
                result.duplicates += 1
                continue
            }
            result.findings.append(finding)
            if rules[finding.ruleId] == nil { rules[finding.ruleId] = descriptor(for: alert, finding: finding, secret: secret) }
        }
        result.rules = rules.values.sorted { $0.id < $1.id }
        return result
    }

    /// The finding for one alert; `nil` for a false positive.
    public static func finding(for alert: ZAPAlert, secret: String? = nil) -> Finding? {
        guard let confidence = confidence(alert.confidence) else { return nil }
        func clean(_ text: String, _ limit: Int) -> String { ZAPText.clean(text, limit: limit, secret: secret) }
        func line(_ text: String, _ limit: Int) -> String { ZAPText.oneLine(text, limit: limit, secret: secret) }
        let name = line(alert.name.isEmpty ? "ZAP alert \(alert.pluginId)" : alert.name, 200)
        let parameter = line(alert.param, 200)
        let method = line(alert.method, 16).uppercased()
        let location = Location(
            url: line(alert.url, 2048), method: method.isEmpty ? nil : method,
            parameter: parameter.isEmpty ? nil : parameter)
        var evidence: [String] = []
        if !alert.attack.isEmpty { evidence.append("attack: " + clean(alert.attack, 1000)) }
        if !alert.evidence.isEmpty { evidence.append("evidence: " + clean(alert.evidence, 1000)) }
        func kept(_ text: String, _ limit: Int) -> String? { text.isEmpty ? nil : clean(text, limit) }
        let facts = FindingFacts(
            web: WebFacts(wascId: alert.wascId > 0 ? alert.wascId : nil),
            external: ExternalToolFacts(
                alertRef: kept(alert.alertRef, 40), messageId: kept(alert.messageId, 40),
                solution: kept(alert.solution, 2000)))
        return Finding(
            ruleId: ruleId(alert.pluginId), tool: tool, severity: severity(alert.risk), confidence: confidence,
            message: parameter.isEmpty ? name : "\(name) (parameter \(parameter))", location: location,
            cwe: alert.cweId > 0 ? [alert.cweId] : [], evidence: evidence.isEmpty ? nil : evidence.joined(separator: "\n"),
            facts: facts, references: references(alert.reference, secret: secret))
    }

    /// `zap.<pluginId>`, the id kept to letters, digits, `-`, `_` and `.` (at most 40).
    public static func ruleId(_ pluginId: String) -> String {
        let kept = pluginId.unicodeScalars.filter {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
        }
        let id = String(String.UnicodeScalarView(kept.prefix(40)))
        return RuleID(tool: ToolName.zap, checkId: id.isEmpty ? "unknown" : id).rawValue
    }

    /// ZAP's risk: `High` → high, `Medium` → medium, `Low` → low, anything else (`Informational`)
    /// → info.
    public static func severity(_ risk: String) -> Severity {
        switch risk.lowercased() {
        case "high": .high
        case "medium": .medium
        case "low": .low
        default: .info
        }
    }

    /// ZAP's confidence: `Confirmed`/`High` → high, `Medium` → medium, `Low` → low, `False
    /// Positive` → `nil` (dropped); an unknown word is medium.
    public static func confidence(_ text: String) -> Confidence? {
        switch text.lowercased() {
        case "confirmed", "user confirmed", "high": .high
        case "low": .low
        case "false positive": nil
        default: .medium
        }
    }

    /// The http(s) URLs in ZAP's newline-separated `reference` (at most 10, each at most 500
    /// characters).
    static func references(_ text: String, secret: String?) -> [String] {
        let words = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        let links = words.filter { $0.lowercased().hasPrefix("http://") || $0.lowercased().hasPrefix("https://") }
        return links.prefix(10).map { ZAPText.clean($0, limit: 500, secret: secret) }
    }

    static func descriptor(for alert: ZAPAlert, finding: Finding, secret: String?) -> RuleDescriptor {
        let name = ZAPText.oneLine(alert.name.isEmpty ? finding.ruleId : alert.name, limit: 200, secret: secret)
        let description = ZAPText.clean(alert.description, limit: 4000, secret: secret)
        let solution = ZAPText.clean(alert.solution, limit: 4000, secret: secret)
        return RuleDescriptor(
            id: finding.ruleId, tool: tool, name: name, shortDescription: name,
            fullDescription: description.isEmpty ? nil : description, help: solution.isEmpty ? nil : solution,
            helpURI: finding.references.first, defaultSeverity: finding.severity, cwe: finding.cwe, tags: ["zap", "dast"])
    }
}
