import SAST
import Documents
import Findings
import Foundation
import ScanCore
import Secrets
import SourcePositions
import Support

/// Bandit's JSON report (`bandit -f json`) read into findings, rule descriptors and notices.
/// Runs no process; it reads the scanned files only for what Bandit's `code` excerpt lacks (the
/// first lines of a multi-line statement) and to turn byte offsets into code-point columns.
public enum BanditReport {
    /// Bandit's home page (SARIF `informationUri`).
    public static let informationURI = "https://bandit.readthedocs.io/"

    /// Parses one report.
    /// - Parameters:
    ///   - data: what `bandit -f json` printed.
    ///   - root: the scan root on the host; Bandit's paths (relative to `/workspace`) become
    ///     relative to it.
    ///   - readSources: whether to read the scanned files under `root` (else only Bandit's
    ///     `code` excerpt is used).
    /// - Throws: `SentinelError(.toolFailed, "bandit failed: ...")` when `data` is not a
    ///   complete Bandit report (empty, truncated, not JSON, no `results` array).
    public static func parse(data: Data, root: String, readSources: Bool = true) throws -> ScannerOutput {
        let document = try ToolReportJSON.parse(data, tool: ToolName.bandit)
        guard let results = document["results"]?.array else {
            throw SentinelError(.toolFailed, "bandit failed: its JSON output has no 'results' array")
        }

        let sources = SourceLines(root: readSources ? root : nil)
        var output = ScannerOutput(tool: ToolRun(name: ToolName.bandit, informationURI: informationURI))
        var rules: [String: RuleDescriptor] = [:]
        for (index, entry) in results.enumerated() {
            switch finding(from: entry, root: root, sources: sources) {
            case .success(let finding):
                output.findings.append(finding)
                if rules[finding.ruleId] == nil { rules[finding.ruleId] = descriptor(for: finding) }
            case .failure(let problem):
                output.notices.append(
                    Notice(
                        level: .warning, message: "bandit: result \(index) skipped: \(problem.description)",
                        tool: ToolName.bandit))
            }
        }
        output.rules = rules.values.sorted { $0.id < $1.id }
        output.notices += (document["errors"]?.array ?? []).map { notice(fromError: $0, root: root) }
        if let nosec = nosecCount(document), nosec > 0 {
            output.notices.append(
                Notice(level: .info, message: "bandit: \(nosec) issue(s) hidden by # nosec comments", tool: ToolName.bandit))
        }
        return output
    }

    /// Why one result could not be read.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// One result. Bandit's `line_number` is where it points (for a call spanning lines, often the
    /// `shell=True` line); `line_range` is the whole statement, and `col_offset`/`end_col_offset`
    /// are UTF-8 byte offsets on its first and last lines. The location spans the statement.
    static func finding(from entry: DocumentNode, root: String, sources: SourceLines) -> Result<Finding, Problem> {
        guard let testId = entry["test_id"]?.string, !testId.isEmpty else {
            return .failure(Problem(description: "no test_id"))
        }
        guard let filename = entry["filename"]?.string, !filename.isEmpty else {
            return .failure(Problem(description: "\(testId) has no filename"))
        }
        guard let line = entry["line_number"]?.int, line >= 1 else {
            return .failure(Problem(description: "\(testId) in \(filename) has no line_number"))
        }
        let lineRange = (entry["line_range"]?.array ?? []).compactMap(\.int).filter { $0 >= 1 }
        let firstLine = min(line, lineRange.min() ?? line)
        let lastLine = max(line, lineRange.max() ?? line)
        let file = ToolPaths.relative(filename, root: root)
        let code = BanditCode(entry["code"]?.string ?? "")
        let snippet =
            sources.text(of: file, from: firstLine, through: lastLine)
            ?? code.lines(from: firstLine, through: lastLine)

        var location = Location(file: file, startLine: firstLine, endLine: lastLine)
        if let offset = entry["col_offset"]?.int, offset >= 0 {
            location.startColumn = column(utf8Offset: offset, line: firstLine, file: file, code: code, sources: sources)
        }
        if let offset = entry["end_col_offset"]?.int, offset >= 0 {
            location.endColumn = column(utf8Offset: offset, line: lastLine, file: file, code: code, sources: sources)
        }

        let testName = entry["test_name"]?.string ?? ""
        let facts = ExternalToolFacts(testId: testId, testName: testName.isEmpty ? nil : testName, reportedLine: line)
        let cwe = entry["issue_cwe"]?["id"]?.int ?? 0
        let moreInfo = entry["more_info"]?.string ?? ""
        return .success(
            Finding(
                ruleId: RuleID(tool: ToolName.bandit, checkId: testId).rawValue, tool: ToolName.bandit,
                severity: severity(entry["issue_severity"]?.string),
                confidence: confidence(entry["issue_confidence"]?.string),
                message: redactingPasswords(testId, ToolText.flattened(entry["issue_text"]?.string ?? "Bandit \(testId) \(testName)")),
                location: location, cwe: cwe > 0 ? [cwe] : [], snippet: snippet, facts: FindingFacts(external: facts),
                references: moreInfo.isEmpty ? [] : [moreInfo]))
    }

