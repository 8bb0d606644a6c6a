import Findings
import Secrets

/// Where a code rule's finding is decides how sure it is (issue 55): code the product does not
/// run (tests, examples, documentation) and SQL a schema migration builds for itself are
/// reported at low confidence, shown with `--min-confidence low`, their severity kept.
public enum FindingPlacement {
    /// The code rules' findings placed by the file they are in. A credential (a hard-coded
    /// password or key: CWE-798, 259, 321) is placed as the secrets scan places its own: in a
    /// test, CI, example or documentation file, low severity (issue 55: an example service's
    /// demo token is not the product's). Any other finding in a test, example or documentation
    /// file is about code the product does not run (a test's settings, an example service): low
    /// confidence, its severity kept, so `--min-confidence low` shows it and the default report
    /// and gate do not; CI files run, and keep theirs. The secrets scan's and the engine's own
    /// findings pass through unchanged.
    public static func placed(_ findings: [Finding]) -> [Finding] {
        // Once per file, not per finding: a file may hold hundreds.
        var kinds: [String: SecretFileKind] = [:]
        return findings.map { finding in
            guard !finding.ruleId.hasPrefix(secretsRulePrefix), !finding.ruleId.hasPrefix(engineRulePrefix),
                let file = finding.location.file
            else { return finding }
            let kind = kinds[file] ?? SecretFileKind.of(file)
            kinds[file] = kind
            if !Set(finding.cwe).isDisjoint(with: [798, 259, 321]) { return SecretsDetector.placed(finding, kind: kind) }
            guard finding.confidence > .low else { return finding }
            if finding.cwe.contains(89), finding.codeFlow.isEmpty, SecretFileKind.isMigration(file) {
                // A schema migration runs once, at deploy time, on the values it holds: SQL it
                // builds is not reachable by a client unless a flow says so.
                return lowered(finding, "in a database migration: it runs at deploy time on its own values")
            }
            // CI definitions and scripts run, with the repository's secrets, on what a pull
            // request brings: their findings keep their confidence.
            guard let place = kind.place, !SecretFileKind.isContinuousIntegration(file) else { return finding }
            return lowered(finding, "\(place): not code the product runs")
        }
    }

    /// `finding` at low confidence, its message saying why.
    private static func lowered(_ finding: Finding, _ reason: String) -> Finding {
        var copy = finding
        copy.confidence = .low
        copy.message += " (\(reason), so low confidence)"
        return copy
    }

    /// The prefix of the secrets scan's rule ids.
    static let secretsRulePrefix = "secrets."
    /// The prefix of the engine's own findings (hidden source text, a parser bound hit): what
    /// they report runs wherever the file runs, tests included.
    static let engineRulePrefix = "sentinel."
}
