import Findings
import Testing

@testable import SAST

/// Issue 76: values, not spellings. The shipped JavaScript rules find a sink however the program
/// names it (H1), an allow-list vouches only when it is the program's own constant (H9), and a
/// CommonJS file with HTML-like comments is read as Node reads it (H2).
@Suite struct JavaScriptValuesTests {
    static let shipped = Result { SASTEngine(rules: try RuleSet.load(directories: [RuleFilesTests.rulesDirectory])) }

    /// An Express handler whose fourth line is `line`, scanned by the shipped rules as `file`.
    static func handler(_ line: String, file: String = "app.js", prelude: String = "") throws -> FileScanResult {
        let source = """
            const express = require('express');
            const cp = require('child_process');
            const app = express();\(prelude)
            app.get('/run', async (req, res) => { \(line) });

            """
        return try shipped.get().scan(file: file, source: source)
    }

    /// The rule ids of the critical findings on `line` (1-based) of a result.
    static func critical(_ result: FileScanResult, line: Int = 4) -> Set<String> {
        Set(result.findings.filter { $0.severity == .critical && $0.location.startLine == line }.map(\.ruleId))
    }

    static let command = "javascript.taint-command-injection"
    static let code = "javascript.taint-code-injection"

    /// Each line runs the request's text as a command or as code under Node; each was 0 findings
    /// on 7f222c61 while its plain spelling was critical.
    static let spellings: [(line: String, rule: String)] = [
        ("require('child_process').exec(req.query.cmd);", command),
        ("require('node:child_process').execSync(req.query.cmd);", command),
        ("require('vm').runInNewContext(req.query.code);", code),
        ("cp['exec'](req.query.cmd);", command),
        ("cp[`exec`](req.query.cmd);", command),
        ("cp.exec(req['query']['cmd']);", command),
        ("cp.exec(req['query'].cmd);", command),
        ("const run = cp.exec; run(req.query.cmd);", command),
        ("const e = eval; e(req.query.code);", code),
        ("(0, eval)(req.query.code);", code),
        ("(0, cp.exec)(req.query.cmd);", command),
        ("globalThis.eval(req.query.code);", code),
        ("window.eval(req.query.code);", code),
        ("global.eval(req.query.code);", code),
        ("self.eval(req.query.code);", code),
        ("globalThis['eval'](req.query.code);", code),
        ("cp.exec.call(null, req.query.cmd);", command),
        ("cp.exec.apply(null, [req.query.cmd]);", command),
        ("Reflect.apply(cp.exec, null, [req.query.cmd]);", command),
        ("eval.call(null, req.query.code);", code),
        ("const m = await import('node:child_process'); m.exec(req.query.cmd);", command),
        ("(await import('child_process')).exec(req.query.cmd);", command),
        ("const { exec } = await import('child_process'); exec(req.query.cmd);", command),
        ("const { runInThisContext } = await import('node:vm'); runInThisContext(req.query.code);", code),
        ("import('child_process').then((m) => m.exec(req.query.cmd));", command),
        ("import('node:child_process').then(({ execSync }) => execSync(req.query.cmd));", command),
        ("[req.query.code].forEach(eval);", code),
        ("[req.query.code].forEach((c) => eval(c));", code),
        ("[req.query.cmd].map(cp.exec);", command),
        ("Promise.resolve(req.query.code).then(eval);", code),
    ]

