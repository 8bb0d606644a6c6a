import Findings
import Testing

@testable import SAST

/// Each dataflow feature as a pair: a vulnerable case and a safe twin that differs only in the
/// feature. The vulnerable one must be reported (at the sink line), the twin not.
@Suite("Dataflow twins")
struct DataflowTests {
    static let rule = """
        mode: taint
        sources:
          - pattern: flask.request.$ATTR
          - pattern: input(...)
            kind: local
        sinks:
          - pattern: os.system($CMD)
            focus: $CMD
          - pattern: open($PATH, ...)
            focus: $PATH
        sanitizers:
          - pattern: shlex.quote(...)

        """
    static let prelude = "import os, re, shlex, html, functools\nfrom flask import request, abort\nALLOWED = ['ls', 'pwd']\nBASE = '/srv'\n"

    /// (feature, vulnerable body, safe twin body); bodies are the inside of `def view():`.
    static let twins: [(String, String, String)] = [
        ("overwrite with a constant", "c = request.args['c']\nos.system(c)", "c = request.args['c']\nc = 'ls'\nos.system(c)"),
        (
            "constant branch", "c = 'ls'\nif True:\n    c = request.args['c']\nos.system(c)",
            "c = 'ls'\nif False:\n    c = request.args['c']\nos.system(c)"
        ),
        ("constant ternary", "c = request.args['c'] if 1 else 'ls'\nos.system(c)", "c = request.args['c'] if 0 else 'ls'\nos.system(c)"),
        (
            "folded condition", "c = 'ls'\nif 2 > 1:\n    c = request.args['c']\nos.system(c)",
            "c = 'ls'\nif 1 > 2:\n    c = request.args['c']\nos.system(c)"
        ),
        (
            "while False", "c = 'ls'\nwhile c:\n    c = request.args['c']\n    break\nos.system(c)",
            "c = 'ls'\nwhile False:\n    c = request.args['c']\nos.system(c)"
        ),
        ("list index", "a = ['ls', request.args['c']]\nos.system(a[1])", "a = ['ls', request.args['c']]\nos.system(a[0])"),
        ("negative index", "a = ['ls', request.args['c']]\nos.system(a[-1])", "a = ['ls', request.args['c']]\nos.system(a[-2])"),
        ("dict key", "d = {}\nd['k'] = request.args['c']\nos.system(d['k'])", "d = {}\nd['k'] = request.args['c']\nos.system(d['other'])"),
        (
            "dict get", "d = {'k': request.args['c'], 'o': 'ls'}\nos.system(d.get('k'))",
            "d = {'k': request.args['c'], 'o': 'ls'}\nos.system(d.get('o'))"
        ),
        (
            "dict pop", "d = {'k': request.args['c'], 'o': 'ls'}\nos.system(d.pop('k'))",
            "d = {'k': request.args['c'], 'o': 'ls'}\nos.system(d.pop('o'))"
        ),
        ("list pop", "a = ['ls', request.args['c']]\nos.system(a.pop())", "a = ['ls', request.args['c']]\nos.system(a.pop(0))"),
        ("append", "a = ['ls']\na.append(request.args['c'])\nos.system(a[1])", "a = ['ls']\na.append(request.args['c'])\nos.system(a[0])"),
        (
            "insert", "a = ['ls']\na.insert(0, request.args['c'])\nos.system(a[0])",
            "a = ['ls']\na.insert(0, request.args['c'])\nos.system(a[1])"
        ),
        (
            "extend", "a = ['ls']\na.extend([request.args['c']])\nos.system(a[1])",
            "a = ['ls']\na.extend([request.args['c']])\nos.system(a[0])"
        ),
        (
            "remove forgets positions", "a = ['ls', request.args['c']]\na.remove('x')\nos.system(a[0])",
            "a = ['ls', 'pwd']\na.remove('x')\nos.system(a[0])"
        ),
        ("slice", "a = ['ls', request.args['c']]\nos.system(a[1:][0])", "a = ['ls', request.args['c']]\nos.system(a[:1][0])"),
        (
            "reversed", "a = [request.args['c'], 'ls']\nos.system(list(reversed(a))[1])",
            "a = [request.args['c'], 'ls']\nos.system(list(reversed(a))[0])"
        ),
        ("unpacking", "a, b = ['ls', request.args['c']]\nos.system(b)", "a, b = ['ls', request.args['c']]\nos.system(a)"),
        (
            "starred unpacking", "first, *rest = ['ls', request.args['c']]\nos.system(rest[0])",
            "first, *rest = ['ls', request.args['c']]\nos.system(first)"
        ),
        ("split keeps taint", "c = request.args['c'].split(',')[0]\nos.system(c)", "c = str(request.args['c'].count(','))\nos.system(c)"),
        ("replace keeps taint", "os.system(request.args['c'].replace('a', 'b'))", "os.system('ls'.replace('a', 'b'))"),
        ("strip keeps taint", "os.system(request.args['c'].strip())", "os.system(str(request.args['c'].strip().isdigit()))"),
        ("join", "os.system(' '.join(['ls', request.args['c']]))", "os.system(' '.join(['ls', shlex.quote(request.args['c'])]))"),
        ("format", "os.system('ls {}'.format(request.args['c']))", "os.system('ls {}'.format(len(request.args['c'])))"),
        ("f-string", "c = request.args['c']\nos.system(f'ls {c}')", "c = 'x'\nos.system(f'ls {c}')"),
        ("percent", "os.system('ls %s' % request.args['c'])", "os.system('ls %d' % int(request.args['c']))"),
        (
            "sanitizer per sink class", "os.system('ls ' + html.escape(request.args['c']))",
            "os.system('ls ' + shlex.quote(request.args['c']))"
        ),
        (
            "allow-list", "c = request.args['c']\nif c in ALLOWED:\n    pass\nos.system(c)",
            "c = request.args['c']\nif c in ALLOWED:\n    os.system(c)"
        ),
        (
            "not in, then return", "c = request.args['c']\nif c not in ALLOWED:\n    print(c)\nos.system(c)",
            "c = request.args['c']\nif c not in ALLOWED:\n    return\nos.system(c)"
        ),
        (
            "abort dominates", "c = request.args['c']\nif not c.isalnum():\n    print('bad')\nos.system(c)",
            "c = request.args['c']\nif not c.isalnum():\n    abort(400)\nos.system(c)"
        ),
        (
            "raise dominates", "c = request.args['c']\nif c != 'ls':\n    print('bad')\nos.system(c)",
            "c = request.args['c']\nif c != 'ls':\n    raise ValueError(c)\nos.system(c)"
        ),
        (
            "regex full match", "c = request.args['c']\nif re.fullmatch(r'.+', c):\n    os.system(c)",
            "c = request.args['c']\nif re.fullmatch(r'[a-z0-9]+', c):\n    os.system(c)"
        ),
        (
            "condition kept in a variable", "c = request.args['c']\nok = c in ALLOWED\nif not ok:\n    print(c)\nos.system(c)",
            "c = request.args['c']\nok = c in ALLOWED\nif not ok:\n    return\nos.system(c)"
        ),
        ("coercion", "os.system('kill ' + request.args['p'])", "os.system('kill ' + str(int(request.args['p'])))"),
        (
            "a false `and`: what every operand's failure proves",
            "c = request.args['c']\nif (c or True) and len(c) > 2:\n    c = 'ls'\nos.system(c)",
            "c = request.args['c']\nif (c or True) and c not in ALLOWED:\n    c = 'ls'\nos.system(c)"
        ),
        (
            "a false value holds no text", "c = request.args['c']\nif not c.isalnum():\n    os.system(c)",
            "c = request.args['c']\nif not c:\n    os.system(c)"
        ),
    ]

