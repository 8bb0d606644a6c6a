import Documents
import Findings
import Foundation
import PythonSyntax
import ScanCore
import SourcePositions
import Support

/// Semgrep's JSON report (`semgrep scan --json`) read into findings `semgrep.<rule id>`, rule
/// descriptors and notices. Runs no process; it reads the scanned files only to fill in what
/// Semgrep OSS leaves out (`extra.lines` is `"requires login"`) and to turn its byte columns
/// into code-point columns.
public enum SemgrepReport {
    /// Semgrep's home page (SARIF `informationUri`).
    public static let informationURI = "https://semgrep.dev/"

    /// Parses one report.
    /// - Parameters:
    ///   - data: what `semgrep scan --json` printed.
    ///   - root: the scan root on the host; Semgrep's paths (relative to `/workspace`) become
    ///     relative to it.
    ///   - configPaths: the `--config` paths. Without `--no-rewrite-rule-ids` Semgrep prefixes
    ///     rule ids with their directory (`/opt/rules/x.yaml` → `opt.rules.<id>`); that prefix is
    ///     removed again, leaving subdirectories below the config path (`python.<id>`).
    ///   - readSources: whether to read the scanned files under `root` for snippets and columns.
    /// - Throws: `SentinelError(.toolFailed, "semgrep failed: ...")` when `data` is not a
    ///   complete Semgrep report.
    public static func parse(data: Data, root: String, configPaths: [String] = [], readSources: Bool = true) throws
        -> ScannerOutput
    {
        let document = try ToolReportJSON.parse(data, tool: ToolName.semgrep)
        guard let results = document["results"]?.array else {
            throw SentinelError(.toolFailed, "semgrep failed: its JSON output has no 'results' array")
        }
        let sources = SourceLines(root: readSources ? root : nil)
        let prefixes = ruleIdPrefixes(configPaths: configPaths)

        var output = ScannerOutput(
            tool: ToolRun(name: ToolName.semgrep, version: document["version"]?.string, informationURI: informationURI))
        var rules: [String: RuleDescriptor] = [:]
        for (index, entry) in results.enumerated() {
            guard let parsed = finding(from: entry, root: root, prefixes: prefixes, sources: sources) else {
                output.notices.append(
                    Notice(
                        level: .warning,
                        message: "semgrep: result \(index) skipped: no check_id, path or start line",
                        tool: ToolName.semgrep))
                continue
            }
            output.findings.append(parsed.finding)
            if rules[parsed.finding.ruleId] == nil { rules[parsed.finding.ruleId] = parsed.rule }
        }
        output.rules = rules.values.sorted { $0.id < $1.id }
        output.notices += (document["errors"]?.array ?? []).map { notice(fromError: $0, root: root) }
        return output
    }

    /// The first message in a report's `errors[]`, preferring `level: error`: why a run that
    /// exited with status 2 or more failed. `nil` when `data` holds no such report.
    public static func fatalMessage(in data: Data) -> String? {
        guard let errors = (try? ToolReportJSON.parse(data, tool: ToolName.semgrep))?["errors"]?.array else { return nil }
        let fatal = errors.first { $0["level"]?.string == "error" } ?? errors.first
        return fatal?["message"]?.string.map(ToolText.flattened)
    }

    /// Semgrep's `ERROR`/`WARNING`/`INFO` (and the newer `CRITICAL`/`HIGH`/`MEDIUM`/`LOW`).
    public static func severity(_ text: String?) -> Severity {
        switch text?.uppercased() {
        case "CRITICAL": .critical
        case "ERROR", "HIGH": .high
        case "WARNING", "MEDIUM": .medium
        case "INFO", "LOW": .low
        default: .info
        }
    }

    /// `metadata.confidence` (`HIGH`/`MEDIUM`/`LOW`); `medium` when absent.
    public static func confidence(_ text: String?) -> Confidence {
        switch text?.uppercased() {
        case "HIGH": .high
        case "LOW": .low
        default: .medium
        }
    }

    /// The rule id without the config-directory prefix Semgrep adds: for `/opt/rules` (or
    /// `/opt/rules/x.yaml`), `opt.rules.python.sqli` → `python.sqli`. The longest prefix wins;
    /// ids with no known prefix are kept.
    public static func ruleId(checkId: String, configPaths: [String]) -> String {
        ruleId(checkId: checkId, prefixes: ruleIdPrefixes(configPaths: configPaths))
    }

    static func ruleId(checkId: String, prefixes: [String]) -> String {
        for prefix in prefixes where checkId.hasPrefix(prefix + ".") && checkId.count > prefix.count + 1 {
            return String(checkId.dropFirst(prefix.count + 1))
        }
        return checkId
    }

