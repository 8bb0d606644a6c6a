/// SARIF 2.1.0 for GitHub code scanning and other SARIF viewers: one `run` whose driver is
/// Sentinel and whose `tool.extensions` are the engines that ran (native, secrets, osv, bandit...),
/// each with its rules; a result names its rule by id and by `rule.toolComponent` index (SARIF
/// §3.52.7, §3.19.23), as CodeQL's query packs do. Rules carry help text, CWE tags and
/// `security-severity`; results `partialFingerprints`, regions, snippets, fixes and data flows
/// (`codeFlows`). Web (DAST) results use the URL as the artifact and carry a `webRequest`. Each
/// engine's status and notices are one invocation, `properties.tool` naming it.
public struct SARIFRenderer: ReportRenderer {
    /// The schema URI written to `$schema`: the OASIS errata-01 schema's own id.
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    /// The key under `partialFingerprints`.
    public static let fingerprintKey = "sentinelFingerprint/v1"
    /// The base id relative artifact URIs are resolved against.
    public static let sourceRootId = "%SRCROOT%"

    /// Absolute path of the repository root (git top level or `--sarif-root`); when set it
    /// becomes `originalUriBaseIds["%SRCROOT%"]`.
    public var sourceRoot: String?
    /// Where the scan root is below `sourceRoot` (`services/api`), `/`-separated, empty when they
    /// are the same: findings' paths are relative to the scan root, SARIF URIs to the repository,
    /// which is what GitHub code scanning resolves them against.
    public var pathPrefix: String

    /// `tool.driver.name`.
    public static let driverName = "Sentinel"
    /// Sentinel's version, `tool.driver.version` when set.
    public var version: String?
    /// Sentinel's home page, `tool.driver.informationUri` when set.
    public var informationURI: String?

    /// Makes a SARIF renderer; without `sourceRoot`, URIs are relative with no base.
    public init(sourceRoot: String? = nil, pathPrefix: String = "", version: String? = nil, informationURI: String? = nil) {
        self.version = version
        self.informationURI = informationURI
        self.sourceRoot = sourceRoot
        var prefix = Location.relativePath(pathPrefix)
        if prefix == "." || prefix == "/" { prefix = "" }
        self.pathPrefix = prefix
    }