    static let pathTwins: [(String, String, String)] = [
        (
            "path prefix needs a normalised path",
            "p = os.path.join(BASE, request.args['f'])\nif not p.startswith(BASE):\n    abort(403)\nopen(p)",
            "p = os.path.realpath(os.path.join(BASE, request.args['f']))\nif not p.startswith(BASE):\n    abort(403)\nopen(p)"
        ),
        (
            "commonpath", "p = os.path.realpath(os.path.join(BASE, request.args['f']))\nopen(p)",
            "p = os.path.realpath(os.path.join(BASE, request.args['f']))\nif os.path.commonpath([BASE, p]) != BASE:\n    abort(403)\nopen(p)"
        ),
        (
            "prefix check cleans only for path rules", "p = os.path.realpath(request.args['f'])\nif p.startswith(BASE):\n    os.system(p)",
            "p = os.path.realpath(request.args['f'])\nif p.startswith(BASE):\n    open(p)"
        ),
    ]

    @Test("path guards confine a normalised path, for the path rule only", arguments: pathTwins)
    func pathTwin(feature: String, vulnerable: String, safe: String) throws {
        func body(_ code: String) -> String {
            Self.prelude + "def view():\n" + code.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n"
        }
        let yaml = "id: test.path\nmessage: path\nseverity: high\nlanguages: [python]\ncwe: [22]\n" + Self.rule
        let path = SASTEngine(rules: try RuleSet(rules: [try RuleLoader.parse(yaml, file: "p.yaml")]))
        let shell = try engine(rule: Self.rule)
        // The path rule judges `open`; the shell rule (not a path rule) judges `os.system`.
        func lines(_ code: String) -> [Int] {
            (path.scan(file: "p.py", source: body(code)).findings + shell.scan(file: "p.py", source: body(code)).findings)
                .filter { $0.ruleId == "test.path" ? $0.snippet?.contains("open(") == true : $0.snippet?.contains("os.system") == true }
                .compactMap(\.location.startLine)
        }
        #expect(lines(vulnerable).count == 1, "\(feature): vulnerable case")
        #expect(lines(safe).isEmpty, "\(feature): safe twin")
    }