    /// Dotted forms of the config directories, longest first.
    static func ruleIdPrefixes(configPaths: [String]) -> [String] {
        let dotted = configPaths.map { path -> String in
            let standardized = (path as NSString).standardizingPath
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: standardized, isDirectory: &isDirectory)
            let lower = standardized.lowercased()
            let isFile = exists ? !isDirectory.boolValue : (lower.hasSuffix(".yaml") || lower.hasSuffix(".yml"))
            let directory = isFile ? PathText.directory(of: standardized) : standardized
            return directory.split(separator: "/").filter { $0 != "." }.joined(separator: ".")
        }
        return Set(dotted.filter { !$0.isEmpty }).sorted { $0.count > $1.count }
    }

    static func finding(from entry: DocumentNode, root: String, prefixes: [String], sources: SourceLines)
        -> (finding: Finding, rule: RuleDescriptor)?
    {
        guard let checkId = entry["check_id"]?.string, !checkId.isEmpty,
            let path = entry["path"]?.string, !path.isEmpty,
            let startLine = entry["start"]?["line"]?.int, startLine >= 1
        else { return nil }
        let file = ToolPaths.relative(path, root: root)
        let endLine = max(startLine, entry["end"]?["line"]?.int ?? startLine)
        var location = Location(file: file, startLine: startLine, endLine: endLine)
        location.startColumn = column(entry["start"]?["col"]?.int, line: startLine, file: file, sources: sources)
        location.endColumn = column(entry["end"]?["col"]?.int, line: endLine, file: file, sources: sources)

        let extra = entry["extra"]
        let metadata = extra?["metadata"]
        let id = RuleID(tool: ToolName.semgrep, checkId: ruleId(checkId: checkId, prefixes: prefixes)).rawValue
        let severity = severity(extra?["severity"]?.string)
        let cwe = ToolText.cweIds(metadata?["cwe"]?.strings ?? [])
        var references = metadata?["references"]?.strings ?? []
        if let source = metadata?["source"]?.string, !references.contains(source) { references.append(source) }
        let message = ToolText.flattened(extra?["message"]?.string ?? checkId)

        var fix: Fix?
        if let text = extra?["fix"]?.string, let start = location.startColumn, let end = location.endColumn {
            fix = Fix(
                // The whole replacement in the patch; in the summary one line, its brackets and strings closed.
                description: "Replace the match with `\(PythonSnippet.shortened(PythonSnippet.oneLine(text), limit: 72))`",
                replacements: [
                    .init(
                        startLine: startLine, startColumn: start, endLine: endLine,
                        endColumn: end, text: text)
                ])
        }
        let facts = ExternalToolFacts(checkId: checkId, category: metadata?["category"]?.string)

        let finding = Finding(
            ruleId: id, tool: ToolName.semgrep, severity: severity,
            confidence: confidence(metadata?["confidence"]?.string), message: message, location: location,
            cwe: cwe, fix: fix,
            snippet: snippet(
                extra?["lines"]?.string, file: file, lines: startLine...endLine,
                sources: sources),
            facts: FindingFacts(external: facts), references: references)
        let rule = RuleDescriptor(
            id: id, tool: ToolName.semgrep, name: String(id.split(separator: ".").last ?? Substring(id)),
            shortDescription: message, helpURI: references.first, defaultSeverity: severity, cwe: cwe,
            tags: metadata?["category"]?.strings ?? [])
        return (finding, rule)
    }

    /// Semgrep's 1-based byte column as a code-point column, when the line can be read.
    static func column(_ byteColumn: Int?, line: Int, file: String, sources: SourceLines) -> Int? {
        guard let byteColumn, byteColumn >= 1 else { return nil }
        guard let text = sources.line(line, of: file) else { return byteColumn }
        return SourceColumn.column(utf8Offset: byteColumn - 1, in: text)
    }

    /// `extra.lines` unless Semgrep withheld it (`requires login`), else the lines from disk.
    static func snippet(_ lines: String?, file: String, lines range: ClosedRange<Int>, sources: SourceLines)
        -> String?
    {
        if let lines, !lines.isEmpty, lines != "requires login" {
            return lines.hasSuffix("\n") ? String(lines.dropLast()) : lines
        }
        return sources.text(of: file, from: range.lowerBound, through: range.upperBound)
    }

    static func notice(fromError entry: DocumentNode, root: String) -> Notice {
        let level: Notice.Level =
            switch entry["level"]?.string?.lowercased() {
            case "error": .error
            case "warn", "warning": .warning
            default: .info
            }
        let file = entry["path"]?.string.map { ToolPaths.relative($0, root: root) }
        let text = ToolFailure.oneLine(ToolText.flattened(entry["message"]?.string ?? "unknown error"))
        let message = file.map { "semgrep: \($0): \(text)" } ?? "semgrep: \(text)"
        return Notice(level: level, message: message, file: file, tool: ToolName.semgrep)
    }
}
