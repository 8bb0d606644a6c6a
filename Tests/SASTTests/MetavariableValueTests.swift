import Testing

@testable import SAST

/// `metavariable-value`: a receiver is resolved through assignments, annotations, `self.attr` and
/// local functions before a rule fires; and `pattern-not`/`pattern-inside`/`pattern-not-inside`
/// take a whole formula.
@Suite("metavariable-value and formula operands")
struct MetavariableValueTests {
    static let flaskRule = """
        patterns:
          - pattern: $APP.run(debug=True)
          - metavariable-value:
              metavariable: $APP
              pattern: flask.Flask(...)

        """

    /// Each case is a vulnerable one and its twin differing only in what the receiver holds.
    @Test(
        "the receiver's value decides",
        arguments: [
            // A module-level assignment, used at module level and in a function.
            ("from flask import Flask\napp = Flask(__name__)\napp.run(debug=True)\n", [3]),
            ("import unittest\napp = unittest.TestSuite()\napp.run(debug=True)\n", []),
            ("import flask\napp = flask.Flask('x')\ndef main():\n    app.run(debug=True)\n", [4]),
            // The receiver itself, and a name assigned from a name.
            ("import flask\nflask.Flask('x').run(debug=True)\n", [2]),
            ("import flask\na = flask.Flask('x')\nb = a\nb.run(debug=True)\n", [4]),
            ("import flask\na = object()\nb = a\nb.run(debug=True)\n", []),
            // A local binding shadows the module's: an unannotated parameter is unknown.
            ("import flask\napp = flask.Flask('x')\ndef main(app):\n    app.run(debug=True)\n", []),
            ("import flask\napp = flask.Flask('x')\ndef main(app=app):\n    app.run(debug=True)\n", [4]),
            (
                "import flask\napp = flask.Flask('x')\ndef main():\n    global app\n    app = make()\n    app.run(debug=True)\n",
                [6]
            ),
            // Annotations: plain, Optional, `| None`, annotated assignment without a value.
            ("import flask\ndef main(app: flask.Flask):\n    app.run(debug=True)\n", [3]),
            ("import flask\ndef main(app: flask.Blueprint):\n    app.run(debug=True)\n", []),
            ("import flask\nfrom typing import Optional\ndef main(app: Optional[flask.Flask]):\n    app.run(debug=True)\n", [4]),
            ("import flask\ndef main(app: flask.Flask | None):\n    app.run(debug=True)\n", [3]),
            ("import flask\napp: flask.Flask\napp.run(debug=True)\n", [3]),
            // with ... as, and :=.
            ("import flask\nwith flask.Flask('x') as app:\n    app.run(debug=True)\n", [3]),
            ("import flask\nif (app := flask.Flask('x')):\n    app.run(debug=True)\n", [3]),
            // self.attr in any method of the class; another class's attribute of the same name is not it.
            (
                "import flask\nclass S:\n    def __init__(self):\n        self.app = flask.Flask('x')\n    def go(self):\n        self.app.run(debug=True)\n",
                [6]
            ),
            (
                "import flask\nclass A:\n    def __init__(self):\n        self.app = flask.Flask('x')\nclass B:\n    def go(self):\n        self.app.run(debug=True)\n",
                []
            ),
            // Local factories: what they return, or their return annotation; self.method() too.
            ("import flask\ndef make():\n    app = flask.Flask('x')\n    return app\nmake().run(debug=True)\n", [5]),
            ("import flask\ndef make() -> flask.Flask:\n    return build()\nw = make()\nw.run(debug=True)\n", [5]),
            ("import flask\ndef make():\n    return object()\nmake().run(debug=True)\n", []),
            (
                "import flask\nclass S:\n    def _app(self) -> flask.Flask:\n        return load()\n    def go(self):\n        self._app().run(debug=True)\n",
                [6]
            ),
        ])
    func receiver(source: String, lines: [Int]) throws {
        #expect(try findingLines(rule: Self.flaskRule, source: source) == lines, "\(source)")
    }