    @Test("the vulnerable case is reported, the safe twin is not", arguments: twins)
    func twin(feature: String, vulnerable: String, safe: String) throws {
        func body(_ code: String) -> String {
            Self.prelude + "def view():\n" + code.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n"
        }
        let bad = try findingLines(rule: Self.rule, source: body(vulnerable))
        let good = try findingLines(rule: Self.rule, source: body(safe))
        #expect(bad.count == 1, "\(feature): vulnerable case not reported once: \(bad)")
        #expect(good.isEmpty, "\(feature): safe twin reported at \(good)")
    }

    /// (feature, vulnerable module, safe twin): helpers, methods, classes.
    static let calls: [(String, String, String)] = [
        (
            "helper returns its parameter", "def h(s):\n    return s\ndef view():\n    os.system(h(request.args['c']))\n",
            "def h(s):\n    return shlex.quote(s)\ndef view():\n    os.system(h(request.args['c']))\n"
        ),
        (
            "helper reaches the sink", "def run(c):\n    os.system(c)\ndef view():\n    run(request.args['c'])\n",
            "def run(c):\n    os.system(c)\ndef view():\n    run('ls')\n"
        ),
        (
            "recursion",
            "def h(s, n):\n    if n == 0:\n        return s\n    return h(s, n - 1)\ndef view():\n    os.system(h(request.args['c'], 3))\n",
            "def h(s, n):\n    if n == 0:\n        return 'ls'\n    return h(s, n - 1)\ndef view():\n    os.system(h(request.args['c'], 3))\n"
        ),
        (
            "decorated helper", "@functools.lru_cache\ndef h(s):\n    return s\ndef view():\n    os.system(h(request.args['c']))\n",
            "@functools.lru_cache\ndef h(s):\n    return 'ls'\ndef view():\n    os.system(h(request.args['c']))\n"
        ),
        (
            "self field across methods",
            "class C:\n    def load(self):\n        self.cmd = request.args['c']\n    def run(self):\n        os.system(self.cmd)\n",
            "class C:\n    def load(self):\n        self.cmd = 'ls'\n    def run(self):\n        os.system(self.cmd)\n"
        ),
        (
            "constructor field",
            "class C:\n    def __init__(self, cmd):\n        self.cmd = cmd\n    def run(self):\n        os.system(self.cmd)\ndef view():\n    C(request.args['c']).run()\n",
            "class C:\n    def __init__(self, cmd):\n        self.cmd = cmd\n    def run(self):\n        os.system(self.cmd)\ndef view():\n    C('ls').run()\n"
        ),
        (
            "object in a variable",
            "class C:\n    def __init__(self, cmd):\n        self.cmd = cmd\n    def run(self):\n        os.system(self.cmd)\ndef view():\n    job = C(request.args['c'])\n    job.run()\n",
            "class C:\n    def __init__(self, cmd):\n        self.cmd = 'ls'\n    def run(self):\n        os.system(self.cmd)\ndef view():\n    job = C(request.args['c'])\n    job.run()\n"
        ),
        (
            "staticmethod",
            "class U:\n    @staticmethod\n    def run(c):\n        os.system(c)\ndef view():\n    U.run(request.args['c'])\n",
            "class U:\n    @staticmethod\n    def run(c):\n        os.system(c)\ndef view():\n    U.run('ls')\n"
        ),
        (
            "classmethod",
            "class U:\n    @classmethod\n    def run(cls, c):\n        os.system(c)\ndef view():\n    U.run(request.args['c'])\n",
            "class U:\n    @classmethod\n    def run(cls, c):\n        os.system(shlex.quote(c))\ndef view():\n    U.run(request.args['c'])\n"
        ),
        (
            "inherited constructor reaches the sink",
            "class Base:\n    def __init__(self, cmd):\n        os.system(cmd)\nclass Job(Base):\n    pass\ndef view():\n    Job(request.args['c'])\n",
            "class Base:\n    def __init__(self, cmd):\n        os.system(shlex.quote(cmd))\nclass Job(Base):\n    pass\ndef view():\n    Job(request.args['c'])\n"
        ),
        (
            "a module flag also set in the try of an optional import is no constant",
            "FLAG = False\ntry:\n    import fastlib\n    FLAG = True\nexcept ImportError:\n    pass\ndef view():\n    if FLAG:\n        os.system(request.args['c'])\n",
            "FLAG = False\ndef view():\n    if FLAG:\n        os.system(request.args['c'])\n"
        ),
        (
            "a module flag a loop rebinds is no constant",
            "MODE = 'off'\nfor MODE in ['off', 'on']:\n    pass\ndef view():\n    if MODE == 'on':\n        os.system(request.args['c'])\n",
            "MODE = 'off'\nfor other in ['off', 'on']:\n    pass\ndef view():\n    if MODE == 'on':\n        os.system(request.args['c'])\n"
        ),
        (
            "class constant allow-list",
            "class V:\n    ALLOWED = ['ls']\n    def get(self):\n        c = request.args['c']\n        if c in self.OTHER:\n            os.system(c)\n",
            "class V:\n    ALLOWED = ['ls']\n    def get(self):\n        c = request.args['c']\n        if c in self.ALLOWED:\n            os.system(c)\n"
        ),
    ]

