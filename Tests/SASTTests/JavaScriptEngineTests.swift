import Findings
import Testing

@testable import SAST

/// Issue 60: JavaScript and TypeScript go through the one engine — a rule whose `languages` are
/// JavaScript's has its patterns read as JavaScript and runs on `.js`/`.ts` files only, on their
/// lowered trees; a Python rule never runs on them, nor a JavaScript rule on Python.
@Suite struct JavaScriptEngineTests {
    static func engine(_ rules: [(id: String, languages: String, body: String)]) throws -> SASTEngine {
        SASTEngine(
            rules: try RuleSet(
                rules: rules.map { rule in
                    try RuleLoader.parse(
                        "id: \(rule.id)\nmessage: found\nseverity: high\nlanguages: \(rule.languages)\ncwe: [78]\n" + rule.body,
                        file: "\(rule.id).yaml")
                }))
    }

    static let taint =
        javaScriptRequestTaint + """
            sinks:
              - pattern: child_process.exec($CMD, ...)
                focus: $CMD
            sanitizers:
              - pattern: shellescape(...)

            """

    @Test("a taint rule written in JavaScript follows request data into exec, through require, in .js and .ts files")
    func taintFlowsInJavaScript() throws {
        let engine = try Self.engine([("javascript.exec", "[javascript, typescript]", Self.taint)])
        let source = """
            const cp = require('child_process');
            function handler(req, res) {
              const dir = req.query.dir;
              cp.exec('ls ' + dir);
              cp.exec(shellescape(dir));
              cp.exec('ls /tmp');
            }

            """
        for file in ["app.js", "app.ts", "app.mjs"] {
            let result = engine.scan(file: file, source: source)
            #expect(result.parseError == nil, "\(result.parseError ?? "")")
            #expect(result.findings.map(\.ruleId) == ["javascript.exec"], "\(file)")
            #expect(result.findings.first?.location.startLine == 4, "\(file)")
        }
        // The same rule on Python code finds nothing: it is not a Python rule.
        #expect(engine.scan(file: "app.py", source: "import subprocess\nsubprocess.run(x)\n").findings.isEmpty)
    }

    @Test("an Express handler written as an arrow in the route's call is a function the taint rules read (hoisted)")
    func arrowHandlersAreAnalysed() throws {
        let engine = try Self.engine([("javascript.exec", "[javascript, typescript]", Self.taint)])
        let source = """
            import { exec } from 'node:child_process';
            import express from 'express';
            const app = express();
            app.get('/ls', (req, res) => {
              exec(`ls ${req.query.dir}`, (err, out) => res.send(out));
            });
            router.post('/x', async function (req, res) {
              await new Promise(done => exec('ls ' + req.query.d, done));
            });

            """
        let result = engine.scan(file: "server.ts", source: source)
        #expect(result.findings.map(\.location.startLine) == [5, 8], "\(result.findings.map(\.message))")
    }

    @Test("a callback sees the values of the function it is written in: SQL built above, run inside connect(function () {...})")
    func callbacksSeeTheirEnclosingScope() throws {
        let engine = try Self.engine([("javascript.exec", "[javascript, typescript]", Self.taint)])
        let source = """
            const cp = require('child_process');
            function handler(req, res) {
              const cmd = 'ls ' + req.query.dir;
              const safe = 'ls /tmp';
              conn.connect(function () {
                cp.exec(cmd);
                cp.exec(safe);
              });
              auth(req).then((cmd) => cp.exec(cmd));
            }

            """
        let result = engine.scan(file: "app.js", source: source)
        // The callback's own parameter `cmd` shadows the tainted one: line 9 is not a finding.
        #expect(result.findings.map(\.location.startLine) == [6], "\(result.findings.map(\.message))")
    }

    @Test("a Python rule does not run on JavaScript, nor a JavaScript rule on Python")
    func rulesKeepToTheirLanguage() throws {
        let engine = try Self.engine([
            ("python.evil", "[python]", "pattern: eval(...)\n"), ("javascript.evil", "[javascript]", "pattern: eval(...)\n"),
        ])
        #expect(engine.scan(file: "a.js", source: "eval(x);\n").findings.map(\.ruleId) == ["javascript.evil"])
        #expect(engine.scan(file: "a.py", source: "eval(x)\n").findings.map(\.ruleId) == ["python.evil"])
        // `languages: [javascript]` is JavaScript only: a TypeScript file is not read by it.
        #expect(engine.scan(file: "a.ts", source: "eval(x);\n").findings.isEmpty)
    }

    @Test("a JavaScript file that does not parse is named, with its line, and skipped")
    func parseErrorIsANotice() throws {
        let engine = try Self.engine([("javascript.evil", "[javascript]", "pattern: eval(...)\n")])
        let result = engine.scan(file: "broken.js", source: "let x = ;\neval(y);\n")
        #expect(result.findings.isEmpty)
        #expect(result.parseError?.hasPrefix("broken.js:1:") == true, "\(result.parseError ?? "")")
        #expect(result.parseError?.hasSuffix("(file skipped)") == true)
    }

    @Test("a JavaScript file nested deeper than the parser reads is a high finding, not a skipped file (a hostile bound)")
    func parserBoundIsAFinding() throws {
        let engine = try Self.engine([("javascript.evil", "[javascript]", "pattern: eval(...)\n")])
        let deep = "x = " + String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000) + ";\neval(y);\n"
        let result = engine.scan(file: "deep.js", source: deep)
        #expect(result.findings.map(\.ruleId) == [ParserBoundFinding.descriptor.id])
        #expect(result.findings.first?.severity == .high)
        #expect(result.findings.first?.message.hasSuffix("Node may still run this file") == true)
    }

    @Test("rule files: unknown languages, mixed syntaxes and JavaScript that does not parse are one-line errors naming the file")
    func ruleFileErrors() throws {
        func error(_ yaml: String) -> String {
            do {
                _ = try RuleLoader.parse("id: x.y\nmessage: m\nseverity: low\n" + yaml, file: "r.yaml")
                return ""
            } catch { return "\(error)" }
        }
        #expect(error("languages: [cobol]\npattern: f()\n").contains("r.yaml:4: unknown language 'cobol'"))
        #expect(error("languages: [python, javascript]\npattern: f()\n").contains("mixes the patterns of python with javascript"))
        #expect(error("languages: [javascript]\npattern: 'f(('\n").contains("r.yaml:5: 'pattern': pattern 'f((' does not parse"))
    }
}
