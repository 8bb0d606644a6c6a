import Documents
import Findings
import Foundation
import ScanCore
import Support
import Web

/// Wapiti's JSON report (`wapiti -f json`) read into findings `wapiti.<category-slug>`, one per
/// entry of its `vulnerabilities`, `anomalies` and `additionals` (each keyed by category name),
/// with a rule descriptor per category from its `classifications`. Runs no process.
public enum WapitiReport {
    /// Wapiti's home page (SARIF `informationUri`).
    public static let informationURI = "https://wapiti-scanner.github.io/"
    /// The most entries read from one report; the rest are counted in a notice.
    public static let maxEntries = 10_000

    /// Parses one report.
    /// - Parameters:
    ///   - data: the report Wapiti wrote.
    ///   - targetURL: the URL Wapiti scanned: findings' URLs are its scheme and host plus the
    ///     entry's path.
    /// - Throws: `SentinelError(.toolFailed, "wapiti failed: ...")` when `data` is not a Wapiti
    ///   report (empty, not JSON, no `vulnerabilities` object); `.invalidInput` for a bad URL.
    public static func parse(data: Data, targetURL: String) throws -> ScannerOutput {
        let target = try WebURL(target: targetURL)
        let document = try ToolReportJSON.parse(data, tool: ToolName.wapiti)
        guard let vulnerabilities = document["vulnerabilities"], vulnerabilities.isObject else {
            throw SentinelError(.toolFailed, "wapiti failed: its JSON output has no 'vulnerabilities' object")
        }
        let infos = document["infos"]
        var output = ScannerOutput(tool: ToolRun(name: ToolName.wapiti, version: version(infos), informationURI: informationURI))
        var rules: [String: RuleDescriptor] = [:]
        var skipped = 0
        var unread = 0
        let sections: [(WapitiEntry.Section, DocumentNode?)] = [
            (.vulnerabilities, vulnerabilities), (.anomalies, document["anomalies"]), (.additionals, document["additionals"]),
        ]
        for (section, node) in sections {
            for member in node?.members ?? [] {
                let classification = WapitiClassification(category: member.key, classifications: document["classifications"])
                guard member.value.isArray else {
                    skipped += 1
                    continue
                }
                for entry in member.value.elements {
                    guard output.findings.count < maxEntries else {
                        unread += 1
                        continue
                    }
                    guard
                        let finding = WapitiEntry.finding(
                            entry, category: member.key, section: section, target: target, classification: classification)
                    else {
                        skipped += 1
                        continue
                    }
                    output.findings.append(finding)
                    if rules[finding.ruleId] == nil {
                        rules[finding.ruleId] = classification.descriptor(category: member.key, finding: finding)
                    }
                }
            }
        }
        output.rules = rules.values.sorted { $0.id < $1.id }
        func warn(_ message: String) { output.notices.append(Notice(level: .warning, message: message, tool: ToolName.wapiti)) }
        if skipped > 0 { warn("wapiti: \(skipped) malformed report entr\(skipped == 1 ? "y" : "ies") skipped") }
        if unread > 0 { warn("wapiti: more than \(maxEntries) report entries; \(unread) were not read") }
        if infos?["crawled_pages_nbr"]?.int == 0 {
            warn("wapiti: crawled no page of \(target.string); is it reachable (the sandbox allows only \(target.egressEntry))?")
        }
        return output
    }

    /// `3.2.3` from `infos.version` (`Wapiti 3.2.3`).
    static func version(_ infos: DocumentNode?) -> String? {
        guard let text = infos?["version"]?.string else { return nil }
        let words = text.split(separator: " ")
        let number = words.first { $0.first?.isNumber == true } ?? words.last
        return number.map { String($0.prefix(40)) }
    }
}
