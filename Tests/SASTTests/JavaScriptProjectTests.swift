import Findings
import Foundation
import TestSupport
import JavaScriptLowering
import Testing

@testable import SAST

/// Issue 60: cross-module summaries for JavaScript and TypeScript, as for Python — a flow from an
/// Express handler into a helper module it imports (`require('../db/users')`, `import { f } from
/// './f'`) is followed into the helper, whichever way the helper exports its function, and a
/// Python project beside it gives the findings it gave alone.
@Suite struct JavaScriptProjectTests {
    static let rule =
        javaScriptRequestTaint + """
            sinks:
              - pattern: $POOL.query($SQL, ...)
                focus: $SQL
            sanitizers:
              - pattern: parseInt(...)

            """

    static func engine(pythonRule: Bool = false) throws -> SASTEngine {
        var rules = [
            try RuleLoader.parse(
                "id: javascript.sql\nmessage: found\nseverity: high\nlanguages: [javascript, typescript]\ncwe: [89]\n" + rule,
                file: "javascript.sql.yaml")
        ]
        if pythonRule {
            rules.append(
                try RuleLoader.parse(
                    "id: python.command\nmessage: found\nseverity: high\nlanguages: [python]\ncwe: [78]\n" + DataflowTests.rule,
                    file: "python.command.yaml"))
        }
        return SASTEngine(rules: try RuleSet(rules: rules))
    }

    /// An Express application in CommonJS: each route calls a helper another module exports in
    /// one of CommonJS's ways.
    static let commonJS = [
        "routes/users.js": """
        const express = require('express');
        const db = require('../db/users');
        const audit = require('../db/audit');
        const { toId } = require('../lib/clean');
        const run = require('../lib/run');
        const { mailer } = require('../lib/mailer');
        const router = express.Router();

        router.get('/find', function (req, res) {
          res.json(db.find(req.query.id));
        });
        router.get('/safe', function (req, res) {
          res.json(db.find(toId(req.query.id)));
        });
        router.get('/audit', function (req, res) {
          audit.record(req.query.note);
        });
        router.get('/run', function (req, res) {
          run(req.query.name);
        });
        router.get('/count', function (req, res) {
          res.json(db.count(req.query.id));
        });
        router.delete('/user', function (req, res) {
          res.json(db.remove(req.query.id));
        });
        router.post('/mail', function (req, res) {
          mailer.queue(req.query.to);
        });
        module.exports = router;

        """,
        "db/users.js": """
        const { Pool } = require('pg');
        const pool = new Pool();

        function find(id) {
          return pool.query('SELECT * FROM users WHERE id = ' + id);
        }

        function count(filter) {
          return pool.query('SELECT count(*) FROM users');
        }

        function removeUser(id) {
          return pool.query('DELETE FROM users WHERE id = ' + id);
        }

        module.exports = { find, count, remove: removeUser };

        """,
        "db/audit.js": """
        const { Pool } = require('pg');
        const pool = new Pool();

        exports.record = function (entry) {
          return pool.query(`INSERT INTO audit VALUES ('${entry}')`);
        };

        """,
        "lib/clean.js": """
        module.exports.toId = function (value) {
          return parseInt(value, 10);
        };

        """,
        "lib/mailer.js": """
        const { Pool } = require('pg');
        const pool = new Pool();

        const mailer = {
          queue(address) {
            return pool.query("INSERT INTO mail VALUES ('" + address + "')");
          },
        };
        module.exports = { mailer };

        """,
        "lib/run.js": """
        const { Pool } = require('pg');
        const pool = new Pool();

        module.exports = function (name) {
          return pool.query('SELECT * FROM jobs WHERE name = ' + name);
        };

        """,
    ]

