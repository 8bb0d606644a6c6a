import Findings
import Testing
@testable import SAST

/// Where a code rule's finding is decides how sure it is (``FindingPlacement``, issue 55).
@Suite struct FindingPlacementTests {
    /// Issue 55: a code rule's hard-coded credential is placed as the secrets scan places its own:
    /// in an example, test or documentation file, low severity; in code that runs, as it was.
    @Test func codeRulesCredentialsArePlacedByTheirFile() {
        func finding(_ file: String, cwe: [Int]) -> Finding {
            Finding(
                ruleId: "python.hardcoded-password-string", severity: .medium, confidence: .medium, message: "m",
                location: Location(file: file, startLine: 1), cwe: cwe)
        }
        let placed = FindingPlacement.placed([
            finding("examples/service/config.py", cwe: [798]), finding("app/config.py", cwe: [798]),
            finding("docs/conf.py", cwe: [321]), finding("examples/service/views.py", cwe: [89]),
        ])
        #expect(placed.map(\.severity) == [.low, .medium, .low, .medium])
        #expect(placed.map(\.confidence) == [.low, .medium, .low, .low])
        #expect(placed[0].message.hasSuffix("(in a test, CI or example file: likely a fixture or an example, so low severity)"))
        #expect(placed[3].message.hasSuffix("(in a test, CI or example file: not code the product runs, so low confidence)"))
    }

    /// Issue 55: SQL a schema migration builds is low confidence (it runs at deploy time on its
    /// own values); a flow into it, and SQL built elsewhere, keep theirs.
    @Test(arguments: [
        ("alembic/versions/2024_add_teams.py", true), ("app/migrations/versions/4f2a9c1d0b7e_.py", true),
        ("shop/migrations/0004_data.py", true), ("app/versions/v2.py", false), ("app/db.py", false),
    ])
    func sqlInMigrationsIsLowConfidence(file: String, migration: Bool) {
        let built = Finding(
            ruleId: "python.sql-fstring", severity: .high, confidence: .medium, message: "m",
            location: Location(file: file, startLine: 1), cwe: [89])
        var flow = built
        flow.codeFlow = [FlowStep(location: Location(file: file, startLine: 1), message: "source")]
        let placed = FindingPlacement.placed([built, flow])
        #expect(placed.map(\.confidence) == [migration ? .low : .medium, .medium])
    }

    /// Issue 55: any other code finding in a test's settings, a smoke test's configuration or an
    /// example service keeps its severity at low confidence; the product's code, and the secrets
    /// scan's own findings (placed where they are found), are left as they are.
    @Test(arguments: [
        ("app/settings_testing.py", true), ("scripts/smoketest_settings.py", true),
        ("app/test-settings.py", true), ("examples/hello/app.py", true), ("app/latest_views.py", false),
        ("app/contest.py", false), ("app/settings.py", false), (".github/scripts/release.py", false), ("ci/deploy.py", false),
    ])
    func codeFindingsOutsideTheProductAreLowConfidence(file: String, outside: Bool) {
        let code = Finding(
            ruleId: "python.django-allowed-hosts-wildcard", severity: .medium, confidence: .high, message: "m",
            location: Location(file: file, startLine: 1), cwe: [16])
        let secret = Finding(
            ruleId: "secrets.aws-access-key", severity: .critical, confidence: .high, message: "m",
            location: Location(file: file, startLine: 1), cwe: [798])
        let placed = FindingPlacement.placed([code, secret])
        #expect(placed.map(\.confidence) == [outside ? .low : .high, .high])
        #expect(placed.map(\.severity) == [.medium, .critical])
    }
}
