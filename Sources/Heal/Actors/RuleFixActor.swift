import Findings
import Foundation
import Git
import SAST
import Signals
import Support

/// Applies the `fix:` template of the native rule that raised a finding: the file is scanned
/// again as it is in the repository, the finding is found by its fingerprint (else the nearest
/// one of the same rule), and its fix's replacements are applied — only the matched region (and
/// an import the fix needs) changes. The loop's re-scan must then no longer report it.
public struct RuleFixActor: HealActor {
    /// Rule fixes.
    public let kind = ActorKind.ruleFix
    /// Where the rules are (default: the shipped rules).
    public var ruleDirectories: [String]

    /// An actor using the rules in `ruleDirectories` (default: `$SENTINEL_RULES`, else the shipped ones).
    public init(ruleDirectories: [String]? = nil) {
        self.ruleDirectories = ruleDirectories ?? RuleLocations.standard()
    }

    /// Findings of native code and template rules (`python.…`, `javascript.…`, `template.…`).
    public func applies(to signal: Signal) -> Bool {
        guard signal.kind == .finding, let rule = signal.ruleId else { return false }
        return rule.hasPrefix("python.") || rule.hasPrefix("javascript.") || rule.hasPrefix("template.")
    }

    /// The finding's own fix, once.
    public func propose(_ context: ActorContext, round: Int) throws -> [Proposal] {
        guard round == 1, let ruleId = context.signal.ruleId, let location = context.signal.locations.first else { return [] }
        guard let source = context.workspace.read(location.file) else {
            throw HealActorError("\(location.file): not in the repository (or not a text file)")
        }
        let rules = try RuleSet.load(directories: ruleDirectories)
        let findings: [Finding]
        if let rule = rules.templateRules.first(where: { $0.id == ruleId }) {
            // A template rule reads the template as the scan did (every rule applies: the scan
            // that reported the finding judged the project already).
            findings = TemplateEngine(rules: [rule]).scan(file: location.file, bytes: Array(source.utf8), project: nil).findings
        } else {
            // The file's other rules too: a flow takes the fix of the audit finding it supersedes
            // on its line (``TaintFindings``), which only a scan with that audit's rule makes.
            let languages = rules.rules.first { $0.id == ruleId }?.languages
            let engine = SASTEngine(rules: try RuleSet(rules: rules.rules.filter { $0.languages == languages }))
            findings = engine.scan(file: location.file, source: source).findings.filter { $0.ruleId == ruleId }
        }
        guard !findings.isEmpty else {
            throw HealActorError("\(location.file): \(ruleId) no longer reports anything here")
        }
        let line = location.line ?? 1
        let finding =
            findings.first { $0.fingerprint == context.signal.findingFingerprint }
            ?? findings.min { abs(($0.location.startLine ?? 0) - line) < abs(($1.location.startLine ?? 0) - line) }!
        guard let fix = finding.fix, !fix.replacements.isEmpty else {
            throw HealActorError("\(ruleId) has no safe rewrite for \(location.file):\(finding.location.startLine ?? line)")
        }
        let fixed = try fix.apply(to: source)
        return [
            Proposal(
                actor: kind, changes: [FileChange(path: location.file, before: source, after: fixed)],
                description: "\(location.file):\(finding.location.startLine ?? line): \(fix.description)",
                strategy: "fix-template:\(ruleId)")
        ]
    }
}