    /// Bandit's `LOW`/`MEDIUM`/`HIGH`; `UNDEFINED` and unknown words are `info`.
    public static func severity(_ text: String?) -> Severity {
        switch text?.uppercased() {
        case "LOW": .low
        case "MEDIUM": .medium
        case "HIGH": .high
        default: .info
        }
    }

    /// Bandit's `LOW`/`MEDIUM`/`HIGH`; `UNDEFINED` and unknown words are `low`.
    public static func confidence(_ text: String?) -> Confidence {
        switch text?.uppercased() {
        case "MEDIUM": .medium
        case "HIGH": .high
        default: .low
        }
    }

    /// The code-point column of a byte offset, from the file on disk or Bandit's excerpt.
    static func column(utf8Offset offset: Int, line: Int, file: String, code: BanditCode, sources: SourceLines) -> Int {
        if let text = sources.line(line, of: file) { return SourceColumn.column(utf8Offset: offset, in: text) }
        return code.column(utf8Offset: offset, line: line)
    }

    static func descriptor(for finding: Finding) -> RuleDescriptor {
        let testId = finding.facts.external.testId ?? finding.ruleId
        let testName = finding.facts.external.testName
        // Bandit names every blacklist check "blacklist"; the id tells them apart.
        let name = testName.map { $0 == "blacklist" ? "blacklist \(testId)" : $0 }
        return RuleDescriptor(
            id: finding.ruleId, tool: ToolName.bandit, name: name, shortDescription: finding.message,
            helpURI: finding.references.first, defaultSeverity: finding.severity, cwe: finding.cwe,
            tags: ["bandit"])
    }

    static func notice(fromError entry: DocumentNode, root: String) -> Notice {
        let file = entry["filename"]?.string.map { ToolPaths.relative($0, root: root) }
        let reason = ToolFailure.oneLine(entry["reason"]?.string ?? "unknown error")
        let message = file.map { "bandit could not scan \($0): \(reason)" } ?? "bandit: \(reason)"
        return Notice(level: .warning, message: message, file: file, tool: ToolName.bandit)
    }

    /// Issues hidden by `# nosec` (Bandit's `_totals.nosec` + `_totals.skipped_tests`).
    static func nosecCount(_ document: DocumentNode) -> Int? {
        guard let totals = document["metrics"]?["_totals"] else { return nil }
        return (totals["nosec"]?.int ?? 0) + (totals["skipped_tests"]?.int ?? 0)
    }
}

/// Bandit's hard-coded password checks (B105–B107) quote the password in their message;
/// secrets never reach any Sentinel output, so the quoted value is redacted.
func redactingPasswords(_ testId: String, _ message: String) -> String {
    guard ["B105", "B106", "B107"].contains(testId), let open = message.firstIndex(of: "'"),
        let close = message.lastIndex(of: "'"), open < close
    else { return message }
    let secret = String(message[message.index(after: open)..<close])
    return message[..<open] + "'" + Redaction.redact(secret) + "'" + message[message.index(after: close)...]
}