    /// The same in TypeScript with ES modules: named, default and class exports, and a package
    /// (`services/index.ts`) that defines one helper and passes another on.
    static let typeScript = [
        "routes/items.ts": """
        import { Router } from 'express';
        import { search } from '../services/search.js';
        import lookup from '../services/lookup';
        import { ItemsService } from '../services/items.service';
        import { ping } from '../services';
        import * as services from '../services';
        export const router = Router();

        router.get('/search', async (req, res) => {
          res.json(await search(req.query.q as string));
        });
        router.get('/lookup', async (req, res) => {
          res.json(await lookup(req.query.q));
        });
        router.get('/items', async (req, res) => {
          res.json(await ItemsService.find(req.query.id));
        });
        router.get('/ping', async (req, res) => {
          res.json(await ping(req.query.host));
        });
        router.get('/archive', async (req, res) => {
          res.json(await services.archive(req.query.id));
        });

        """,
        "services/search.ts": """
        import { pool } from './pool';

        export async function search(term: string) {
          return pool.query(`SELECT * FROM items WHERE name LIKE '%${term}%'`);
        }

        """,
        "services/lookup.ts": """
        import { pool } from './pool';

        export default function lookup(code: string) {
          return pool.query("SELECT * FROM items WHERE code = '" + code + "'");
        }

        """,
        "services/items.service.ts": """
        import { pool } from './pool';

        export class ItemsService {
          static find(id: string) {
            return pool.query('SELECT * FROM items WHERE id = ' + id);
          }
        }

        """,
        "services/index.ts": """
        import { pool } from './pool';
        export { archive } from './archive';

        export function ping(host: string) {
          return pool.query('SELECT ' + host);
        }

        """,
        "services/archive.ts": """
        import { pool } from './pool';

        export function archive(id: string) {
          return pool.query('DELETE FROM items WHERE id = ' + id);
        }

        """,
    ]

    /// Writes `files` into a fresh directory and scans them there as one project.
    static func scan(_ files: [String: String], engine: SASTEngine) throws -> [String: FileScanResult] {
        let root = try TemporaryDirectory.make("jsproject")
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (path, text) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let names = files.keys.sorted()
        let results = engine.scanProject(
            files: names,
            read: { file in (try? Data(contentsOf: URL(fileURLWithPath: root + "/" + file))).map { String(decoding: $0, as: UTF8.self) } })
        var out: [String: FileScanResult] = [:]
        for (name, result) in zip(names, results) { out[name] = result }
        return out
    }

    static func lines(_ result: FileScanResult?) -> [Int] { result?.findings.compactMap(\.location.startLine) ?? [] }

