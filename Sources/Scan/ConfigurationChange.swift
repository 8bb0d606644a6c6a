import Findings
import Foundation
import Support

/// What a pull request changes in the scan's own configuration: the scanned directory's
/// `.sentinel.yml` (edited, added or deleted) and the files of the rule directories and Semgrep
/// configs the configuration in force names inside the tree. Each is a `sentinel.config-changed`
/// finding (`ChangeReview`): the change takes effect only once merged, and the reviewer sees it now.
enum ConfigurationChange {
    /// The findings for the change since `base`, of `severity`. `config` is the configuration in
    /// force (the base revision's or the operator's, `operatorConfig` naming the latter).
    static func findings(
        base: BaseRevision, directory: String, config: ScanConfig, operatorConfig: String?, severity: Severity
    ) -> [Finding] {
        let inForce = operatorConfig.map { "the operator's --config \($0)" } ?? "\(base.revision)'s"
        var findings: [Finding] = []
        let name = ScanConfig.fileName
        let head = headConfiguration(in: directory)
        if head != base.configuration {
            let verb = base.configuration == nil ? "adds" : head == nil ? "deletes" : "changes"
            findings.append(
                ChangeReview.configChanged(
                    file: name, line: head == nil ? nil : firstChangedLine(of: name, in: base.changedLines),
                    severity: severity,
                    message:
                        "This change \(verb) \(name): a pull request's scan uses \(inForce) configuration, never its own; "
                        + "review what the change does to the gate, severities, models, excludes and scanners before merging"))
        }
        // A baseline inside the tree accepts findings: the change's edits to it are shown too.
        if let baseline = base.baselineFile, base.changedLines.lines[baseline] != nil {
            findings.append(
                ChangeReview.configChanged(
                    file: baseline, line: firstChangedLine(of: baseline, in: base.changedLines), severity: severity,
                    message:
                        "This change edits \(baseline), the scan's --baseline: a pull request's scan reads \(base.revision)'s; "
                        + "review which findings the change accepts before merging"))
        }
        // Rule files the configuration names inside the tree are configuration too.
        let roots = (config.ruleDirectories + config.semgrepConfigs).compactMap { relative($0, to: directory) }
        for file in base.changedLines.lines.keys.sorted() where file != name && file != base.baselineFile {
            guard let root = roots.first(where: { file == $0 || PathText.lies(file, under: $0) }) else { continue }
            findings.append(
                ChangeReview.configChanged(
                    file: file, line: firstChangedLine(of: file, in: base.changedLines), severity: severity,
                    message:
                        "This change edits \(file), a rule file of the configuration in force (\(root)): a pull request's "
                        + "scan reads it as changed; review what the change does to the rules before merging"))
        }
        return findings
    }

    /// The tree's own `.sentinel.yml`, through the tree's reader; nil when there is none. A file
    /// that cannot be read (a link, a FIFO) differs from any base.
    private static func headConfiguration(in directory: String) -> Data? {
        guard let tree = try? TreeReader(path: directory), tree.exists(ScanConfig.fileName) else { return nil }
        return (try? tree.read(ScanConfig.fileName, limit: ScanConfig.maxSize)) ?? Data("unreadable".utf8)
    }

    /// The first line the change writes in `file`, 1 when it writes none (a deletion inside it).
    private static func firstChangedLine(of file: String, in changed: ChangedLines) -> Int {
        changed.lines[file]?.min() ?? 1
    }

    /// `path` relative to `directory`, nil when it lies outside (an operator's rules elsewhere).
    private static func relative(_ path: String, to directory: String) -> String? {
        if path == directory { return "" }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
    }
}
