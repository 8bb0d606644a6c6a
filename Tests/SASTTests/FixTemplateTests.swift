import Findings
import Testing

@testable import SAST

/// What the engine offers `fix:` templates: named runs of arguments, regex groups, template lists,
/// comma handling, the file's own layout, indentation of added lines and `fix-imports`.
@Suite("Fix templates")
struct FixTemplateTests {
    /// The text `rule` makes of the one finding in `source`, applied to the whole file.
    func fixed(_ rule: String, _ source: String) throws -> String? {
        let findings = try engine(rule: rule).scan(file: "t.py", source: source).findings
        try #require(findings.count == 1, "\(findings.count) findings in: \(source)")
        return try findings[0].fix.map { try $0.apply(to: source) }
    }

    @Test(
        "a named run binds the arguments at its place, keywords included, in source order",
        arguments: [
            ("f($...A, k=1, $...B)", "f(x, k=1, j=2)\nf(k=1)\nf(x, j=2)\nf(k=1, *r)\n", [1, 2, 4]),
            ("f($...ARGS)", "f(a, b=1, **c)\nf()\n", [1, 2]),
            ("f($X, $...REST)", "f(a, b=1)\nf(b=1)\nf()\n", [1]),
            ("f($...A, k=$V)", "f(k=1)\nf(k=1, j=2)\nf(j=2, k=1)\n", [1, 3]),
        ])
    func namedRuns(pattern: String, source: String, lines: [Int]) throws {
        #expect(try findingLines(rule: patternRule(pattern), source: source) == lines, "pattern: \(pattern)")
    }

    @Test(
        "fix-holes wraps each value a string built from a literal interpolates, and only such a string",
        arguments: [
            ("out(f\"<p>{a} and {b.c}</p>\")\n", "out(f\"<p>{e(a)} and {e(b.c)}</p>\")\n"),
            ("out(\"<p>\" + a + \"</p>\" + b)\n", "out(\"<p>\" + e(a) + \"</p>\" + e(b))\n"),
            ("out(\"<p>%s %s</p>\" % (a, \"x\"))\n", "out(\"<p>%s %s</p>\" % (e(a), \"x\"))\n"),
            ("out(\"<p>%s</p>\" % a)\n", "out(\"<p>%s</p>\" % e(a))\n"),
            ("out(\"<p>{}</p>\".format(a, k=b))\n", "out(\"<p>{}</p>\".format(e(a), k=e(b)))\n"),
            ("out((\"<p>%s</p>\" % a, 404))\n", "out((\"<p>%s</p>\" % e(a), 404))\n"),
            // Unknown holes: a conversion or a format spec, a mapping, *args, a string not built from a literal.
            ("out(f\"<p>{a!r}</p>\")\n", nil),
            ("out(f\"<p>{a:>10}</p>\")\n", nil),
            ("out(\"<p>%(a)s</p>\" % {\"a\": a})\n", nil),
            ("out(\"<p>{}</p>\".format(*a))\n", nil),
            ("out(a + \"<p>\")\n", nil),
            ("out(text)\n", nil),
            ("out(\"<p>\")\n", nil),
        ])
    func fixHoles(source: String, expected: String?) throws {
        let rule = "pattern: out($X)\nfix: out($X)\nfix-holes: {$X: e($HOLE)}\n"
        #expect(try fixed(rule, source) == expected, "\(source)")
    }

    @Test("fix-imports counts the module a fix-holes wrapper names")
    func fixHolesImports() throws {
        let rule = "pattern: out($X)\nfix: out($X)\nfix-holes: {$X: html.escape(str($HOLE))}\nfix-imports: [html]\n"
        #expect(try fixed(rule, "out(f\"<p>{a}</p>\")\n") == "import html\nout(f\"<p>{html.escape(str(a))}</p>\")\n")
        #expect(try fixed(rule, "import html\nout(f\"<p>{a}</p>\")\n") == "import html\nout(f\"<p>{html.escape(str(a))}</p>\")\n")
    }

    @Test("empty runs take a neighbouring comma with them")
    func emptyRuns() throws {
        let drop = "pattern: f($...A, k=1, $...B)\nfix: f($...A, $...B)\n"
        #expect(try fixed(drop, "f(k=1)\n") == "f()\n")
        #expect(try fixed(drop, "f(a, k=1)\n") == "f(a)\n")
        #expect(try fixed(drop, "f(k=1, b=2)\n") == "f(b=2)\n")
        #expect(try fixed(drop, "f(a, k=1, b=2)\n") == "f(a, b=2)\n")
        let add = "pattern: g($...ARGS)\nfix: g($...ARGS, timeout=3)\n"
        #expect(try fixed(add, "g()\n") == "g(timeout=3)\n")
        #expect(try fixed(add, "g(1)\n") == "g(1, timeout=3)\n")
        let wrap = "pattern: h($X, $...A, s=True, $...B)\nfix: h(w($X), $...A, $...B)\n"
        #expect(try fixed(wrap, "h(c, s=True)\n") == "h(w(c))\n")
        #expect(try fixed(wrap, "h(c, 1, s=True, t=2)\n") == "h(w(c), 1, t=2)\n")
    }

