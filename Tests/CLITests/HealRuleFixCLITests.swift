import Foundation
import TestSupport
import Testing

/// Security fixes carried by the rules themselves (`fix:` in the rule's YAML), healed end to end as
/// a user runs it: scan to SARIF, `sentinel heal --signal SARIF --finding RULE --level observer`
/// with the project's own test command; the fix counts only when the tests pass and the rule's
/// re-scan no longer reports the finding, and the patch is exactly the rewrite.
@Suite(
    "heal CLI: rule fixes", .serialized,
    .enabled(
        if: TestHost.canSandbox && PythonHost.hasPytest && FileManager.default.isExecutableFile(atPath: "/usr/bin/node"),
        "runs pytest and node in the sandbox: needs root, user namespaces, python3-pytest and node"))
struct HealRuleFixCLITests {
    /// One fixture of Tests/Fixtures/heal, its finding's rule and the exact lines its patch changes.
    struct Case: Sendable, CustomTestStringConvertible {
        let fixture: String
        let rule: String
        let verify: String
        let removed: [String]
        let added: [String]
        var testDescription: String { fixture }
    }

    static let cases: [Case] = [
        // A token written to a debug log: the value goes, the event stays.
        Case(
            fixture: "sast-credentials-logged", rule: "python.credentials-logged", verify: "python3 -m pytest -q",
            removed: ["    log.debug(\"issued access token %s for %s\", access_token, user)"],
            added: ["    log.debug(\"issued access token %s for %s\", \"[REDACTED]\", user)"]),
        // A cookie without Secure on a response the project's helper makes with flask.make_response.
        Case(
            fixture: "sast-cookie-secure", rule: "python.taint-insecure-cookie", verify: "python3 -m pytest -q",
            removed: ["    response.set_cookie(\"session_id\", session_for(user), httponly=True, samesite=\"Lax\")"],
            added: ["    response.set_cookie(\"session_id\", session_for(user), httponly=True, samesite=\"Lax\", secure=True)"]),
        // Express's cookie-session without secure, under the name the project gave its import.
        Case(
            fixture: "../heal-js/sast-js-cookie-session", rule: "javascript.session-cookie-not-secure", verify: "node --test",
            removed: [], added: ["    secure: true,"]),
        // The fix classes shipped before: yaml.safe_load, TLS verification on, autoescape on.
        Case(
            fixture: "sast-yaml-load", rule: "python.yaml-load", verify: "python3 -m pytest -q",
            removed: ["    data = yaml.load(text, Loader=yaml.Loader) or {}"], added: ["    data = yaml.safe_load(text) or {}"]),
        Case(
            fixture: "sast-requests-verify-false", rule: "python.requests-verify-false", verify: "python3 -m pytest -q",
            removed: ["    response = requests.get(url, timeout=5, verify=False)"], added: ["    response = requests.get(url, timeout=5)"]),
        Case(
            fixture: "sast-jinja2-autoescape", rule: "python.jinja2-autoescape-false", verify: "python3 -m pytest -q",
            removed: ["env = jinja2.Environment(loader=jinja2.DictLoader(TEMPLATES), autoescape=False)"],
            added: ["env = jinja2.Environment(loader=jinja2.DictLoader(TEMPLATES), autoescape=True)"]),
    ]

    @Test("the rule's fix heals the finding: tests green, re-scan clean, the patch exact", arguments: cases)
    func healed(_ c: Case) throws {
        let scratch = try HealCLITests.Scratch(fixture: c.fixture)
        let report = scratch.root + "/report.sarif"
        let scan = try CLI.run(["scan", scratch.repo, "--format", "sarif", "--output", report], environment: scratch.environment)
        #expect(FileManager.default.fileExists(atPath: report), "\(scan.stderr)")
        let before = try scratch.tree()
        let result = try CLI.run(
            [
                "heal", "--signal", report, "--finding", c.rule, "--repo", scratch.repo, "--verify", c.verify,
                "--out", scratch.out, "--level", "observer",
            ],
            environment: scratch.environment, timeout: 600)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("re-scan (native): 1 → 0 findings of the rule"), "\(result.stdout)")
        let patch = try String(contentsOfFile: scratch.out + "/patch.diff", encoding: .utf8)
        let changed = patch.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter {
            ($0.hasPrefix("-") && !$0.hasPrefix("---")) || ($0.hasPrefix("+") && !$0.hasPrefix("+++"))
        }
        #expect(changed == c.removed.map { "-" + $0 } + c.added.map { "+" + $0 }, "\(patch)")
        // An observer reports: the repository is left byte for byte as it was.
        #expect(try scratch.tree() == before)
    }
}