    /// The report as a SARIF 2.1.0 log, JSON text.
    public func render(_ report: Report) -> String {
        let findings = report.findings.sortedForReport()
        var toolNames = report.toolNames
        if toolNames.isEmpty { toolNames = [ToolName.native] }  // an empty scan still says who ran
        var extensions: [JSONValue] = []
        var ruleIndices: [ToolName: [String: Int]] = [:]
        for name in toolNames {
            let toolRun = report.tools.first { $0.name == name }
            let rules = SARIFRenderer.rules(for: name, report: report, findings: findings.filter { $0.tool == name })
            ruleIndices[name] = Dictionary(rules.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
            var component: [String: JSONValue] = ["name": .string(name.rawValue), "rules": .array(rules.map(SARIFRenderer.rule))]
            // The built-in engines are Sentinel itself, at Sentinel's version.
            component.set("version", toolRun?.version ?? (ToolName.builtIn.contains(name) ? version : nil))
            component.set("informationUri", toolRun?.informationURI)
            extensions.append(.object(component))
        }
        let componentIndex = Dictionary(toolNames.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        var driver: [String: JSONValue] = ["name": .string(SARIFRenderer.driverName)]
        driver.set("version", version)
        driver.set("informationUri", informationURI)

        let results: [JSONValue] = findings.map { finding in
            let component = componentIndex[finding.tool]
            return result(finding, component: component, ruleIndex: ruleIndices[finding.tool]?[finding.ruleId])
        }
        var run: [String: JSONValue] = [
            "tool": ["driver": .object(driver), "extensions": .array(extensions)],
            "results": .array(results),
            "columnKind": "unicodeCodePoints",
        ]
        if let sourceRoot {
            let uri = "file://" + SARIFRenderer.percentEncode(sourceRoot.hasSuffix("/") ? sourceRoot : sourceRoot + "/")
            run["originalUriBaseIds"] = [SARIFRenderer.sourceRootId: ["uri": .string(uri)]]
        }
        let invocations = toolNames.compactMap { invocation(tool: $0, report: report) }
        if !invocations.isEmpty { run["invocations"] = .array(invocations) }
        let log: JSONValue = [
            "$schema": .string(SARIFRenderer.schemaURI),
            "version": "2.1.0",
            "runs": [.object(run)],
        ]
        return log.rendered()
    }

    // MARK: - Invocations

    /// One engine's status and notices, or nil when it neither ran nor said anything.
    private func invocation(tool name: ToolName, report: Report) -> JSONValue? {
        let toolRun = report.tools.first { $0.name == name }
        // Notices without a tool belong to the native engine (or the first when native is absent).
        let firstName = report.toolNames.first ?? ToolName.native
        let owner = report.toolNames.contains(ToolName.native) ? ToolName.native : firstName
        var notices = report.notices.filter { ($0.tool ?? owner) == name }
        // Files no tool read are reported once, by the engine that owns tool-less notices.
        if name == owner {
            notices += report.skippedFiles.map { Notice(level: .warning, message: "skipped: \($0.reason)", file: $0.file) }
            // So is what `--min-confidence` left out: a viewer shows the note, a script reads the count.
            if let hidden = report.belowConfidenceSummary { notices.append(Notice(level: .info, message: hidden)) }
            if let excluded = report.defaultExclusionSummary { notices.append(Notice(level: .info, message: excluded)) }
        }
        guard toolRun != nil || !notices.isEmpty else { return nil }
        var invocation: [String: JSONValue] = ["executionSuccessful": .bool(toolRun?.status != .failed)]
        var notifications = notices.map(notification)
        if let toolRun, toolRun.status != .succeeded {
            notifications.insert(
                [
                    "level": .string(toolRun.status == .failed ? "error" : "note"),
                    "message": ["text": .string("\(name) \(toolRun.status.rawValue)" + (toolRun.message.map { ": " + $0 } ?? ""))],
                ], at: 0)
        }
        if !notifications.isEmpty { invocation["toolExecutionNotifications"] = .array(notifications) }
        var properties: [String: JSONValue] = ["tool": .string(name.rawValue)]
        properties.set("status", toolRun?.status.rawValue)
        if name == owner, report.belowConfidenceCount > 0 {
            properties["belowMinConfidence"] = .int(report.belowConfidenceCount)
            properties.set("minConfidence", report.minimumConfidence?.rawValue)
        }
        if name == owner, !report.defaultExclusions.isEmpty {
            properties["defaultExclusions"] = .array(
                report.defaultExclusions.map { exclusion in
                    var entry: [String: JSONValue] = [
                        "kind": .string(exclusion.kind.rawValue), "files": .int(exclusion.files),
                        "patterns": .array(exclusion.patterns.map { .string($0) }),
                    ]
                    if let byFile = exclusion.signalsByFile {
                        entry["signalsByFile"] = .object(byFile.mapValues { .array($0.map { .string($0) }) })
                    }
                    return .object(entry)
                })
        }
        invocation["properties"] = .object(properties)
        return .object(invocation)
    }

    private func notification(_ notice: Notice) -> JSONValue {
        var object: [String: JSONValue] = [
            "level": .string(notice.level == .info ? "note" : notice.level.rawValue),
            "message": ["text": .string(notice.message)],
        ]
        var locations: [JSONValue] = []
        if let file = notice.file { locations.append(["physicalLocation": ["artifactLocation": artifactLocation(file)]]) }
        // A notice about many files: each is a location whose message says what it holds.
        for group in notice.fileGroups ?? [] {
            for file in group.files {
                locations.append([
                    "physicalLocation": ["artifactLocation": artifactLocation(file)], "message": ["text": .string(group.kind)],
                ])
            }
        }
        if !locations.isEmpty { object["locations"] = .array(locations) }
        return .object(object)
    }

    // MARK: - Rules

    /// The rules a run declares: descriptors owned by the tool plus every rule its findings use
    /// (synthesised from the findings when the report has no descriptor), sorted by id.
    static func rules(for tool: ToolName, report: Report, findings: [Finding]) -> [RuleDescriptor] {
        var byId: [String: RuleDescriptor] = [:]
        for rule in report.rules where rule.tool == tool { byId[rule.id] = rule }
        for finding in findings where byId[finding.ruleId] == nil {
            if let known = report.rule(finding.ruleId) {
                byId[finding.ruleId] = known
            } else if finding.ruleId == Suppressions.missingReasonRuleId {
                byId[finding.ruleId] = Suppressions.missingReasonRule
            } else {
                let same = findings.filter { $0.ruleId == finding.ruleId }
                byId[finding.ruleId] = RuleDescriptor(
                    id: finding.ruleId, tool: tool, name: finding.ruleId, shortDescription: finding.message,
                    defaultSeverity: same.map(\.severity).max() ?? finding.severity,
                    cwe: Array(Set(same.flatMap(\.cwe))).sorted(), precision: same.map(\.confidence).max())
            }
        }
        return byId.values.sorted { $0.id < $1.id }
    }

    private static func rule(_ rule: RuleDescriptor) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(rule.id),
            "name": .string(rule.name ?? rule.id),
            "shortDescription": ["text": .string(rule.shortDescription)],
            "fullDescription": ["text": .string(rule.fullDescription ?? rule.shortDescription)],
            "defaultConfiguration": ["level": .string(rule.defaultSeverity.sarifLevel)],
        ]
        let helpText = rule.help ?? rule.fullDescription ?? rule.shortDescription
        var help: [String: JSONValue] = ["text": .string(helpText)]
        help["markdown"] = .string(rule.helpMarkdown ?? markdownHelp(rule, text: helpText))
        object["help"] = .object(help)
        object.set("helpUri", rule.helpURI ?? rule.cwe.first.map { "https://cwe.mitre.org/data/definitions/\($0).html" })

        var tags: [String] = []
        if !rule.tags.contains("maintainability") { tags.append("security") }
        for tag in rule.tags + rule.cwe.map({ "CWE-\($0)" }) where !tags.contains(tag) { tags.append(tag) }
        var properties: [String: JSONValue] = ["tags": .array(tags.map { .string($0) })]
        properties.set(
            "security-severity",
            rule.securitySeverityScore.map { String(format: "%.1f", min(10, max(0, $0))) } ?? rule.defaultSeverity.securitySeverity)
        properties.set("precision", rule.precision?.rawValue)
        if !rule.cwe.isEmpty { properties["cwe"] = .array(rule.cwe.map { .int($0) }) }
        object["properties"] = .object(properties)
        return .object(object)
    }

