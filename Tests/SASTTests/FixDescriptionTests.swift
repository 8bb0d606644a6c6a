import Findings
import PythonSyntax
import Testing

@testable import SAST

/// What a fix says it does (heal's summaries and a finding's fix repeat it): the change itself,
/// in words and whole code, never a line cut after an opening bracket.
@Suite("Fix descriptions")
struct FixDescriptionTests {
    /// The descriptions the shipped rules' fixes give for `source`, by rule id and line.
    func descriptions(_ source: String) throws -> [String] {
        let engine = SASTEngine(rules: try RuleSet.load(directories: [RuleFilesTests.rulesDirectory]))
        return engine.scan(file: "app.py", source: source).findings.compactMap { finding in
            finding.fix.map { "\(finding.ruleId):\(finding.location.startLine ?? 0): \($0.description)" }
        }.sorted()
    }

    @Test("the shipped rules' fixes, calls laid out over several lines included")
    func shippedRules() throws {
        let source = """
            import jinja2
            import requests
            import tempfile
            import yaml


            def send(url, payload):
                resp = requests.post(
                    url,
                    json=payload,  # the order
                    verify=False,
                )
                return resp


            def load(text):
                return yaml.load(text, Loader=yaml.Loader)


            def scratch(directory):
                path = tempfile.mktemp(suffix=".tmp", dir=directory)
                return path


            env = jinja2.Environment(loader=None, autoescape=False)

            """
        #expect(
            try descriptions(source) == [
                "python.jinja2-autoescape-false:25: Pass autoescape=True instead of autoescape=False to jinja2.Environment",
                "python.requests-verify-false:8: Drop verify=False from requests.post",
                "python.requests-without-timeout:8: Pass timeout=30 to requests.post",
                "python.tempfile-mktemp:21: Replace `path = tempfile.mktemp(suffix=\".tmp\", dir=directory)` with "
                    + "`_fd, path = tempfile.mkstemp(…); os.close(_fd)` (and import os)",
                "python.yaml-load:17: Call yaml.safe_load(text) instead of yaml.load(text, Loader=yaml.Loader)",
            ])
    }

    @Test(
        "changes of a call's arguments, told as passing and dropping them",
        arguments: [
            ("f(a)", "f(a, timeout=3)", "Pass timeout=3 to f"),
            ("f(a, verify=False)", "f(a)", "Drop verify=False from f"),
            ("f(a, b, c)", "f(a, c)", "Drop b from f"),
            ("f(x, k=1)", "f(w(x), k=1)", "Pass w(x) instead of x to f"),
            (
                "run(cmd, shell=True, check=True)", "run(shlex.split(cmd), check=True)",
                "In run, pass shlex.split(cmd) instead of cmd and drop shell=True"
            ),
            ("g(a, k=1)", "h(a, k=1)", "Call h instead of g"),
            ("g(a, k=1)", "h(a)", "Call h(a) instead of g(a, k=1)"),
            ("x.verify = False", "x.verify = True", "Replace `x.verify = False` with `x.verify = True`"),
        ])
    func calls(original: String, replacement: String, expected: String) {
        #expect(FixDescription.describe(original: original, replacement: replacement, indentation: "") == expected)
    }

    @Test("a multi-line call and a multi-statement rewrite are read without the region's indentation")
    func indentedRegions() {
        #expect(
            FixDescription.describe(
                original: "requests.post(\n        url,\n        verify=False,\n    )",
                replacement: "requests.post(\n        url,\n    )", indentation: "    ")
                == "Drop verify=False from requests.post")
        #expect(
            FixDescription.describe(original: "srv = make()", replacement: "srv = build()\n    srv.start()", indentation: "    ")
                == "Replace `srv = make()` with `srv = build(); srv.start()`")
        // Code that does not parse is still shown whole, on one line.
        #expect(
            FixDescription.describe(original: "f(\n  a,\n)", replacement: "f(a b)", indentation: "")
                == "Replace `f(a)` with `f(a b)`")
    }

    @Test("shortened code keeps every bracket and quote it opens closed")
    func shortening() {
        #expect(PythonSnippet.oneLine("requests.post(\n    url,\n    json=payload,  # why\n)") == "requests.post(url, json=payload)")
        #expect(PythonSnippet.oneLine("s = '#' + t  # c") == "s = '#' + t")
        let call = "requests.post(url, json=build(payload, indent=2, sort_keys=True), verify=True)"
        #expect(PythonSnippet.shortened(call, limit: 60) == "requests.post(url, json=build(…), verify=True)")
        #expect(PythonSnippet.shortened(call, limit: 20) == "requests.post(…)")
        #expect(PythonSnippet.shortened("f(\"a very long literal string here\")", limit: 12) == "f(…)")
        #expect(PythonSnippet.shortened("x = \"a very long literal string here\"", limit: 12) == "x = \"…\"")
        #expect(PythonSnippet.shortened("alpha + beta + gamma + delta + epsilon", limit: 20) == "alpha + beta + …")
        #expect(PythonSnippet.shortened("short(a)", limit: 20) == "short(a)")
    }
}
