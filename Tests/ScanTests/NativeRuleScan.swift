import Findings
import Foundation
import Scan
import ScanCore

/// A project of `files` (paths under a fresh directory; the code under `app/`) scanned by the
/// native engine with one rule of the test's, `rule` written at `rules/python/NAME.yaml`, and no
/// built-in rules: the findings of that scan. The directory is removed afterwards.
enum NativeRuleScan {
    static func findings(_ files: [String: String], rule: String, named name: String) throws -> [Finding] {
        let root = NSTemporaryDirectory() + "sentinel-rule-scan-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (path, text) in files.merging(["rules/python/\(name).yaml": rule], uniquingKeysWith: { a, _ in a }) {
            let full = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        let outcome = try ScanRunner(scanners: [NativeSASTScanner(builtInDirectories: [])]).run(
            ScanRequest(root: root + "/app"), context: ScanContext(ruleDirectories: [root + "/rules"]))
        return outcome.report.findings
    }

    /// `file:line:confidence` of each finding of ``findings(_:rule:named:)``: where a test rule
    /// reports, and how sure the project's facts make it there.
    static func placements(_ files: [String: String], rule: String, named name: String) throws -> [String] {
        try findings(files, rule: rule, named: name).map {
            "\($0.location.file ?? ""):\($0.location.startLine ?? 0):\($0.confidence.rawValue)"
        }
    }
}
