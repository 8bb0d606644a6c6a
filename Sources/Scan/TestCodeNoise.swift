import Findings

/// Rules whose findings in test code are noise by design: pytest checks with `assert`, so
/// `assert-used` there says nothing about the shipped program. They are kept outside tests,
/// even when the default ignores are off and tests are scanned.
public enum TestCodeNoise {
    /// Native ids and the adapter ids of the same checks.
    public static let ruleIds: Set<String> = ["python.assert-used", "bandit.B101"]

    /// `findings` without those rules' findings in test files.
    public static func filter(_ findings: [Finding]) -> [Finding] {
        findings.filter { finding in
            guard ruleIds.contains(finding.ruleId), let file = finding.location.file else { return true }
            return !DefaultIgnores.isTestPath(file)
        }
    }
}
