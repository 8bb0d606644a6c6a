import Documents
import Findings
import Foundation
import Support

/// Findings from a Sentinel report (SARIF 2.1.0 or the JSON format), as signals: one per
/// finding, most severe first. A finding with a package and installed version is a vulnerable
/// dependency; every other is a code finding.
enum ReportSignals {
    /// The findings of a Sentinel JSON report (`{"findings": [...], "summary": ...}`).
    static func fromJSON(_ data: Data, name: String) throws -> [Finding] {
        struct Document: Decodable { var findings: [Finding] }
        do {
            return try JSONDecoder().decode(Document.self, from: data).findings
        } catch {
            throw SentinelError(.invalidInput, "\(name): not a Sentinel JSON report: \(Self.describe(error))")
        }
    }

    /// The results of a SARIF log, as findings (rule, level or `properties.severity`, message,
    /// first physical location, partial fingerprint, string properties).
    /// `fromSentinel` is true for the results of Sentinel's own run, whose `tool` names the scanner.
    static func fromSARIF(_ root: DocumentNode) -> [(finding: Finding, fromSentinel: Bool)] {
        var findings: [(finding: Finding, fromSentinel: Bool)] = []
        for run in root["runs"]?.elements ?? [] {
            let driver = run["tool"]?["driver"]?["name"]?.string?.lowercased() ?? "sarif"
            let fromSentinel = driver == SARIFRenderer.driverName.lowercased()
            let extensions = run["tool"]?["extensions"]?.elements ?? []
            for result in run["results"]?.elements ?? [] {
                // Sentinel's log: one run, each engine an extension the result's rule points at.
                let component = result["rule"]?["toolComponent"]?["index"]?.scalarText.flatMap { Int($0) }
                let tool =
                    component.flatMap { $0 >= 0 && $0 < extensions.count ? extensions[$0]["name"]?.string?.lowercased() : nil }
                    ?? driver
                let properties = result["properties"]
                var severity: Severity = .medium
                if let named = properties?["severity"]?.string, let parsed = try? Severity(parsing: named) {
                    severity = parsed
                } else if let level = result["level"]?.string, let parsed = try? Severity(parsing: level) {
                    severity = parsed
                }
                let physical = result["locations"]?.elements.first?["physicalLocation"]
                let uri = physical?["artifactLocation"]?["uri"]?.string ?? ""
                let file = uri.removingPercentEncoding ?? uri
                let region = physical?["region"]
                let line = region?["startLine"]?.scalarText.flatMap { Int($0) } ?? 1
                var strings: [String: String] = [:]
                for member in properties?.members ?? [] {
                    if let text = member.value.string { strings[member.key] = text }
                }
                let fingerprint = result["partialFingerprints"]?.members.first?.value.string
                let finding = Finding(
                    ruleId: result["ruleId"]?.string ?? "unknown", tool: ToolName(strings["tool"] ?? tool), severity: severity,
                    message: result["message"]?["text"]?.string ?? "",
                    location: Location(
                        file: file, startLine: line,
                        startColumn: region?["startColumn"]?.scalarText.flatMap { Int($0) },
                        endLine: region?["endLine"]?.scalarText.flatMap { Int($0) },
                        endColumn: region?["endColumn"]?.scalarText.flatMap { Int($0) }),
                    fingerprint: fingerprint, snippet: region?["snippet"]?["text"]?.string, facts: FindingFacts(properties: strings))
                findings.append((finding, fromSentinel))
            }
        }
        return findings
    }

    /// The signal for one finding; `raisedBy` is the scanner that raised it, when the report says.
    static func signal(_ finding: Finding, source: String, raisedBy: ToolName?) -> Signal {
        let location = Signal.Location(file: finding.location.file ?? "", line: finding.location.startLine)
        let facts = finding.facts.dependency
        if let package = facts.package, let installed = facts.installedVersion {
            let fixed = (facts.fixedVersions ?? facts.smallestFixedVersion.map { [$0] } ?? [])
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let advisories = [finding.ruleId] + (facts.aliases ?? [])
            return Signal(
                kind: .vulnerableDependency, source: source, message: finding.message, locations: [location],
                ruleId: finding.ruleId, severity: finding.severity, findingFingerprint: finding.fingerprint,
                dependency: Signal.Dependency(
                    ecosystem: facts.ecosystem ?? "PyPI", package: package, installed: installed,
                    fixedVersions: fixed, manifest: finding.location.file, advisories: advisories))
        }
        return Signal(
            kind: .finding, source: source, message: "\(finding.ruleId): \(finding.message)", locations: [location],
            ruleId: finding.ruleId, severity: finding.severity, findingFingerprint: finding.fingerprint, tool: raisedBy)
    }

    /// Most severe first; among equals, file and line order.
    static func ordered<Found>(_ findings: [Found], by finding: (Found) -> Finding) -> [Found] {
        findings.enumerated().sorted { a, b in
            let (x, y) = (finding(a.element).severity, finding(b.element).severity)
            if x != y { return x > y }
            return a.offset < b.offset
        }.map(\.element)
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing '\(key.stringValue)' at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(context.debugDescription) at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription
        default:
            return "\(error)"
        }
    }
}
