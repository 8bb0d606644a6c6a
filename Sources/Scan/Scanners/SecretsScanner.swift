import Findings
import Foundation
import ScanCore
import Secrets

/// The secrets detector over every selected text file.
public struct SecretsScanner: ScanCore.Scanner {
    /// Selected by `--tools secrets`; findings carry it as their tool.
    public let name = ToolName.secrets
    /// Secrets detection, selected by `--secrets`.
    public let kind = ScannerKind.secrets
    private let detector = SecretsDetector()

    /// Makes the secrets scanner; it has no options.
    public init() {}

    /// The most findings of one rule one file adds to a report: a generated file repeating one
    /// key 100,000 times says no more than its first thousand, and every later step (de-duplication,
    /// suppressions, rendering) works per finding. The rest are counted in a notice.
    public static let maxFindingsPerRule = 1_000

    /// Whether any file is selected; every text file may hold a secret.
    public func applies(to target: ScanTarget) -> Bool { !target.files.isEmpty || !target.defaultIgnoredFiles.isEmpty }

    /// Looks for credentials in the target's files and in those the default ignores leave out of
    /// code analysis (tests, vendored and build output): an AWS key in `conftest.py` is live.
    /// Private keys and password assignments there are fixtures by convention, so they are
    /// reported at low severity and confidence (shown with `--min-confidence low`, counted
    /// otherwise), never dropped; an issued credential keeps its severity. Found values are
    /// redacted.
    public func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        var findings: [Finding] = []
        var notices: [Notice] = []
        var unread: [SkippedFile] = []
        let files = target.files + target.defaultIgnoredFiles
        for (index, file) in files.enumerated() {
            if index % 64 == 0 { context.progress(.file(tool: name, index: index, total: files.count, path: file)) }
            guard let data = try? target.read(file) else {
                unread.append(SkippedFile(file: file, reason: "cannot read"))
                continue
            }
            var found = detector.scan(file: file, bytes: Array(data))
            if index >= target.files.count { found = found.map(SecretsDetector.leftOutByDefaultIgnores) }
            let (kept, capped) = Self.capped(found)
            findings += kept
            notices += capped.map { rule, count in
                Notice(
                    message: "\(count) \(rule) findings in one file: the first \(Self.maxFindingsPerRule) are reported",
                    file: file, tool: name)
            }
        }
        var output = ScannerOutput(
            findings: findings, rules: SecretsDetector.descriptors,
            tool: ToolRun(name: name, version: nil, status: .succeeded), notices: notices)
        output.skippedFiles = unread
        return output
    }

    /// One file's findings with at most `maxFindingsPerRule` of each rule (the first, in file
    /// order), and how many each capped rule had, by rule id.
    static func capped(_ findings: [Finding]) -> (kept: [Finding], capped: [(rule: String, count: Int)]) {
        var counts: [String: Int] = [:]
        var kept: [Finding] = []
        var order: [String] = []
        for finding in findings {
            let count = counts[finding.ruleId, default: 0] + 1
            counts[finding.ruleId] = count
            if count == 1 { order.append(finding.ruleId) }
            if count <= maxFindingsPerRule { kept.append(finding) }
        }
        return (kept, order.compactMap { rule in counts[rule].flatMap { $0 > maxFindingsPerRule ? (rule, $0) : nil } })
    }
}
