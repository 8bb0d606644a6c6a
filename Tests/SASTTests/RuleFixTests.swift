import Findings
import Foundation
import PythonSyntax
import Testing

@testable import SAST

/// The shipped rules' `fix:` rewrites: every `ruleid` case of a rule with a fix is fixed (unless
/// marked `# nofix:`), and representative rewrites give exactly the expected text.
@Suite("Rule fixes")
struct RuleFixTests {
    /// Ids of the shipped rules that have a fix.
    static let fixRules: [String] = {
        guard let engine = try? RuleFilesTests.engine.get() else { return [] }
        return engine.rules.rules.filter { !$0.fixes.isEmpty }.map(\.id)
    }()

    @Test("the rules with fixes are the expected ones")
    func fixedRules() {
        #expect(
            Self.fixRules == [
                "javascript.cookie-httponly-disabled", "javascript.session-cookie-not-secure",
                "javascript.template-autoescape-disabled", "javascript.tls-verification-disabled",
                "python.credentials-logged", "python.flask-debug-true", "python.hashlib-new-weak-hash",
                "python.hashlib-weak-hash", "python.hashlib-weak-hash-audit", "python.httpsconnection-no-context",
                "python.insecure-cookie-httponly", "python.jinja2-autoescape-false",
                "python.jinja2-autoescape-missing", "python.pickle-load", "python.requests-timeout-none",
                "python.requests-verify-false", "python.requests-without-timeout", "python.ruamel-unsafe-yaml",
                "python.settings-cookie-httponly-false", "python.settings-cookie-secure-false",
                "python.ssl-unverified-context", "python.subprocess-shell-true",
                "python.subprocess-shell-true-literal", "python.taint-insecure-cookie", "python.taint-xss",
                "python.tempfile-mktemp", "python.torch-load", "python.yaml-load",
            ])
    }

    @Test("each ruleid case's fix applies, parses, removes the finding and keeps the other lines", arguments: fixRules)
    func ruleTestFile(_ id: String) throws {
        let engine = try RuleFilesTests.engine.get()
        let rule = try #require(engine.rules.rules.first { $0.id == id })
        // The test file beside the rule: Python's `.py`, JavaScript's `.js` or TypeScript's `.ts`.
        let base = String(rule.file.dropLast(".yaml".count))
        let file = try #require([".py", ".js", ".ts"].map { base + $0 }.first { FileManager.default.fileExists(atPath: $0) })
        let source = try String(contentsOfFile: file, encoding: .utf8)
        let text = SourceText(source)
        let annotations: [Annotation]
        let noFixes: [Annotation]
        if file.hasSuffix(".py") {
            let module = try PythonParser.parseModule(source: source, fileName: file)
            annotations = Annotation.parse(module: module, source: text)
            noFixes = Annotation.noFix(module: module, source: text)
        } else {
            annotations = Annotation.parse(slashComments: text)
            noFixes = Annotation.noFix(slashComments: text)
        }
        let ruleid = Set(annotations.filter { $0.ruleId == id && $0.expectsFinding }.map(\.line))
        let noFix = Set(noFixes.filter { $0.ruleId == id }.map(\.line))
        #expect(noFix.isSubset(of: ruleid), "\(file): # nofix on lines without # ruleid: \(noFix.subtracting(ruleid).sorted())")

        var fixed = 0
        for finding in engine.scan(file: file, source: source).findings where finding.ruleId == id {
            let line = finding.location.startLine ?? 0
            guard ruleid.contains(line) else { continue }
            if noFix.contains(line) {
                #expect(finding.fix == nil, "\(file):\(line): marked # nofix but has a fix")
                continue
            }
            guard finding.fix != nil else {
                Issue.record("\(file):\(line): no fix (mark the case # nofix: \(id) if that is intended)")
                continue
            }
            try FixCheck.verify(finding, in: source, file: file, engine: engine)
            fixed += 1
        }
        #expect(fixed >= 2, "\(file): \(fixed) cases fixed")
    }

    @Test(
        "representative rewrites give exactly this text",
        arguments: [
            // yaml: the Loader goes, load_all stays load_all.
            (
                "python.yaml-load", "import yaml\ndata = yaml.load(f, Loader=yaml.FullLoader)\n",
                "import yaml\ndata = yaml.safe_load(f)\n"
            ),
            ("python.yaml-load", "import yaml\ndocs = yaml.unsafe_load_all(text)\n", "import yaml\ndocs = yaml.safe_load_all(text)\n"),
            ("python.yaml-load", "import yaml\nd = yaml.load(stream=f, Loader=yaml.Loader)\n", "import yaml\nd = yaml.safe_load(f)\n"),
            // ssl: verification on, whichever way it was turned off.
            (
                "python.ssl-unverified-context", "import ssl\nctx = ssl._create_unverified_context(ssl.PROTOCOL_TLS)\n",
                "import ssl\nctx = ssl.create_default_context()\n"
            ),
            (
                "python.ssl-unverified-context", "import ssl\nssl._create_default_https_context = ssl._create_unverified_context\n",
                "import ssl\nssl._create_default_https_context = ssl.create_default_context\n"
            ),
            (
                "python.ssl-unverified-context", "import ssl\ns = ssl.wrap_socket(sock, cert_reqs=ssl.CERT_NONE, ca_certs=None)\n",
                "import ssl\ns = ssl.wrap_socket(sock, cert_reqs=ssl.CERT_REQUIRED, ca_certs=None)\n"
            ),
            (
                "python.ssl-unverified-context", "import urllib3\np = urllib3.PoolManager(cert_reqs='CERT_NONE')\n",
                "import urllib3\np = urllib3.PoolManager(cert_reqs=\"CERT_REQUIRED\")\n"
            ),
            (
                "python.httpsconnection-no-context", "import http.client\nc = http.client.HTTPSConnection(host, 443)\n",
                "import http.client\nimport ssl\nc = http.client.HTTPSConnection(host, 443, context=ssl.create_default_context())\n"
            ),
            (
                "python.torch-load", "import torch\nm = torch.load(path, map_location=\"cpu\")\n",
                "import torch\nm = torch.load(path, map_location=\"cpu\", weights_only=True)\n"
            ),
            (
                "python.torch-load", "import torch\nm = torch.load(path, weights_only=False, mmap=True)\n",
                "import torch\nm = torch.load(path, weights_only=True, mmap=True)\n"
            ),
            (
                "python.ruamel-unsafe-yaml", "import ruamel.yaml\ny = ruamel.yaml.YAML(typ=\"unsafe\", pure=True)\n",
                "import ruamel.yaml\ny = ruamel.yaml.YAML(typ=\"safe\", pure=True)\n"
            ),
            // requests: verify=False goes from anywhere among the arguments, layout kept.
            (
                "python.requests-verify-false", "import requests\nr = requests.get(url, verify=False, timeout=5)\n",
                "import requests\nr = requests.get(url, timeout=5)\n"
            ),
            (
                "python.requests-verify-false", "import requests\nr = requests.get(verify=False)\n",
                "import requests\nr = requests.get()\n"
            ),
            (
                "python.requests-verify-false",
                "import requests\nr = requests.post(\n    url,\n    verify=False,  # internal CA\n    json=body,\n)\n",
                "import requests\nr = requests.post(\n    url,\n    json=body,\n)\n"
            ),
            (
                "python.requests-verify-false", "import requests\ns = requests.Session()\ns.verify = False\n",
                "import requests\ns = requests.Session()\ns.verify = True\n"
            ),
            (
                "python.requests-without-timeout", "import requests\nr = requests.post(url, json=body)\n",
                "import requests\nr = requests.post(url, json=body, timeout=30)\n"
            ),
            (
                "python.requests-without-timeout", "from requests import get\nr = get()\n",
                "from requests import get\nr = get(timeout=30)\n"
            ),
            // One argument per line: the new one gets its own line and the trailing comma.
            (
                "python.requests-without-timeout", "import requests\nr = requests.post(\n    url,\n    json=body,\n)\n",
                "import requests\nr = requests.post(\n    url,\n    json=body,\n    timeout=30,\n)\n"
            ),
            (
                "python.requests-timeout-none", "import requests\nr = requests.get(url, timeout=None, stream=True)\n",
                "import requests\nr = requests.get(url, timeout=30, stream=True)\n"
            ),
            // A logged credential: its place holds a marker, quoted to fit inside an f-string's field.
            (
                "python.credentials-logged", "import logging\nlog = logging.getLogger(__name__)\nlog.debug(\"token %s\", access_token)\n",
                "import logging\nlog = logging.getLogger(__name__)\nlog.debug(\"token %s\", \"[REDACTED]\")\n"
            ),
            (
                "python.credentials-logged", "import logging\nlog = logging.getLogger(__name__)\nlog.info(f\"key {api_key}\")\n",
                "import logging\nlog = logging.getLogger(__name__)\nlog.info(f\"key {'[REDACTED]'}\")\n"
            ),
            // A cookie on a framework's response: the flag joins the arguments as written.
            (
                "python.taint-insecure-cookie",
                "from flask import make_response\nr = make_response('x')\nr.set_cookie('sid', sid, httponly=True)\n",
                "from flask import make_response\nr = make_response('x')\nr.set_cookie('sid', sid, httponly=True, secure=True)\n"
            ),
            // Cross-site scripting: each value written into the markup is escaped where it is written.
            (
                "python.taint-xss",
                "from flask import Flask, request\napp = Flask(__name__)\n\n@app.route(\"/s\")\ndef s():\n    q = request.args.get(\"q\")\n    return f\"<h1>Results for {q}</h1>\"\n",
                "from flask import Flask, request\nimport html\napp = Flask(__name__)\n\n@app.route(\"/s\")\ndef s():\n    q = request.args.get(\"q\")\n    return f\"<h1>Results for {html.escape(str(q))}</h1>\"\n"
            ),
            // subprocess: the command string is split, shell=True goes, shlex is imported.
            (
                "python.subprocess-shell-true", "import subprocess\nsubprocess.run(f\"ping -c 1 {host}\", shell=True, check=True)\n",
                "import subprocess\nimport shlex\nsubprocess.run(shlex.split(f\"ping -c 1 {host}\"), check=True)\n"
            ),
            (
                "python.subprocess-shell-true",
                "import subprocess\n\n\ndef grep(p):\n    cmd = \"grep -r %s .\" % p\n    return subprocess.check_output(cmd, shell=True)\n",
                "import subprocess\nimport shlex\n\n\ndef grep(p):\n    cmd = \"grep -r %s .\" % p\n    return subprocess.check_output(shlex.split(cmd))\n"
            ),
            // A call whose arguments start on the next line: the inserted `shlex.split(` starts it too.
            (
                "python.subprocess-shell-true",
                "import subprocess\n\n\ndef grep(p):\n    return subprocess.check_output(\n        \"grep -r %s .\" % p,\n        shell=True,\n        text=True)\n",
                "import subprocess\nimport shlex\n\n\ndef grep(p):\n    return subprocess.check_output(\n        shlex.split(\"grep -r %s .\" % p),\n        text=True)\n"
            ),
            (
                "python.subprocess-shell-true-literal", "import shlex\nimport subprocess\nsubprocess.call('uptime -p', shell=True)\n",
                "import shlex\nimport subprocess\nsubprocess.call(shlex.split('uptime -p'))\n"
            ),
            // hashlib: a security use gets SHA-256, a checksum says it is none, an unknown use SHA-256.
            (
                "python.hashlib-weak-hash", "import hashlib\n\ndef token(user):\n    return hashlib.md5(user.id).hexdigest()\n",
                "import hashlib\n\ndef token(user):\n    return hashlib.sha256(user.id).hexdigest()\n"
            ),
            (
                "python.hashlib-weak-hash-audit", "from hashlib import md5\n\ndef file_etag(body):\n    return md5(body).hexdigest()\n",
                "from hashlib import md5\n\ndef file_etag(body):\n    return md5(body, usedforsecurity=False).hexdigest()\n"
            ),
            (
                "python.hashlib-weak-hash", "from hashlib import sha1\n\ndef sign(data):\n    return sha1(data).digest()\n",
                "from hashlib import sha1\nimport hashlib\n\ndef sign(data):\n    return hashlib.sha256(data).digest()\n"
            ),
            (
                "python.hashlib-weak-hash-audit",
                "import hashlib\n\ndef etag(b):\n    return hashlib.md5(b, usedforsecurity=True).hexdigest()\n",
                "import hashlib\n\ndef etag(b):\n    return hashlib.sha256(b, usedforsecurity=True).hexdigest()\n"
            ),
            (
                "python.hashlib-weak-hash-audit", "import hashlib\nh = hashlib.new('md5', data)\n",
                "import hashlib\nh = hashlib.new(\"sha256\", data)\n"
            ),
            (
                "python.hashlib-new-weak-hash", "import hashlib\nh = hashlib.new('md5', password)\n",
                "import hashlib\nh = hashlib.new(\"sha256\", password)\n"
            ),
            (
                "python.hashlib-weak-hash-audit", "import hashlib\nkey = hashlib.sha1(url).hexdigest()\n",
                "import hashlib\nkey = hashlib.sha256(url).hexdigest()\n"
            ),
            // tempfile: a statement becomes two, indented like it; os is imported.
            (
                "python.tempfile-mktemp",
                "import tempfile\n\ndef scratch():\n    path = tempfile.mktemp(suffix=\".json\")\n    return path\n",
                "import tempfile\nimport os\n\ndef scratch():\n    _fd, path = tempfile.mkstemp(suffix=\".json\")\n    os.close(_fd)\n    return path\n"
            ),
            (
                "python.pickle-load", "import json\nimport jsonpickle\ntext = json.dumps(obj)\ncopy = jsonpickle.decode(text)\n",
                "import json\nimport jsonpickle\ntext = json.dumps(obj)\ncopy = json.loads(text)\n"
            ),
            (
                "python.jinja2-autoescape-false", "import jinja2\nenv = jinja2.Environment(autoescape=False, loader=l)\n",
                "import jinja2\nenv = jinja2.Environment(autoescape=True, loader=l)\n"
            ),
            (
                "python.jinja2-autoescape-missing", "from jinja2 import Template\nt = Template(\"<p>{{ x }}</p>\")\n",
                "from jinja2 import Template\nt = Template(\"<p>{{ x }}</p>\", autoescape=True)\n"
            ),
            (
                "python.flask-debug-true", "from flask import Flask\napp = Flask(__name__)\napp.run(debug=True, port=80)\n",
                "from flask import Flask\nimport os\napp = Flask(__name__)\napp.run(debug=os.environ.get(\"FLASK_DEBUG\") == \"1\", port=80)\n"
            ),
        ])
    func rewrite(rule id: String, source: String, expected: String) throws {
        let fixed = try Self.fixed(id, source)
        #expect(fixed == expected)
    }

    @Test(
        "an import goes after the docstring, __future__ imports and the import block, never into a function",
        arguments: [
            // Module docstring, then code.
            (
                "\"\"\"Tools.\"\"\"\nimport subprocess\nsubprocess.run(\"ls \" + d, shell=True)\n",
                "\"\"\"Tools.\"\"\"\nimport subprocess\nimport shlex\nsubprocess.run(shlex.split(\"ls \" + d))\n"
            ),
            (
                "\"\"\"Tools.\n\nMore.\n\"\"\"\n\nfrom subprocess import run\n\n\ndef f(d):\n    run(\"ls \" + d, shell=True)\n",
                "\"\"\"Tools.\n\nMore.\n\"\"\"\n\nfrom subprocess import run\nimport shlex\n\n\ndef f(d):\n    run(shlex.split(\"ls \" + d))\n"
            ),
            // from __future__ stays first.
            (
                "from __future__ import annotations\n\nimport subprocess as sp\nsp.call(\"ls \" + d, shell=True)\n",
                "from __future__ import annotations\n\nimport subprocess as sp\nimport shlex\nsp.call(shlex.split(\"ls \" + d))\n"
            ),
            // A multi-line import block.
            (
                "import os\nfrom subprocess import (\n    call,\n    run,\n)\n\nrun(\"ls \" + d, shell=True)\n",
                "import os\nfrom subprocess import (\n    call,\n    run,\n)\nimport shlex\n\nrun(shlex.split(\"ls \" + d))\n"
            ),
            // Already imported: nothing added.
            (
                "import shlex\nimport subprocess\n\ndef f(d):\n    subprocess.run(\"ls \" + d, shell=True)\n",
                "import shlex\nimport subprocess\n\ndef f(d):\n    subprocess.run(shlex.split(\"ls \" + d))\n"
            ),
            // Imported under another name, or only inside a function: a module-level import is added.
            (
                "import shlex as sh\nimport subprocess\nsubprocess.run(\"ls \" + d, shell=True)\n",
                "import shlex as sh\nimport subprocess\nimport shlex\nsubprocess.run(shlex.split(\"ls \" + d))\n"
            ),
            (
                "import subprocess\n\ndef f(d):\n    import shlex\n    subprocess.run(\"ls \" + d, shell=True)\n",
                "import subprocess\nimport shlex\n\ndef f(d):\n    import shlex\n    subprocess.run(shlex.split(\"ls \" + d))\n"
            ),
            // No import block: before the first statement, after a shebang and comments.
            (
                "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nsubprocess = __import__(\"subprocess\")\nsubprocess.run(\"ls \" + d, shell=True)\n",
                "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nimport shlex\nsubprocess = __import__(\"subprocess\")\nsubprocess.run(shlex.split(\"ls \" + d))\n"
            ),
        ])
    func importPlacement(source: String, expected: String) throws {
        let fixed = try Self.fixed("python.subprocess-shell-true", source)
        #expect(fixed == expected)
    }

    @Test("CRLF files get CRLF in inserted imports and new lines, and keep it everywhere else")
    func crlf() throws {
        let lines = [
            "\"\"\"Jobs.\"\"\"", "import tempfile", "", "def scratch():  # é", "    path = tempfile.mktemp()", "    return path", "",
        ]
        let expected = [
            "\"\"\"Jobs.\"\"\"", "import tempfile", "import os", "", "def scratch():  # é", "    _fd, path = tempfile.mkstemp()",
            "    os.close(_fd)", "    return path", "",
        ]
        let source = lines.joined(separator: "\r\n")
        #expect(try Self.fixed("python.tempfile-mktemp", source) == expected.joined(separator: "\r\n"))
        let flask = "from flask import Flask\r\napp = Flask(__name__)\r\napp.run(debug=True)\r\n"
        #expect(
            try Self.fixed("python.flask-debug-true", flask)
                == "from flask import Flask\r\nimport os\r\napp = Flask(__name__)\r\napp.run(debug=os.environ.get(\"FLASK_DEBUG\") == \"1\")\r\n"
        )
    }

    @Test("a flow takes the fix of the audit finding it supersedes on its line")
    func flowTakesAuditFix() throws {
        let engine = try RuleFilesTests.engine.get()
        let source = """
            import yaml
            from flask import Flask, request

            app = Flask(__name__)


            @app.route("/u", methods=["POST"])
            def u():
                f = request.files["file"]
                data = yaml.load(f, yaml.Loader)
                return str(data)

            """
        let findings = engine.scan(file: "t.py", source: source).findings.filter { $0.location.startLine == 10 }
        #expect(findings.map(\.ruleId) == ["python.taint-insecure-deserialization"])
        let fix = try #require(findings.first?.fix)
        #expect(try fix.apply(to: source).contains("    data = yaml.safe_load(f)\n"))
    }

    @Test("cases the rules leave without a fix")
    func noFix() throws {
        let engine = try RuleFilesTests.engine.get()
        let cases: [(String, String)] = [
            // Shell syntax in the command: without a shell it would be plain arguments.
            ("python.subprocess-shell-true", "import subprocess\nsubprocess.run(\"ls \" + d + \" | wc -l\", shell=True)\n"),
            // With a shell, executable= names the shell; without one, the program.
            (
                "python.subprocess-shell-true",
                "import subprocess\nsubprocess.run(\"ls \" + d, shell=True, executable=\"/bin/bash\")\n"
            ),
            // A command that may not be a string.
            ("python.subprocess-shell-true", "import subprocess\ndef f(cmd):\n    subprocess.run(cmd, shell=True)\n"),
            ("python.subprocess-shell-true", "import subprocess\ncmd = 'ls ' + d\ncmd = [cmd]\nsubprocess.run(cmd, shell=True)\n"),
            // **kwargs may hold the argument the fix would add.
            ("python.requests-without-timeout", "import requests\nrequests.get(url, **options)\n"),
            // No place for a second statement, or no statement at all.
            ("python.tempfile-mktemp", "import tempfile\nif x: path = tempfile.mktemp()\n"),
            ("python.tempfile-mktemp", "import tempfile\nopen(tempfile.mktemp(), 'w')\n"),
            // The import would come after its use.
            ("python.flask-debug-true", "import flask; flask.Flask(__name__).run(debug=True)\n"),
            // pickle data, or JSON of unknown origin.
            ("python.pickle-load", "import pickle\nobj = pickle.loads(blob)\n"),
            ("python.pickle-load", "import jsonpickle\nobj = jsonpickle.decode(text)\n"),
        ]
        for (id, source) in cases {
            let findings = engine.scan(file: "t.py", source: source).findings.filter { $0.ruleId == id }
            #expect(findings.count == 1, "\(id): \(source)")
            #expect(findings.allSatisfy { $0.fix == nil }, "\(id) fixed: \(source)")
        }
    }

    /// `source` with the fix of the one finding of rule `id` applied (checked by ``FixCheck``).
    static func fixed(_ id: String, _ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        let engine = try RuleFilesTests.engine.get()
        let findings = engine.scan(file: "t.py", source: source).findings.filter { $0.ruleId == id }
        let finding = try #require(
            findings.count == 1 ? findings.first : nil, "\(id): \(findings.count) findings", sourceLocation: sourceLocation)
        return try FixCheck.verify(finding, in: source, file: "t.py", engine: engine, sourceLocation: sourceLocation)
    }
}
