import Foundation
import Languages
import Testing

@testable import SAST

/// Issue 75: what a JavaScript or TypeScript file shows of the frameworks and constructs the
/// engine does not model, read from its lowered tree, and the tree-wide survey a scan's notice is
/// made of: each kind found by evidence, never by a file's name alone.
@Suite struct UnmodelledConstructsTests {
    static func evidence(_ code: String, file: String = "src/a.ts") throws -> FrameworkEvidence {
        let language = SourceLanguage(fileName: file) ?? .typescript
        return FrameworkEvidence(root: try SourceFrontEnd.parse(bytes: Array(code.utf8), file: file, language: language).root)
    }

    static func survey(
        _ sources: [String: String], others: [String] = [], configs: [String: String] = [:]
    ) throws -> [UnmodelledConstructs.Kind: [String]] {
        var evidence: [String: FrameworkEvidence] = [:]
        for (file, code) in sources { evidence[file] = try Self.evidence(code, file: file) }
        let aliases = try configs.map { try PathAliases(file: $0.key, bytes: Array($0.value.utf8)) }
        let found = UnmodelledConstructs.survey(
            files: Array(sources.keys) + others + Array(configs.keys), evidence: evidence, aliases: aliases)
        return Dictionary(uniqueKeysWithValues: found.map { ($0.kind, $0.files) })
    }

    @Test("imports are read as the lowering names them: packages and aliases as written, require and dynamic import too")
    func importsAsWritten() throws {
        let facts = try Self.evidence(
            """
            import { Component } from '@angular/core';
            import db from '@/lib/db';
            const fs = require('node:fs');
            export * from '~/shared';
            async function f() { const m = await import('@/lazy'); require('@/side-effect'); }
            import { helper } from './helper';
            """)
        #expect(facts.imports.isSuperset(of: ["@angular/core", "@/lib/db", "fs", "~/shared", "@/lazy", "@/side-effect", ".helper"]))
    }

    @Test("an Angular component's templateUrl and inline template are read from its decorator")
    func angularComponents() throws {
        let facts = try Self.evidence(
            """
            import { Component } from '@angular/core';
            @Component({ selector: 'app-a', templateUrl: './a.component.html' })
            export class AComponent {}
            @Component({ selector: 'app-b', template: `<p>{{ name }}</p>` })
            export class BComponent {}
            """)
        #expect(facts.templateURLs == ["./a.component.html"])
        #expect(facts.hasInlineTemplate)
        #expect(try Self.evidence("export class Plain { template = '<p>'; templateUrl = 'x.html' }").isEmpty)
    }

    @Test("tRPC procedures are not listed: the rules follow their input (a resolver alone, assigned, a router's entry)")
    func trpcIsModelled() throws {
        let found = try Self.survey([
            "src/server/trpc.ts":
                "import { initTRPC } from '@trpc/server'\nconst t = initTRPC.create()\nexport const publicProcedure = t.procedure\n",
            "src/server/routers/post.ts":
                "import { publicProcedure, router } from '../trpc'\n"
                + "export const postRouter = router({ byId: publicProcedure.input(s).query(({ input }) => find(input.id)) })\n",
            "src/direct.ts":
                "import { initTRPC } from '@trpc/server'\nconst t = initTRPC.create()\n"
                + "export const set = t.procedure.input(s).mutation(({ input }) => save(input))\n",
        ])
        #expect(found.isEmpty)
        #expect(!UnmodelledConstructs.Kind.allCases.contains { $0.label.contains("tRPC") })
    }

    @Test("Angular templates: the templateUrl files that exist, the components with inline templates, only under @angular/core")
    func angularSurvey() throws {
        let component = "import { Component } from '@angular/core'\n@Component({ templateUrl: './a.html' })\nexport class A {}\n"
        let found = try Self.survey(
            [
                "app/a.component.ts": component,
                "app/b.component.ts": "import { Component } from '@angular/core'\n@Component({ template: '<i></i>' })\nexport class B {}\n",
                "app/c.component.ts":
                    "import { Component } from '@angular/core'\n@Component({ templateUrl: 'missing.html' })\nexport class C {}\n",
                // Not Angular's decorator: no import of @angular/core.
                "lib/d.ts": "@Component({ templateUrl: './d.html' })\nexport class D {}\n",
            ],
            others: ["app/a.html", "lib/d.html"])
        #expect(found[.angularTemplates] == ["app/a.html", "app/b.component.ts"])
    }