    @Test(
        "a sink is critical however it is spelled: inline require, string-literal members, aliases, indirect eval, the global object, call/apply/Reflect.apply, dynamic import, a callback",
        arguments: spellings)
    func everySpellingOfASinkIsFound(_ spelling: (line: String, rule: String)) throws {
        let result = try Self.handler(spelling.line)
        #expect(result.parseError == nil, "\(result.parseError ?? "")")
        #expect(
            Self.critical(result).contains(spelling.rule),
            "\(spelling.line): \(result.findings.map { "\($0.ruleId):\($0.location.startLine ?? 0)" })")
    }

    @Test("an alias holds only while its name holds one value, and a global object's name bound by the file is the file's")
    func aliasesNeedOneBinding() throws {
        // `run` is reassigned: it is not `cp.exec` wherever it is called.
        let reassigned = try Self.handler("let run = cp.exec; run = console.log; run(req.query.cmd);")
        #expect(!Self.critical(reassigned).contains(Self.command), "\(reassigned.findings.map(\.ruleId))")
        // `self` is a local object here, whose `eval` method is its own.
        let local = try Self.handler("self.eval(req.query.code);", prelude: "\nconst self = { eval: (s) => s.length };")
        #expect(!Self.critical(local, line: 5).contains(Self.code), "\(local.findings.map(\.ruleId))")
        // A plain call's `call` and `apply` keep the constant they are given: no finding.
        let constant = try Self.handler("cp.exec.call(null, 'ls /tmp');")
        #expect(Self.critical(constant).isEmpty)
    }

    /// Each checks the request's value against a list built from the request itself (H9).
    static let forgedLists: [String] = [
        "const c = req.query.cmd; if (c.includes(c)) cp.exec(c);",
        "const c = req.query.cmd; if ([c].includes(c)) cp.exec(c);",
        "const c = req.query.cmd; if (new Set([req.query.cmd]).has(c)) cp.exec(c);",
        "const c = req.query.cmd; const allowed = new Set(req.query.list); if (allowed.has(c)) cp.exec(c);",
        "const c = req.query.cmd; const allowed = [c, 'ls']; if (allowed.includes(c)) cp.exec(c);",
        "const c = req.query.cmd; if (!c.includes(c)) return; cp.exec(c);",
    ]

    @Test("an allow-list built from the input vouches for nothing", arguments: forgedLists)
    func forgedAllowListsDoNotSanitize(_ line: String) throws {
        let result = try Self.handler(line)
        #expect(Self.critical(result).contains(Self.command), "\(line): \(result.findings.map(\.ruleId))")
    }

    @Test("an allow-list the program writes itself still vouches: a literal, a const binding, a module-level constant, a Set of constants")
    func ownAllowListsStillSanitize() throws {
        let prelude = "\nconst ALLOWED = new Set(['ls', 'pwd']);"
        for line in [
            "const c = req.query.cmd; if (['ls', 'pwd'].includes(c)) cp.exec(c);",
            "const c = req.query.cmd; const ok = ['ls', 'pwd']; if (ok.includes(c)) cp.exec(c);",
            "const c = req.query.cmd; if (ALLOWED.has(c)) cp.exec(c);",
            "const c = req.query.cmd; if (!ALLOWED.has(c)) return; cp.exec(c);",
        ] {
            let result = try Self.handler(line, prelude: prelude)
            #expect(Self.critical(result, line: 5).isEmpty, "\(line): \(result.findings.map(\.ruleId))")
        }
        // A TypeScript enum's values, and an imported list: the program's own.
        let enumCheck = try Self.handler(
            "const c = req.query.cmd; if (Object.values(Tool).includes(c)) cp.exec(c);", file: "app.ts",
            prelude: "\nenum Tool { List = 'ls', Here = 'pwd' }")
        #expect(Self.critical(enumCheck, line: 5).isEmpty, "\(enumCheck.findings.map(\.ruleId))")
        let imported = try Self.handler(
            "const c = req.query.cmd; if (TOOLS.includes(c)) cp.exec(c);", prelude: "\nconst { TOOLS } = require('./tools');")
        #expect(Self.critical(imported, line: 5).isEmpty, "\(imported.findings.map(\.ruleId))")
    }

    @Test("Python's `in` holds the same line: a list of the input's own values vouches for nothing, the program's constant does")
    func pythonMembershipAgrees() throws {
        let engine = try Self.shipped.get()
        let source = """
            import os
            from flask import request
            ALLOWED = ("ls", "pwd")
            def run():
                c = request.args["c"]
                if c in [c]:
                    os.system(c)
                if c in set(request.args.getlist("a")):
                    os.system(c)
                if c in ALLOWED:
                    os.system(c)

            """
        let lines = engine.scan(file: "app.py", source: source).findings.filter { $0.ruleId == "python.taint-command-injection" }
            .compactMap(\.location.startLine)
        #expect(lines == [7, 9], "\(lines)")
    }

    @Test("a finding after an HTML-like comment in a CommonJS file is reported, not the file skipped (H2)")
    func htmlCommentsDoNotHideAFile() throws {
        let source = """
            const cp = require('child_process');
            <!-- an HTML-like comment: Node runs this file
            function handler(req, res) {
              --> another, first on its line
              cp.exec(req.query.cmd);
            }
            require('express')().get('/x', handler);

            """
        for file in ["app.js", "app.cjs"] {
            let result = try Self.shipped.get().scan(file: file, source: source)
            #expect(result.parseError == nil, "\(file): \(result.parseError ?? "")")
            #expect(Self.critical(result, line: 5).contains(Self.command), "\(file): \(result.findings.map(\.ruleId))")
        }
    }
}
