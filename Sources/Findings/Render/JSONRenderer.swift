import Foundation

/// The JSON format of DESIGN §4: `{"findings": [...], "summary": {...}}`, keys sorted and
/// pretty-printed so that two runs over the same tree diff cleanly. Findings use `Finding`'s
/// `Codable` form (with `codeFlow` when the finding has a data flow), so the output decodes back
/// into `[Finding]`.
public struct JSONRenderer: ReportRenderer {
    /// The `summary` object.
    public struct Summary: Sendable, Codable, Hashable {
        /// Total findings reported (after suppressions, baseline and de-duplication).
        public var total: Int
        /// Counts for every severity name, zeros included.
        public var bySeverity: [String: Int]
        /// Counts per tool name that reported findings.
        public var byTool: [String: Int]
        /// How many files the scan read.
        public var filesScanned: Int
        /// Wall time of the whole scan, in seconds.
        public var durationSeconds: Double
        /// Findings hidden by in-source suppressions.
        public var suppressed: Int
        /// Findings hidden because the baseline lists them.
        public var baselined: Int
        /// Every tool that took part, with how it went.
        public var tools: [ToolRun]
        /// Things to tell the user that are not findings.
        public var notices: [Notice]
        /// Findings hidden by `--severity`.
        public var belowSeverity: Int?
        /// Findings hidden by `--min-confidence` (0 when it hid none).
        public var belowMinConfidence: Int?
        /// The `--min-confidence` the findings were filtered with; absent when none was applied.
        public var minConfidence: Confidence?
        /// Files the default ignores left out of code analysis.
        public var excludedByDefault: Int?
        /// Those files by kind, with the patterns that matched them; absent when there are none.
        public var defaultExclusions: [DefaultExclusion]?
        /// Files the scan did not read, with the reason.
        public var skippedFiles: [SkippedFile]
    }

    /// The whole document.
    public struct Document: Sendable, Codable, Hashable {
        /// The findings reported, in `Finding`'s `Codable` form.
        public var findings: [Finding]
        /// Counts, tools and notices for the scan.
        public var summary: Summary
    }

    /// Makes a JSON renderer; it has no options.
    public init() {}

    /// The document `render` prints, for callers that want the values.
    public func document(_ report: Report) -> Document {
        let findings = report.findings.sortedForReport()
        let bySeverity = findings.countsBySeverity()
        let summary = Summary(
            total: findings.count,
            bySeverity: Dictionary(uniqueKeysWithValues: bySeverity.map { ($0.key.rawValue, $0.value) }),
            byTool: Dictionary(uniqueKeysWithValues: findings.countsByTool().map { ($0.key.rawValue, $0.value) }),
            filesScanned: report.filesScanned,
            durationSeconds: report.durationSeconds.isFinite ? (report.durationSeconds * 1000).rounded() / 1000 : 0,
            suppressed: report.suppressedCount,
            baselined: report.baselinedCount,
            tools: report.tools.sorted { $0.name < $1.name },
            notices: report.notices, belowSeverity: report.belowSeverityCount,
            belowMinConfidence: report.belowConfidenceCount, minConfidence: report.minimumConfidence,
            excludedByDefault: report.excludedByDefault,
            defaultExclusions: report.defaultExclusions.isEmpty ? nil : report.defaultExclusions,
            skippedFiles: report.skippedFiles)
        return Document(findings: findings, summary: summary)
    }

    /// The report as pretty-printed JSON with sorted keys.
    public func render(_ report: Report) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Non-finite numbers are the only thing JSONEncoder rejects here; spell them rather than fail.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do {
            let data = try encoder.encode(document(report))
            return String(decoding: data, as: UTF8.self) + "\n"
        } catch {
            return JSONValue.object(["error": .string("cannot encode report: \(error)")]).rendered()
        }
    }
}