    @Test("values are followed a bounded number of steps, and cycles end")
    func boundedSteps() throws {
        let chain = "import flask\na = flask.Flask('x')\nb = a\nc = b\nd = c\ne = d\nf = e\nf.run(debug=True)\n"
        // a..f is five steps from f back to the call: past the bound of four.
        #expect(try findingLines(rule: Self.flaskRule, source: chain) == [])
        let cycle = "a = b\nb = a\na.run(debug=True)\n"
        #expect(try findingLines(rule: Self.flaskRule, source: cycle) == [])
    }

    @Test("a metavariable-value formula may hold patterns with its own metavariable-value")
    func nested() throws {
        let rule = """
            patterns:
              - pattern: $CHAN.exec_command($CMD)
              - metavariable-value:
                  metavariable: $CHAN
                  patterns:
                    - pattern: $T.open_session()
                    - metavariable-value:
                        metavariable: $T
                        pattern: paramiko.Transport(...)

            """
        let source = """
            import paramiko
            t = paramiko.Transport(sock)
            chan = t.open_session()
            chan.exec_command(cmd)
            other = elsewhere.open_session()
            other.exec_command(cmd)

            """
        #expect(try findingLines(rule: rule, source: source) == [4])
    }

    @Test("identifier bindings and unbound metavariables have no value")
    func identifiers() throws {
        let rule = """
            patterns:
              - pattern: flask.$F(...)
              - metavariable-value:
                  metavariable: $F
                  pattern: Flask

            """
        #expect(try findingLines(rule: rule, source: "import flask\nflask.Flask('x')\n") == [])
    }

    @Test("pattern-not, pattern-inside and pattern-not-inside take a formula")
    func formulaOperands() throws {
        let rule = """
            patterns:
              - pattern: $T.extractall($DEST)
              - pattern-not-inside:
                  patterns:
                    - pattern: |
                        for $M in $T.getmembers():
                            $...BODY
                        ...
                    - metavariable-regex:
                        metavariable: $...BODY
                        regex: (?s).*\\bif\\b.*\\.name
              - pattern-not:
                  pattern-either:
                    - pattern: safe.extractall($DEST)
                    - pattern: trusted.extractall($DEST)

            """
        let source = """
            def checked(tar, dest):
                for m in tar.getmembers():
                    if ".." in m.name:
                        raise ValueError(m.name)
                tar.extractall(dest)
            def unchecked(tar, dest):
                for m in tar.getmembers():
                    print(m.size)
                tar.extractall(dest)
            def other_archive(tar, other, dest):
                for m in other.getmembers():
                    if ".." in m.name:
                        raise ValueError(m.name)
                tar.extractall(dest)
            safe.extractall(dest)

            """
        #expect(try findingLines(rule: rule, source: source) == [9, 14])
    }

    @Test(
        "bad metavariable-value clauses are rejected",
        arguments: [
            (
                "patterns:\n  - pattern: f($X)\n  - metavariable-value:\n      metavariable: $X\n",
                "r.yaml:7: 'patterns[1].metavariable-value' needs 'metavariable' and one of pattern, pattern-either, patterns"
            ),
            (
                "patterns:\n  - pattern: f($X)\n  - metavariable-value:\n      metavariable: X\n      pattern: g()\n",
                "r.yaml:7: 'patterns[1].metavariable-value.metavariable' must be a metavariable, not 'X'"
            ),
            (
                "patterns:\n  - pattern: f($X)\n  - metavariable-value:\n      metavariable: $X\n      regex: g\n",
                "r.yaml:8: unknown key 'patterns[1].metavariable-value.regex'"
            ),
            (
                "patterns:\n  - pattern: f($X)\n  - pattern-not-inside:\n      pattern-nto: g()\n",
                "r.yaml:7: unknown key 'patterns[1].pattern-not-inside.pattern-nto'"
            ),
        ])
    func rejects(body: String, expected: String) {
        do {
            _ = try RuleLoader.parse("id: python.x\nmessage: m\nseverity: high\n" + body, file: "r.yaml")
            Issue.record("accepted: \(body)")
        } catch {
            #expect("\(error)".contains(expected), "got: \(error)")
        }
    }
}