    @Test("a metavariable-regex group binds a metavariable; Python's (?P<NAME> spelling works; an idle group binds nothing")
    func regexGroups() throws {
        let rule = """
            patterns:
              - pattern: yaml.$F($X)
              - metavariable-regex:
                  metavariable: $F
                  regex: ^(unsafe_)?load(?P<ALL>(_all)?)$
            fix: yaml.safe_load$ALL($X)

            """
        #expect(try fixed(rule, "yaml.unsafe_load_all(s)\n") == "yaml.safe_load_all(s)\n")
        #expect(try fixed(rule, "yaml.load(s)\n") == "yaml.safe_load(s)\n")
        let optional = rule.replacingOccurrences(of: "(?P<ALL>(_all)?)", with: "(?<ALL>_all)?")
        #expect(try fixed(optional, "yaml.load(s)\n") == "yaml.safe_load(s)\n")
        let regex = try MetavariableRegex(source: "^(?P<HEAD>[a-z]+)_(?<TAIL>[a-z]+)(?<lower>x)?$")
        #expect(regex.captureNames == ["HEAD", "TAIL"])
        #expect(regex.captures("safe_load") == ["$HEAD": "safe", "$TAIL": "load"])
        #expect(regex.captures("Safe") == nil)
    }

    @Test("of several templates the first whose metavariables are all bound is used")
    func templateList() throws {
        let rule = """
            pattern-either:
              - pattern: $S.verify = False
              - pattern: $CALL($...A, verify=False, $...B)
            fix:
              - $CALL($...A, $...B)
              - $S.verify = True

            """
        #expect(try fixed(rule, "s.verify = False\n") == "s.verify = True\n")
        #expect(try fixed(rule, "get(u, verify=False)\n") == "get(u)\n")
        // An alternative that binds neither template's metavariables gets no fix.
        #expect(try fixed("pattern-either:\n  - pattern: f($X)\n  - pattern: g($Y)\nfix: h($Y)\n", "f(1)\n") == nil)
    }

    @Test(
        "the fix keeps the file's layout where the template agrees with it",
        arguments: [
            // Line breaks and comments inside the brackets.
            ("f(\n    a,  # first\n    k=1,\n    b=2,\n)\n", "f(\n    a,  # first\n    b=2,\n)\n"),
            ("f(  # call\n    k=1, b=2)\n", "f(  # call\n    b=2)\n"),
            // A comment on a dropped argument's line goes with it.
            ("f(a,\n  k=1,  # off\n  b=2)\n", "f(a,\n  b=2)\n"),
            // Continuation lines and odd spacing stay.
            ("x = f(a ,  k=1)\n", "x = f(a)\n"),
            ("x = f( a, \\\n  k=1 )\n", "x = f( a )\n"),
        ])
    func layout(source: String, expected: String) throws {
        let result = try fixed("pattern: f($...A, k=1, $...B)\nfix: f($...A, $...B)\n", source)
        #expect(result == expected)
    }

    @Test("inserted words are never glued to the file's; line breaks outside brackets follow the template")
    func wordsAndStatements() throws {
        #expect(try fixed("pattern: f($X)\nfix: f(not$X)\n", "f(x)\n") == "f(not x)\n")
        let split = """
            pattern: $X = make()
            fix: |-
              $X = build()
              $X.start()

            """
        #expect(
            try fixed(split, "def f():\n    if c:\n        srv = make()  # note\n    return srv\n")
                == "def f():\n    if c:\n        srv = build()\n        srv.start()  # note\n    return srv\n")
        // No place for a second line: no fix.
        #expect(try fixed(split, "if c: srv = make()\n") == nil)
        #expect(try fixed(split, "a = 1; srv = make()\n") == nil)
    }

    @Test("fix-imports adds only the modules the chosen template names, once, where the file lacks them")
    func fixImports() throws {
        let rule = """
            pattern: run($X)
            fix:
              - run(shlex.quote(os.fspath($X)))
            fix-imports: [os, shlex, json]

            """
        let result = try fixed(rule, "import os\nrun(p)\n")
        #expect(result == "import os\nimport shlex\nrun(shlex.quote(os.fspath(p)))\n")
        #expect(try fixed(rule, "run(p)\n") == "import os\nimport shlex\nrun(shlex.quote(os.fspath(p)))\n")
        // `import os.path` binds os; `import shlex as s` binds s.
        #expect(
            try fixed(rule, "import os.path\nimport shlex as s\nrun(p)\n")
                == "import os.path\nimport shlex as s\nimport shlex\nrun(shlex.quote(os.fspath(p)))\n")
        let findings = try engine(rule: rule).scan(file: "t.py", source: "x = 1\nrun(p)\n").findings
        let fix = try #require(findings.first?.fix)
        #expect(fix.replacements.count == 2)
        #expect(
            fix.replacements[1]
                == Fix.Replacement(startLine: 1, startColumn: 1, endLine: 1, endColumn: 1, text: "import os\nimport shlex\n"))
        #expect(fix.description == "Pass shlex.quote(os.fspath(p)) instead of p to run (and import os, shlex)")
    }

    @Test("glue tokens: strings hold no comments, backslashes continue lines, comments do not")
    func glueTokens() {
        let tokens = GlueTokens(", f'#{x}' # c\n  )")
        #expect(tokens.tokens.map(\.text) == [",", "f'#{x}'", ")"])
        #expect(tokens.tokens.map(\.layout) == ["", " ", " # c\n  "])
        #expect(GlueTokens(" rb\"\"\"a\n\"\"\" x").tokens.map(\.text) == ["rb\"\"\"a\n\"\"\"", "x"])
        #expect(GlueTokens.breaksLine(" \\\n  ") == false)
        #expect(GlueTokens.breaksLine(" \\\r\n") == false)
        #expect(GlueTokens.breaksLine(" # a \\\n") == true)
        #expect(GlueTokens.breaksLine("\r") == true)
    }
}