    private static func markdownHelp(_ rule: RuleDescriptor, text: String) -> String {
        var markdown = "**\(rule.name ?? rule.id)**\n\n\(text)"
        if !rule.cwe.isEmpty {
            let links = rule.cwe.map { "[CWE-\($0)](https://cwe.mitre.org/data/definitions/\($0).html)" }
            markdown += "\n\nSee " + links.joined(separator: ", ") + "."
        }
        return markdown
    }

    // MARK: - Results

    private func result(_ finding: Finding, component: Int?, ruleIndex: Int?) -> JSONValue {
        var object: [String: JSONValue] = [
            "ruleId": .string(finding.ruleId),
            "level": .string(finding.severity.sarifLevel),
            "message": ["text": .string(finding.message)],
            "partialFingerprints": [SARIFRenderer.fingerprintKey: .string(finding.fingerprint)],
        ]
        // The rule lives in the engine's extension, not the driver: `rule.toolComponent` says which.
        var rule: [String: JSONValue] = ["id": .string(finding.ruleId)]
        rule.set("index", ruleIndex)
        if let component { rule["toolComponent"] = ["index": .int(component)] }
        object["rule"] = .object(rule)
        object.set("ruleIndex", ruleIndex)
        object["locations"] = [.object(["physicalLocation": physicalLocation(finding.location, snippet: finding.snippet)])]
        if !finding.codeFlow.isEmpty { object["codeFlows"] = [codeFlow(finding.codeFlow)] }

        var properties: [String: JSONValue] = [
            "severity": .string(finding.severity.rawValue),
            "confidence": .string(finding.confidence.rawValue),
        ]
        if !finding.cwe.isEmpty { properties["cwe"] = .array(finding.cweTags.map { .string($0) }) }
        properties.set("evidence", finding.evidence)
        properties.set("enclosingScope", finding.enclosingScope)
        if !finding.references.isEmpty { properties["references"] = .array(finding.references.map { .string($0) }) }
        for (key, value) in finding.facts.properties where properties[key] == nil { properties[key] = .string(value) }

        let location = finding.location
        if location.isWeb {
            var request: [String: JSONValue] = [:]
            request.set("target", location.url)
            request.set("method", location.method)
            object["webRequest"] = .object(request)
            properties.set("url", location.url)
            properties.set("method", location.method)
            properties.set("parameter", location.parameter)
        }
        if let fix = finding.fix {
            if let sarifFix = self.fix(fix, defaultFile: location.file) {
                object["fixes"] = [sarifFix]
            }
            properties["fixDescription"] = .string(fix.description)
        }
        object["properties"] = .object(properties)
        return .object(object)
    }

