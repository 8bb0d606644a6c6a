import Findings
import Foundation
import Scan
import ScanCore
import Testing

/// `frameworks` and `project-not-regex` on Python rules: decided over the whole project, so a
/// protection set up in one file (a rate limiter) rules out a finding in another.
@Suite struct ProjectScopeScanTests {
    static let rule = """
        id: python.t-scoped
        message: a form handler without a limiter
        severity: low
        languages: [python]
        frameworks: [flask]
        project-not-regex: '(?m)^\\s*(?:from|import)\\s+flask_limiter\\b'
        pattern: handle_form(...)

        """

    static func scan(_ files: [String: String]) throws -> [String] {
        try NativeRuleScan.findings(files, rule: rule, named: "t-scoped").map {
            "\($0.location.file ?? ""):\($0.location.startLine ?? 0)"
        }
    }

    @Test func aScopedPythonRuleFiresOnlyInTheProjectsItNames() throws {
        let view = "def view():\n    return handle_form()\n"
        let found = try Self.scan(["app/views.py": "import flask\n" + view])
        #expect(found == ["views.py:3"])
        #expect(try Self.scan(["app/views.py": "import django\n" + view]).isEmpty, "not a Flask project")
        let limited = ["app/views.py": "import flask\n" + view, "app/limits.py": "from flask_limiter import Limiter\n"]
        #expect(try Self.scan(limited).isEmpty, "a limiter set up in another file rules the rule out")
        let commented = ["app/views.py": "import flask\n" + view, "app/limits.py": "# from flask_limiter import Limiter\n"]
        #expect(try Self.scan(commented) == ["views.py:3"], "a commented-out import protects nothing")
    }
}