    @Test("flows through functions, methods and objects", arguments: calls)
    func interprocedural(feature: String, vulnerable: String, safe: String) throws {
        #expect(try findingLines(rule: Self.rule, source: Self.prelude + vulnerable).count == 1, "\(feature): vulnerable case")
        #expect(try findingLines(rule: Self.rule, source: Self.prelude + safe).isEmpty, "\(feature): safe twin")
    }

    @Test("a remote source gives the rule's severity and high confidence; a local one medium and low")
    func remoteAndLocal() throws {
        let engine = try engine(rule: Self.rule)
        let remote = try #require(engine.scan(file: "a.py", source: Self.prelude + "os.system(request.args['c'])\n").findings.first)
        #expect(remote.severity == .high && remote.confidence == .high && remote.facts.properties["source"] == "remote")
        let local = try #require(engine.scan(file: "a.py", source: Self.prelude + "os.system(input())\n").findings.first)
        #expect(local.severity == .medium && local.confidence == .low && local.facts.properties["source"] == "local")
    }

    @Test("the code flow runs from the source through the assignments and helpers to the sink")
    func codeFlow() throws {
        let source =
            Self.prelude + "def h(s):\n    t = 'ls ' + s\n    return t\ndef view():\n    c = request.args['c']\n    os.system(h(c))\n"
        let finding = try #require(try engine(rule: Self.rule).scan(file: "a.py", source: source).findings.first)
        #expect(finding.codeFlow.map(\.message) == ["source: request.args", "c = ...", "calls h()", "t = ...", "sink: os.system"])
        #expect(finding.codeFlow.compactMap(\.location.startLine) == [9, 9, 10, 6, 10])
    }