    @Test("path aliases: the files whose imports match a config's paths above them; a catch-all counts only when it names a project file")
    func pathAliasSurvey() throws {
        let found = try Self.survey(
            [
                "web/src/page.tsx": "import db from '@/lib/db'\nimport React from 'react'\n",
                "web/src/lib/db.ts": "export default 1\n",
                "web/src/exact.ts": "import cfg from '@config'\n",
                "web/src/plain.ts": "import React from 'react'\nimport { x } from './lib/db'\n",
                "api/src/index.ts": "import db from '@/lib/db'\n",
                "web/src/stub.ts": "import types from 'types-only'\nimport missing from 'no-such-package'\n",
                "web/types/types-only.ts": "export {}\n",
            ],
            configs: [
                "web/tsconfig.json": """
                {
                  /* comments and trailing commas: TypeScript's JSON */
                  "compilerOptions": {
                    "baseUrl": ".",
                    "paths": { "@/*": ["src/*"], "@config": ["src/config.ts"], "*": ["types/*"], },
                  },
                }
                """
            ])
        // `api/` is not under the config's directory: its `@/` is some other tool's.
        #expect(found[.pathAliases] == ["web/src/exact.ts", "web/src/page.tsx", "web/src/stub.ts"])
    }

    @Test("server templates the JavaScript engine does not read, by their format; Jinja and Django templates are read and not listed")
    func serverTemplates() throws {
        let found = try Self.survey(
            [:],
            others: [
                "views/a.ejs", "views/b.pug", "views/c.jade", "views/d.hbs", "views/e.handlebars", "views/f.njk", "templates/g.html",
                "h.j2",
            ])
        #expect(found[.ejsTemplates] == ["views/a.ejs"])
        #expect(found[.pugTemplates] == ["views/b.pug", "views/c.jade"])
        #expect(found[.handlebarsTemplates] == ["views/d.hbs", "views/e.handlebars"])
        #expect(found[.nunjucksTemplates] == ["views/f.njk"])
        #expect(found.count == 4)
    }

    @Test("a plain Express application has nothing to say")
    func plainTreeSaysNothing() throws {
        let found = try Self.survey(
            [
                "app.js":
                    "const express = require('express')\nconst db = require('./db')\napp.get('/', (req, res) => db.query(req.query.q))\n",
                "db.js": "module.exports = { query: (q) => pool.query(q) }\n",
            ],
            others: ["templates/index.html"],
            configs: ["tsconfig.json": "{\"compilerOptions\": {\"strict\": true}}"])
        #expect(found.isEmpty)
    }

    @Test("a hostile config: not JSON, nested past the reader's bound, aliases leaving the tree, two stars, thousands of entries")
    func hostileConfigs() throws {
        #expect(throws: (any Error).self) { try PathAliases(file: "tsconfig.json", bytes: Array("<?xml version='1.0'?>".utf8)) }
        let deep = String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        #expect(throws: (any Error).self) { try PathAliases(file: "tsconfig.json", bytes: Array(deep.utf8)) }
        let deepArray = "{\"compilerOptions\": {\"paths\": {\"@/*\": " + String(repeating: "[", count: 100_000) + "}}}"
        #expect(throws: (any Error).self) { try PathAliases(file: "tsconfig.json", bytes: Array(deepArray.utf8)) }
        // `paths` of the wrong shape, targets outside the tree, a pattern TypeScript rejects: no alias that matches.
        let odd = try PathAliases(
            file: "tsconfig.json",
            bytes: Array(#"{"compilerOptions": {"paths": {"@/*": "src/*", "a/*/b/*": ["x/*"], "*": ["../../etc/*", "/abs/*"]}}}"#.utf8))
        // The catch-all counts only through a target, and both of its leave the tree.
        #expect(!odd.resolves("passwd", exists: { _ in true }))
        #expect(!odd.resolves("a/1/b/2", exists: { _ in true }))
        let many = (0..<5000).map { "\"p\($0)/*\": [\"src/*\"]" }.joined(separator: ",")
        let bounded = try PathAliases(file: "tsconfig.json", bytes: Array("{\"compilerOptions\": {\"paths\": {\(many)}}}".utf8))
        #expect(bounded.declaredCount == 5000)
        #expect(bounded.aliases.count == PathAliases.maxAliases)
    }

    @Test("which files are configs: tsconfig.json, jsconfig.json, tsconfig.*.json")
    func configNames() {
        #expect(PathAliases.isConfig("tsconfig.json"))
        #expect(PathAliases.isConfig("packages/web/jsconfig.json"))
        #expect(PathAliases.isConfig("tsconfig.base.json"))
        #expect(!PathAliases.isConfig("tsconfig..json"))
        #expect(!PathAliases.isConfig("package.json"))
        #expect(!PathAliases.isConfig("mytsconfig.json"))
    }
}
