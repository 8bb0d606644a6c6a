import Documents
import Findings
import Foundation
import Web

/// One entry of a Wapiti report (`{method, path, info, level, parameter, http_request, ...}`)
/// made into a finding. Everything in it came from a tool that read a hostile site: fields are
/// bounded, cookies and credentials in the recorded request are masked.
enum WapitiEntry {
    /// Which list of the report an entry came from.
    enum Section: String {
        case vulnerabilities, anomalies, additionals
    }

    /// The finding for `entry` of `category`, or `nil` when it is not an object.
    static func finding(
        _ entry: DocumentNode, category: String, section: Section, target: WebURL,
        classification: WapitiClassification
    ) -> Finding? {
        guard entry.isObject else { return nil }
        func text(_ key: String, _ limit: Int) -> String {
            ToolText.flattened(String((entry[key]?.scalarText ?? "").prefix(limit * 4)).printable).prefixed(limit)
        }
        let method = text("method", 16).uppercased()
        let parameter = text("parameter", 200)
        let info = text("info", 300)
        let request = masked(String((entry["http_request"]?.string ?? "").prefix(16_000)).printable)
        let name = ToolText.flattened(category).prefixed(200)
        var evidence = info
        if !request.isEmpty { evidence += (evidence.isEmpty ? "" : "\n\n") + request }
        let module = text("module", 40)
        let wstg = (entry["wstg"]?.strings ?? []).prefix(10).map { ToolText.flattened($0).prefixed(60) }
        let facts = FindingFacts(
            web: WebFacts(wstg: wstg.isEmpty ? nil : Array(wstg)),
            external: ExternalToolFacts(
                category: name, module: module.isEmpty ? nil : module,
                section: section == .vulnerabilities ? nil : section.rawValue))
        let location = Location(
            url: url(path: text("path", 2048), request: request, target: target), method: method.isEmpty ? nil : method,
            parameter: parameter.isEmpty ? nil : parameter)
        return Finding(
            ruleId: RuleID(tool: ToolName.wapiti, checkId: WapitiCategories.slug(category)).rawValue, tool: ToolName.wapiti,
            severity: severity(entry["level"]),
            confidence: confidence(category: category, section: section),
            message: info.isEmpty ? name : info, location: location, cwe: classification.cwe,
            evidence: evidence.isEmpty ? nil : evidence.prefixed(4000), facts: facts,
            references: classification.references)
    }

    /// Wapiti 3.1+'s levels: 4 critical, 3 high, 2 medium, 1 low, 0 info (numbers, numeric
    /// strings or the names); anything else is info.
    static func severity(_ level: DocumentNode?) -> Severity {
        if let number = level?.int {
            switch number {
            case 4...: return .critical
            case 3: return .high
            case 2: return .medium
            case 1: return .low
            default: return .info
            }
        }
        switch level?.string?.lowercased() {
        case "critical": return .critical
        case "high": return .high
        case "medium": return .medium
        case "low": return .low
        default: return .info
        }
    }

    static func confidence(category: String, section: Section) -> Confidence {
        guard section == .vulnerabilities else { return .low }
        return WapitiCategories.observed.contains(category.lowercased()) ? .high : .medium
    }

    /// The finding's URL: Wapiti's `path` is the path alone, so the scheme is the target's and
    /// the host the recorded request's `host:` header (when it is a plain host name or address),
    /// else the target's.
    static func url(path: String, request: String, target: WebURL) -> String {
        let lower = path.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return path }
        var origin = target.origin.description
        if let host = hostHeader(request) { origin = "\(target.scheme)://\(host)" }
        return origin + (path.hasPrefix("/") ? path : "/" + path)
    }

    private static func hostHeader(_ request: String) -> String? {
        for line in request.split(whereSeparator: \.isNewline).dropFirst() {
            guard line.lowercased().hasPrefix("host:") else { continue }
            let host = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
            let plain = host.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-:[]".unicodeScalars.contains($0))
            }
            return plain && !host.isEmpty && host.count <= 260 ? host : nil
        }
        return nil
    }

    /// The recorded request with the values of `Cookie`, `Authorization` and
    /// `Proxy-Authorization` masked.
    static func masked(_ request: String) -> String {
        let secretHeaders = ["cookie:", "authorization:", "proxy-authorization:"]
        let lines = request.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line -> String in
            let lower = line.lowercased()
            guard let header = secretHeaders.first(where: { lower.hasPrefix($0) }) else { return String(line) }
            return line.prefix(header.count) + " [masked]"
        }
        return lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension String {
    /// Without control characters other than newline and tab (terminal escapes, NULs).
    fileprivate var printable: String {
        String(String.UnicodeScalarView(unicodeScalars.filter { $0 == "\n" || $0 == "\t" || $0.properties.generalCategory != .control }))
    }

    /// At most `limit` characters, an ellipsis marking a cut.
    fileprivate func prefixed(_ limit: Int) -> String {
        count > limit ? String(prefix(max(0, limit - 1))) + "…" : self
    }
}