    /// A view that runs a command through one helper and quotes it through another, in a package.
    static let helperProject = [
        "app/views.py":
            "import os\nfrom flask import request\nfrom helpers.utils import run, clean\n\ndef view():\n    run(request.args['c'])\n    os.system(clean(request.args['d']))\n",
        "app/helpers/utils.py":
            "import os, shlex\n\ndef run(cmd):\n    os.system('echo ' + cmd)\n\ndef clean(value):\n    return shlex.quote(value)\n",
        "app/helpers/__init__.py": "",
    ]

    @Test("a flow across modules of a project is followed through the import")
    func crossFile() throws {
        let files = Self.helperProject
        let engine = try engine(rule: Self.rule)
        let names = files.keys.sorted()
        let results = engine.scanProject(files: names, read: { files[$0] })
        let views = try #require(results[names.firstIndex(of: "app/views.py")!])
        #expect(views.findings.compactMap(\.location.startLine) == [6])
        let flow = try #require(views.findings.first?.codeFlow)
        #expect(flow.last?.location.file == "app/helpers/utils.py" && flow.last?.location.startLine == 4)
    }

    @Test("a method inherited from a class of another module is followed through self")
    func inheritedAcrossFiles() throws {
        let files = [
            "app/views.py":
                "import os\nfrom flask import request\nfrom helpers.mixins import Runner\n\nclass View(Runner):\n"
                + "    def get(self):\n        self.run(request.args['c'])\n        os.system(self.clean(request.args['d']))\n",
            "app/helpers/mixins.py":
                "import os, shlex\n\nclass Runner:\n    def run(self, cmd):\n        os.system('echo ' + cmd)\n\n"
                + "    def clean(self, value):\n        return shlex.quote(value)\n",
            "app/helpers/__init__.py": "",
        ]
        let engine = try engine(rule: Self.rule)
        let names = files.keys.sorted()
        let results = engine.scanProject(files: names, read: { files[$0] })
        let views = try #require(results[names.firstIndex(of: "app/views.py")!])
        // The sink inside the inherited `run` is reached; the inherited `clean` sanitises.
        #expect(views.findings.compactMap(\.location.startLine) == [7])
    }

    @Test("a helper whose summary for the rule is the rule-free one publishes none of the rule's own")
    func identicalSummaryNotPublished() throws {
        // `alias` names the sink's identifiers (so the rule analyses it) but calls nothing: what it
        // does for the rule (its first parameter flows to its result, its second does not) is what
        // it does for any rule. `run` reaches the sink.
        var edited = Self.helperProject
        edited["app/helpers/utils.py"]! += "\ndef alias(value, label):\n    runner = os.system\n    return value\n"
        edited["app/views.py"] =
            edited["app/views.py"]!.replacingOccurrences(of: "import run, clean", with: "import run, clean, alias")
            + "\ndef other():\n    os.system(alias(request.args['e'], request.args['f']))\n"
        let files = edited
        let engine = try engine(rule: Self.rule)
        let names = files.keys.sorted()
        let project = ProjectSummaries(files: names, read: { files[$0] })
        let results = engine.scanProject(files: names, project: project, read: { files[$0] })
        let specific = project.ruleSpecific("test.rule")["app.helpers.utils"] ?? [:]
        #expect(specific["run"] != nil)
        #expect(specific["alias"] == nil)
        // The rule-free summary still carries the flow through `alias` to the view's sink.
        let views = try #require(results[names.firstIndex(of: "app/views.py")!])
        #expect(views.findings.compactMap(\.location.startLine) == [6, 10])
    }