    /// A finding's flow as one `codeFlow` with one `threadFlow` (SARIF §3.36–3.38): each step a
    /// `threadFlowLocation` whose location carries the region and the step's message.
    private func codeFlow(_ steps: [FlowStep]) -> JSONValue {
        let locations: [JSONValue] = steps.map { step in
            [
                "location": [
                    "physicalLocation": physicalLocation(step.location, snippet: nil),
                    "message": ["text": .string(step.message)],
                ]
            ]
        }
        return ["threadFlows": [["locations": .array(locations)]]]
    }

    private func physicalLocation(_ location: Location, snippet: String?) -> JSONValue {
        if location.isWeb, let url = location.url {
            return ["artifactLocation": ["uri": .string(SARIFRenderer.percentEncode(url, keepURLSyntax: true))]]
        }
        var physical: [String: JSONValue] = ["artifactLocation": artifactLocation(location.file ?? "")]
        if let startLine = location.startLine, startLine >= 1 {
            var region: [String: JSONValue] = ["startLine": .int(startLine)]
            if let column = location.startColumn, column >= 1 { region["startColumn"] = .int(column) }
            if let endLine = location.endLine, endLine >= startLine { region["endLine"] = .int(endLine) }
            if let column = location.endColumn, column >= 1 { region["endColumn"] = .int(column) }
            if let snippet { region["snippet"] = ["text": .string(snippet)] }
            physical["region"] = .object(region)
        }
        return .object(physical)
    }

    /// A file relative to the scan root as a URI relative to `%SRCROOT%` (the repository root).
    private func artifactLocation(_ file: String) -> JSONValue {
        let path = pathPrefix.isEmpty || file.hasPrefix("/") ? file : pathPrefix + "/" + file
        return ["uri": .string(SARIFRenderer.percentEncode(path)), "uriBaseId": .string(SARIFRenderer.sourceRootId)]
    }

    /// A SARIF fix needs at least one change with at least one replacement; advice-only fixes
    /// return nil (their description goes to `properties.fixDescription`).
    private func fix(_ fix: Fix, defaultFile: String?) -> JSONValue? {
        var byFile: [String: [Fix.Replacement]] = [:]
        var order: [String] = []
        for replacement in fix.replacements {
            guard let file = replacement.file ?? defaultFile,
                replacement.startLine >= 1, replacement.startColumn >= 1,
                replacement.endLine >= replacement.startLine, replacement.endColumn >= 1
            else { continue }
            if byFile[file] == nil { order.append(file) }
            byFile[file, default: []].append(replacement)
        }
        guard !order.isEmpty else { return nil }
        let changes: [JSONValue] = order.map { file in
            let replacements: [JSONValue] = (byFile[file] ?? []).map { r in
                [
                    "deletedRegion": [
                        "startLine": .int(r.startLine), "startColumn": .int(r.startColumn),
                        "endLine": .int(r.endLine), "endColumn": .int(r.endColumn),
                    ],
                    "insertedContent": ["text": .string(r.text)],
                ]
            }
            return ["artifactLocation": artifactLocation(file), "replacements": .array(replacements)]
        }
        return ["description": ["text": .string(fix.description)], "artifactChanges": .array(changes)]
    }

    /// RFC 3986 percent-encoding of a path (or, with `keepURLSyntax`, of a URL: reserved
    /// characters stay, only spaces, controls, non-ASCII and a few unsafe ones are encoded).
    static func percentEncode(_ text: String, keepURLSyntax: Bool = false) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            let unreserved =
                (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a)
                || (byte >= 0x30 && byte <= 0x39) || byte == 0x2d || byte == 0x2e || byte == 0x5f || byte == 0x7e
                || byte == 0x2f  // '/' separates path segments
            let urlSyntax = keepURLSyntax && Array(":?#[]@!$&'()*+,;=%".utf8).contains(byte)
            if unreserved || urlSyntax {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