    @Test(
        "require of a relative module: module.exports = {f, g: h}, exports.f = function, module.exports = function; a sanitiser in a helper cleans"
    )
    func commonJSHelpers() throws {
        let results = try Self.scan(Self.commonJS, engine: try Self.engine())
        let routes = try #require(results["routes/users.js"])
        #expect(routes.parseError == nil)
        // /find, /audit, /run, /user and /mail reach the helpers' queries; /safe passes through
        // `toId` first; `count` drops its argument.
        #expect(Self.lines(routes) == [10, 16, 19, 25, 28], "\(routes.findings.map(\.message))")
        let flows = routes.findings.map { $0.codeFlow.last?.location }
        #expect(flows.map { $0?.file } == ["db/users.js", "db/audit.js", "lib/run.js", "db/users.js", "lib/mailer.js"])
        #expect(flows.map { $0?.startLine } == [5, 5, 5, 13, 6])
        // The call is named as written, not as the lowering's relative module.
        #expect(routes.findings.map { $0.codeFlow.map(\.message) }.first == ["source: req.query", "calls db.find()", "sink: pool.query"])
        #expect(
            routes.findings.map { $0.codeFlow[1].message } == [
                "calls db.find()", "calls audit.record()", "calls run()", "calls db.remove()", "calls mailer.queue()",
            ])
        // The helpers have no source of their own.
        for helper in ["db/users.js", "db/audit.js", "lib/clean.js", "lib/run.js", "lib/mailer.js"] {
            #expect(Self.lines(results[helper]).isEmpty, "\(helper)")
        }
    }

    @Test("ES imports in TypeScript: export function, export default, a class's static method, an index.ts package and what it passes on")
    func typeScriptHelpers() throws {
        let results = try Self.scan(Self.typeScript, engine: try Self.engine())
        let routes = try #require(results["routes/items.ts"])
        #expect(routes.parseError == nil)
        #expect(Self.lines(routes) == [10, 13, 16, 19, 22], "\(routes.findings.map(\.message))")
        #expect(
            routes.findings.map { $0.codeFlow.last?.location.file } == [
                "services/search.ts", "services/lookup.ts", "services/items.service.ts", "services/index.ts", "services/archive.ts",
            ])
    }

    @Test("the same handlers without the helpers' files find nothing: the flows above are the summaries'")
    func helpersAreNeeded() throws {
        let alone = try Self.scan(["routes/users.js": Self.commonJS["routes/users.js"]!], engine: try Self.engine())
        #expect(Self.lines(alone["routes/users.js"]).isEmpty)
        let ts = try Self.scan(["routes/items.ts": Self.typeScript["routes/items.ts"]!], engine: try Self.engine())
        #expect(Self.lines(ts["routes/items.ts"]).isEmpty)
    }

    @Test("a Python project beside the JavaScript one finds what it finds alone, even where a .js and a .py share a module path")
    func pythonUnchanged() throws {
        var python = DataflowTests.helperProject
        python["app/helpers/extra.py"] = "import os\n\ndef find(id):\n    os.system(id)\n"
        var mixed = python.merging(Self.commonJS) { $1 }
        // A JavaScript `app/helpers/utils.js` is no Python module `app.helpers.utils`, nor the other way round.
        mixed["app/helpers/utils.js"] = "exports.run = function (cmd) { return cmd; };\n"
        mixed["app/views.js"] =
            "const u = require('./helpers/utils');\nconst e = require('./helpers/extra');\n"
            + "function h(req, res) { u.run(req.query.c); e.find(req.query.c); }\n"
        let engine = try Self.engine(pythonRule: true)
        let alone = try Self.scan(python, engine: engine)
        let together = try Self.scan(mixed, engine: engine)
        for file in python.keys.sorted() {
            #expect(together[file]?.findings == alone[file]?.findings, "\(file)")
        }
        #expect(Self.lines(alone["app/views.py"]) == [6])
        // The JavaScript handler's helpers are JavaScript's: `./helpers/extra` has no `.js` file, and
        // `utils.js`'s `run` returns its argument without a sink.
        #expect(Self.lines(together["app/views.js"]).isEmpty)
        #expect(Self.lines(together["routes/users.js"]) == [10, 16, 19, 25, 28])
    }

    @Test("an import cycle between two JavaScript files (and a file requiring itself) terminates, the flow followed")
    func importCycleTerminates() throws {
        let files = [
            "cycle/a.js": """
            const b = require('./b');
            const self = require('./a');
            function handler(req, res) { b.left(req.query.x); }
            exports.right = function (v) { return b.left(self.right(v)); };

            """,
            "cycle/b.js": """
            const a = require('./a');
            const { Pool } = require('pg');
            const pool = new Pool();
            exports.left = function (v) { pool.query('SELECT ' + v); return a.right(v); };

            """,
        ]
        let results = try Self.scan(files, engine: try Self.engine())
        #expect(Self.lines(results["cycle/a.js"]) == [3])
        #expect(Self.lines(results["cycle/b.js"]).isEmpty)
    }

    @Test("a file as deep as the parser reads has its imports noted (on a large stack); one deeper imports nothing")
    func deepFilesAreNoted() {
        let project = ProjectSummaries(files: ["a.js", "b.js", "c.js"])
        let chain = "x = " + Array(repeating: "b.f(a)", count: 1_500).joined(separator: " + ") + ";\n"
        let nested = "y = " + String(repeating: "[", count: 190) + "b.g" + String(repeating: "]", count: 190) + ";\n"
        project.noteImports(of: "a.js", text: "const b = require('./b');\n" + chain + nested)
        #expect(project.imports(of: "a.js") == ["-js.b"])
        #expect(project.isImported("f", from: "-js.b") && project.isImported("g", from: "-js.b"))
        let tooDeep = String(repeating: "(", count: 100_000) + "b.h" + String(repeating: ")", count: 100_000)
        project.noteImports(of: "c.js", text: "const b = require('./b');\nz = " + tooDeep + ";\n")
        #expect(project.imports(of: "c.js").isEmpty)
    }

    @Test(
        "JavaScript files are modules named as their relative specifiers name them",
        arguments: [
            ("routes/users.js", "-js.routes.users"), ("db/index.ts", "-js.db"), ("index.mjs", "-js"),
            ("src/user-service.ts", "-js.src.user-service"), ("src/users/users.service.ts", "-js.src.users.users:service"),
            ("components/Nav.vue", "-js.components.Nav"), ("app/db.py", "app.db"),
        ])
    func moduleNames(file: String, module: String) {
        let project = ProjectSummaries(files: [file])
        #expect(project.module(of: file) == module)
        #expect(project.modules[module] == file)
    }

    @Test("type declarations, and paths no relative specifier names, are no modules")
    func noModules() {
        let files = ["types/user.d.ts", "lib/x.d.mts", "a/../b.js", "README.md", "a/.hidden/x.py"]
        let project = ProjectSummaries(files: files)
        for file in files { #expect(project.module(of: file) == nil, "\(file)") }
    }

    @Test("foo.ts beside foo.js, and foo.js beside foo/index.js: one is the module, whatever the files' order")
    func duplicateNamesPickOne() {
        for files in [["lib/foo.js", "lib/foo.ts", "lib/foo/index.js"], ["lib/foo/index.js", "lib/foo.ts", "lib/foo.js"]] {
            let project = ProjectSummaries(files: files)
            #expect(project.modules["-js.lib.foo"] == "lib/foo.ts")
        }
        #expect(ProjectSummaries(files: ["x/index.js", "x.jsx"]).modules["-js.x"] == "x.jsx")
    }

    @Test("a Python import never resolves to a JavaScript module, nor a JavaScript one to Python's")
    func namespacesApart() {
        let project = ProjectSummaries(files: ["app/db.py", "app/db.js", "lib/util.js"])
        #expect(project.resolveModule("app.db") == "app.db")
        #expect(project.resolveModule("-js.app.db") == nil)
        // A suffix (`util` of a `src/` layout) is Python's only.
        #expect(project.resolveModule("util") == nil)
        #expect(project.resolveModule("app.db", in: JavaScriptLanguage.javaScript.modules) == nil)
        #expect(project.resolveModule("-js.app.db", in: JavaScriptLanguage.javaScript.modules) == "-js.app.db")
    }

    @Test(
        "what a JavaScript file imports is noted from its lowered tree: modules, names, whole-module bindings and what is read through them"
    )
    func importsNoted() {
        let project = ProjectSummaries(files: ["routes/a.js", "db/users.js", "db/index.js", "lib/f.ts"])
        project.noteImports(
            of: "routes/a.js",
            text: "const db = require('../db/users');\nimport f from '../lib/f';\nconst { x } = require('../db');\n"
                + "db.find(1);\ndb[no];\ndb['byKey'];\nf(2);\nrequire('express');\n")
        #expect(project.imports(of: "routes/a.js") == ["-js.db.users", "-js.lib.f", "-js.db"])
        #expect(project.isImported("find", from: "-js.db.users"))
        // A computed key names no member; a literal one is the member (issue 76: `db['byKey']` is `db.byKey`).
        #expect(!project.isImported("no", from: "-js.db.users"))
        #expect(project.isImported("byKey", from: "-js.db.users"))
        #expect(project.isImported("default", from: "-js.lib.f"))
        #expect(project.isImported("x", from: "-js.db"))
        // JavaScript's packages are not the Python code's frameworks.
        #expect(project.importedTopLevelModules.isEmpty)
        // A file that does not parse imports nothing.
        project.noteImports(of: "db/users.js", text: "const a = require('./index'); let = ;")
        #expect(project.imports(of: "db/users.js").isEmpty)
    }
}