    @Test("a package scanned at its own root resolves its absolute imports as from the repository around it")
    func packageAsScanRoot() throws {
        let engine = try engine(rule: Self.rule)
        let package = [
            "__init__.py": "",
            "views.py": "from flask import request\nfrom shop.helpers import run\n\ndef view():\n    run(request.args['c'])\n",
            "helpers.py": "import os\n\ndef run(cmd):\n    os.system('echo ' + cmd)\n",
        ]
        func lines(_ files: [String: String], rootName: String?, view: String) throws -> [Int] {
            let names = files.keys.sorted()
            let project = ProjectSummaries(files: names, rootName: rootName, read: { files[$0] })
            let results = engine.scanProject(files: names, project: project, read: { files[$0] })
            return try #require(results[names.firstIndex(of: view)!]).findings.compactMap(\.location.startLine)
        }
        let around = Dictionary(uniqueKeysWithValues: package.map { ("shop/" + $0.key, $0.value) })
        #expect(try lines(around, rootName: "repo", view: "shop/views.py") == [5])
        #expect(try lines(package, rootName: "shop", view: "views.py") == [5])
        // A root that is no package, or whose name is no identifier, adds no prefix.
        #expect(try lines(package, rootName: nil, view: "views.py") == [])
        #expect(try lines(package, rootName: "shop-1.0", view: "views.py") == [])
    }

    /// An audit of `os.system` and the taint rule, sharing CWE 78.
    static func auditAndFlowEngine() throws -> SASTEngine {
        let audit = try RuleLoader.parse(
            "id: test.audit\nmessage: system\nseverity: medium\nconfidence: low\nlanguages: [python]\ncwe: [78]\npattern: os.system(...)\n",
            file: "a.yaml")
        let taint = try RuleLoader.parse(
            "id: test.taint\nmessage: flow\nseverity: high\nlanguages: [python]\ncwe: [78]\n" + Self.rule, file: "t.yaml")
        return SASTEngine(rules: try RuleSet(rules: [audit, taint]))
    }

    @Test("a proven flow supersedes the audit finding on the same line")
    func supersedes() throws {
        let engine = try Self.auditAndFlowEngine()
        let found = engine.scan(file: "a.py", source: Self.prelude + "os.system(request.args['c'])\nos.system(x)\n").findings
        #expect(found.map(\.ruleId) == ["test.taint", "test.audit"])
    }

    /// Issue 55: each step of a flow is an assumption; a flow of six steps or more (source and
    /// sink included) is low confidence, and still a flow: it supersedes the audit of its line.
    @Test("a long flow is low confidence and still supersedes the audit")
    func longFlows() throws {
        let engine = try Self.auditAndFlowEngine()
        let short = engine.scan(file: "a.py", source: Self.prelude + "c = request.args['c']\nos.system(c)\n").findings
        #expect(short.map(\.confidence) == [.high])
        let long = Self.prelude + "a = request.args['c']\nb = a\nc = b\nd = c\ne = d\nos.system(e)\n"
        let found = engine.scan(file: "a.py", source: long).findings
        #expect(found.map(\.ruleId) == ["test.taint"])
        #expect(found.map(\.confidence) == [.low])
        #expect(found.first?.message.hasSuffix("(a flow of 7 steps: each is an assumption, so low confidence)") == true)
    }

