import Findings
import Testing

@testable import SAST

/// Intraprocedural taint: propagation, sanitisers, constants, branches, helpers.
@Suite("Taint engine")
struct TaintEngineTests {
    static let rule = """
        mode: taint
        sources:
          - pattern: flask.request.$ATTR
          - pattern: input(...)
          - pattern: sys.argv
          - pattern: |
              @$APP.route(...)
              def $F(...):
                  ...
        sinks:
          - pattern: os.system($CMD)
            focus: $CMD
          - pattern: subprocess.$FUNC($CMD, ..., shell=True, ...)
            focus: $CMD
          - pattern: eval(...)
        sanitizers:
          - pattern: shlex.quote(...)
          - pattern: int(...)
          - pattern: is_safe(...)

        """
    static let prelude = "import os, sys, shlex, subprocess\nfrom flask import request\n"

    /// Cases: body (after the two prelude lines, so line 3 is the first body line) → finding lines.
    @Test(
        "flows are reported at the sink, and only real flows",
        arguments: [
            ("os.system(request.args.get('c'))\n", [3]),
            ("c = request.args['c']\nos.system(c)\n", [4]),
            ("c = request.form.get('c')\nc = 'ls'\nos.system(c)\n", []),
            ("c = request.args.get('c')\nos.system(shlex.quote(c))\n", []),
            ("c = shlex.quote(request.args.get('c'))\nos.system('ls ' + c)\n", []),
            ("os.system('ls -l')\n", []),
            ("a, b = input(), 1\nos.system(a)\nos.system(b)\n", [4]),
            ("c = 'ls '\nc += sys.argv[1]\nos.system(c)\n", [5]),
            ("if (c := input()):\n    os.system(c)\n", [4]),
            ("cmds = []\ncmds.append(input())\nos.system(' '.join(cmds))\n", [5]),
            ("d = {'k': input()}\nos.system(d['k'])\n", [4]),
            ("c = 'ls %s' % input()\nos.system(c)\n", [4]),
            ("c = 'ls {}'.format(input())\nos.system(c)\n", [4]),
            ("c = f'ls {input()}'\nos.system(c)\n", [4]),
            ("for a in sys.argv:\n    os.system(a)\n", [4]),
            ("with open(input()) as fh:\n    os.system(fh.read())\n", [4]),
            ("c = input().strip().lower()\nos.system(c)\n", [4]),
            ("n = int(input())\nos.system('kill %d' % n)\n", []),
            ("subprocess.call(input(), shell=True)\nsubprocess.call(input(), shell=False)\n", [3]),
            ("subprocess.call('ls', shell=True, env=input())\n", []),
            ("eval(input())\neval('1+1')\n", [3]),
            ("if x:\n    c = input()\nelse:\n    c = 'ls'\nos.system(c)\n", [7]),
            ("c = input()\nif x:\n    c = 'ls'\nos.system(c)\n", [6]),
            ("c = input()\nc = 'a'\nc = c + 'b'\nos.system(c)\n", []),
            ("try:\n    c = input()\nexcept E:\n    c = 'x'\nos.system(c)\n", [7]),
            ("x = input()\nwhile x:\n    y = x\nos.system(y)\n", [6]),
            ("def helper(s):\n    return 'echo ' + s\ndef view():\n    os.system(helper(request.args['x']))\n", [6]),
            ("def helper(s):\n    return 'echo'\ndef view():\n    os.system(helper(request.args['x']))\n", []),
            ("def read():\n    return request.args['x']\ndef view():\n    os.system(read())\n", [6]),
            ("def run(cmd):\n    os.system(cmd)\ndef view():\n    run(request.args['x'])\n    run('ls')\n", [4]),
            (
                "class V:\n    def clean(self, s):\n        return shlex.quote(s)\n    def get(self):\n        os.system(self.clean(request.args['x']))\n",
                []
            ),
            ("def view(req):\n    os.system(req.args['x'])\n", []),
            // A sanitizer used as a check vouches for its argument.
            ("c = input()\nif not is_safe(c):\n    c = 'ls'\nos.system(c)\n", []),
            ("c = input()\nif is_safe(c):\n    os.system(c)\n", []),
            ("c = input()\nassert is_safe(path=c)\nos.system(c)\n", []),
            ("c = input()\nif is_safe(d):\n    os.system(c)\n", [5]),
            ("eval(eval(input()))\n", [3]),
            ("c = input()\nok = is_safe(c)\nif ok:\n    os.system(c)\n", []),
            ("table = {'a': 'ls'}\nos.system(table[input()])\n", []),
            // Route parameters are sources, unless a converter makes them numbers.
            ("@app.route('/x/<name>')\ndef v(name):\n    os.system(name)\n", [5]),
            ("@app.route('/x/<int:n>')\ndef v(n):\n    os.system('kill %d' % n)\n", []),
            ("@login_required\n@app.route('/x/<a>/<b>')\ndef v(a, b):\n    os.system(b)\n", [6]),
            ("@cache\ndef helper(name):\n    os.system(name)\n", []),
            ("@app.route('/k/<pid>')\ndef v(pid: int):\n    os.system('kill %d' % pid)\n", []),
        ])
    func flows(body: String, lines: [Int]) throws {
        let found = try findingLines(rule: Self.rule, source: Self.prelude + body)
        #expect(found == lines, "code:\n\(body)")
    }

    @Test("evidence names the source, its line and the sink")
    func evidence() throws {
        let source = Self.prelude + "def view():\n    cmd = request.args.get('cmd')\n    os.system(cmd)\n"
        let findings = try engine(rule: Self.rule).scan(file: "v.py", source: source).findings
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.evidence == "request.args at line 4 flows to os.system")
        #expect(finding.location.startLine == 5 && finding.location.startColumn == 5)
        #expect(finding.enclosingScope == "view")
    }

    @Test("import aliases apply to sources and sinks")
    func aliases() throws {
        let source = "from os import system as sh\nimport flask\n\ndef v():\n    sh(flask.request.args['x'])\n"
        #expect(try findingLines(rule: Self.rule, source: source) == [5])
    }
}
