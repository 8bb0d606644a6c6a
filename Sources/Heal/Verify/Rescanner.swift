import Findings
import Foundation
import Scan
import ScanCore
import Signals
import Store

/// Re-runs the scanner that raised a finding (`native`, `osv`, `bandit`, `semgrep`, `secrets`)
/// over a tree, as `sentinel scan --tools TOOL` would, and counts what it reports in the files
/// that matter: the signal's rule in its file, and every finding in the changed files.
public struct Rescanner: Sendable {
    /// The tool to re-run.
    public var tool: ToolName
    /// The OSV database (`osv` re-scans); nil for the state directory's.
    public var databasePath: String?

    /// A re-scanner for `tool`; `databasePath` defaults to the state directory's OSV index.
    public init(tool: ToolName, databasePath: String? = nil) {
        self.tool = tool
        self.databasePath = databasePath
    }

    /// The scanner that re-runs `signal`, or nil when it is not a finding Sentinel can re-run.
    /// `tool` overrides the choice.
    public static func forSignal(_ signal: Signal, tool: ToolName? = nil) -> Rescanner? {
        switch signal.kind {
        case .vulnerableDependency: return Rescanner(tool: ToolName.osv)
        case .finding:
            let name = tool ?? rerunTool(for: signal)
            return ScannerRegistry.toolNames.contains(name) ? Rescanner(tool: name) : nil
        default: return nil
        }
    }

    /// The scanner that re-runs a finding: Bandit for a finding Bandit raised, the native engine
    /// for every other (it also reports what the other tools' checks map to). A signal whose
    /// report does not name the scanner (another tool's SARIF) goes by its rule id: Bandit for
    /// Bandit's checks (`bandit.B602`).
    static func rerunTool(for signal: Signal) -> ToolName {
        let raisedBy = signal.tool ?? RuleID(signal.ruleId ?? "").tool
        return raisedBy == ToolName.bandit ? ToolName.bandit : ToolName.native
    }

    /// The findings of one scan of `root`.
    public func findings(in root: String) throws -> [Finding] {
        var context = try ScanContext(databasePath: databasePath ?? StateDirectory.current.osvDatabase)
        // Before and after are judged by the same data, whatever its age (the scan gated on it).
        context.allowStaleDatabase = true
        let runner = ScanRunner(scanners: ScannerRegistry.standard(config: ScanConfig()))
        let outcome = try runner.run(ScanRequest(root: root, tools: [tool]), context: context)
        return outcome.report.findings
    }

    /// Compares the scans of the baseline tree and a candidate tree.
    public static func compare(
        tool: ToolName, signal: Signal, changed: [String], before: [Finding], after: [Finding]
    ) -> Rescan {
        let file = signal.locations.first?.file ?? ""
        let files = Set(changed + [file])
        func ruleCount(_ findings: [Finding]) -> Int {
            findings.filter { $0.ruleId == signal.ruleId && ($0.location.file ?? "") == file }.count
        }
        func fileCount(_ findings: [Finding]) -> Int {
            findings.filter { files.contains($0.location.file ?? "") }.count
        }
        func byRule(_ findings: [Finding]) -> [String: Int] {
            findings.filter { files.contains($0.location.file ?? "") && $0.severity >= (signal.severity ?? .info) }
                .reduce(into: [:]) { $0[$1.ruleId, default: 0] += 1 }
        }
        let old = byRule(before)
        let introduced = byRule(after).filter { $0.value > old[$0.key, default: 0] }.map(\.key).sorted()
        let open = after.filter { files.contains($0.location.file ?? "") }.map { finding in
            guard let package = finding.facts.dependency.package, let version = finding.facts.dependency.installedVersion else {
                return finding.ruleId
            }
            return "\(package) \(version): \(finding.ruleId)"
        }
        return Rescan(
            tool: tool, ruleFindingsBefore: ruleCount(before), ruleFindingsAfter: ruleCount(after),
            findingsBefore: fileCount(before), findingsAfter: fileCount(after), introduced: introduced,
            openAfter: open.sorted())
    }
}