    /// Issue 55: two matches of one rule on one line (`f"{e.__class__.__name__}: {e}"`) are one
    /// finding.
    @Test("one finding per rule and line")
    func onePerLine() throws {
        let lines = try findingLines(rule: "pattern: str(...)\n", source: "x = str(a) + str(b)\ny = str(c)\n")
        #expect(lines == [1, 2])
    }

    @Test("a flow the second round of a project scan disproves gives back the audit it hid")
    func supersededAuditComesBack() throws {
        let engine = try Self.auditAndFlowEngine()
        // An import cycle: the helper module imports the view's, and comes after it in dependency
        // order (it is listed first), so the view's first round does not read the helper's summary
        // (it quotes) and sees a flow; the second round reads it and sees none.
        let files = [
            "app/views.py":
                "import os\nfrom flask import request\nfrom helpers.utils import clean\n\ndef view():\n    os.system(clean(request.args['d']))\n",
            "app/helpers/utils.py": "import shlex\nfrom views import view\n\ndef clean(value):\n    return shlex.quote(value)\n",
            "app/helpers/__init__.py": "",
        ]
        let names = ["app/helpers/utils.py", "app/views.py", "app/helpers/__init__.py"]
        let results = engine.scanProject(files: names, read: { files[$0] }, progress: { _ in }, workers: 1)
        let views = try #require(results[1])
        #expect(views.findings.map(\.ruleId) == ["test.audit"])
        #expect(views.findings.first?.location.startLine == 6)
    }

    @Test("a project scan finds the same, whatever the number of threads and their timing")
    func sameFindingsWhateverTheThreads() throws {
        let engine = try engine(rule: Self.rule)
        // Helper modules that import each other (a cycle), both imported by the view.
        let files = [
            "app/views.py":
                "import os\nfrom flask import request\nfrom helpers.utils import run, clean\nfrom helpers.more import relay\n\n"
                + "def view():\n    run(request.args['c'])\n    os.system(clean(request.args['d']))\n    os.system(relay(request.args['e']))\n",
            "app/helpers/utils.py":
                "import os, shlex\nfrom helpers.more import relay\n\ndef run(cmd):\n    os.system('echo ' + cmd)\n\n"
                + "def clean(value):\n    return shlex.quote(value)\n\ndef passthrough(value):\n    return relay(value)\n",
            "app/helpers/more.py":
                "from helpers.utils import run\n\ndef relay(value):\n    return value\n\ndef fire(value):\n    run(value)\n",
            "app/helpers/__init__.py": "",
        ]
        let names = files.keys.sorted()
        let reference = engine.scanProject(files: names, read: { files[$0] }, progress: { _ in }, workers: 1)
        let views = try #require(reference[names.firstIndex(of: "app/views.py")!])
        #expect(views.findings.compactMap(\.location.startLine) == [7, 9])
        for workers in [2, 4, 8, 2, 4, 8] {
            let again = engine.scanProject(files: names, read: { files[$0] }, progress: { _ in }, workers: workers)
            #expect(again.map { $0?.findings } == reference.map { $0?.findings })
        }
    }

    @Test("two files of one module name: what importers read does not depend on which finished last")
    func sameModuleNameTwice() throws {
        let engine = try engine(rule: Self.rule)
        let files = [
            "app/views.py":
                "import os\nfrom flask import request\nfrom helpers.utils import clean\n\ndef view():\n    os.system(clean(request.args['d']))\n",
            "app/helpers/utils.py": "import shlex\n\ndef clean(value):\n    return shlex.quote(value)\n",
            "app/helpers/utils/__init__.py": "def clean(value):\n    return value\n",
            "app/helpers/__init__.py": "",
        ]
        let names = files.keys.sorted()
        let reference = engine.scanProject(files: names, read: { files[$0] }, progress: { _ in }, workers: 1)
        for workers in [2, 4, 8, 2, 4, 8] {
            let again = engine.scanProject(files: names, read: { files[$0] }, progress: { _ in }, workers: workers)
            #expect(again.map { $0?.findings } == reference.map { $0?.findings })
        }
    }
}
