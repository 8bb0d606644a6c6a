import Findings
import Foundation
import ScanCore
import Testing

@testable import Scan

/// Issue 75: JavaScript and TypeScript code whose entry points belong to a framework the engine
/// does not model is said in one warning, with each kind's count of files (and the files, for JSON
/// and SARIF), as the languages no rule reads are: "scanned" must not stand for "its request data
/// was followed".
@Suite struct FrameworkCoverageTests {
    static let heading = "frameworks and constructs not modelled (their inputs are not followed as sources)"

    static func scan(_ files: [String: String], prepare: (String) throws -> Void = { _ in }) throws -> Report {
        let root = try SecretsCoverageTests.tree(files)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try prepare(root)
        return try ScanRunner(scanners: [NativeSASTScanner(), SecretsScanner()]).run(ScanRequest(root: root), context: ScanContext())
            .report
    }

    static func unmodelled(_ report: Report) -> [Notice] {
        report.notices.filter { $0.message.hasPrefix(heading) }
    }

    /// A T3-style application: a tRPC router through a path alias, an Angular component, server
    /// templates. The tRPC procedures are modelled (their `input` is a source) and not listed.
    static let tree = [
        "tsconfig.json": """
        {
          // JSON with comments, as TypeScript reads it
          "compilerOptions": { "baseUrl": ".", "paths": { "~/*": ["./src/*"], }, },
        }
        """,
        "src/server/api/trpc.ts":
            "import { initTRPC } from '@trpc/server'\nconst t = initTRPC.create()\nexport const publicProcedure = t.procedure\n",
        "src/server/api/routers/post.ts":
            "import { publicProcedure } from '~/server/api/trpc'\nexport const byId = publicProcedure.input(s).query(({ input }) => find(input.id))\n",
        "src/server/api/routers/user.ts":
            "import { publicProcedure } from '../trpc'\nexport const rename = publicProcedure.mutation(({ input }) => save(input))\n",
        "src/lib/db.ts": "export const db = 1\n",
        "src/pages/index.tsx": "import { db } from '~/lib/db'\nexport default function Page() { return <p>{db}</p> }\n",
        "web/app/app.component.ts":
            "import { Component } from '@angular/core'\n@Component({ selector: 'app-root', templateUrl: './app.component.html' })\nexport class AppComponent {}\n",
        "web/app/app.component.html": "<h1>{{ title }}</h1>\n",
        "views/index.ejs": "<%- user.name %>\n",
        "views/layout.pug": "p= user.name\n",
        "views/card.hbs": "{{{ user.bio }}}\n",
        "views/mail.njk": "{{ user.name | safe }}\n",
    ]

    @Test("one warning lists each kind with its count of files, in the issue's order, the files in its groups")
    func eachKindIsCounted() throws {
        let report = try Self.scan(Self.tree)
        let notices = Self.unmodelled(report)
        try #require(notices.count == 1, "\(report.notices.map(\.message))")
        let notice = notices[0]
        #expect(
            notice.message
                == Self.heading
                + ": Angular templates in 1 file, TypeScript path aliases not resolved in 2 files, "
                + "EJS templates in 1 file, Pug templates in 1 file, Handlebars templates in 1 file, Nunjucks templates in 1 file")
        #expect(notice.level == .warning)
        #expect(notice.file == nil)
        #expect(
            notice.fileGroups == [
                Notice.FileGroup(kind: "Angular templates", files: ["web/app/app.component.html"]),
                Notice.FileGroup(
                    kind: "TypeScript path aliases not resolved", files: ["src/pages/index.tsx", "src/server/api/routers/post.ts"]),
                Notice.FileGroup(kind: "EJS templates", files: ["views/index.ejs"]),
                Notice.FileGroup(kind: "Pug templates", files: ["views/layout.pug"]),
                Notice.FileGroup(kind: "Handlebars templates", files: ["views/card.hbs"]),
                Notice.FileGroup(kind: "Nunjucks templates", files: ["views/mail.njk"]),
            ])
        // tRPC's procedures are followed by the rules: neither named nor their files listed (but
        // `post.ts`, for its import through an alias).
        #expect(!notice.message.contains("tRPC"))
        #expect(!(notice.fileGroups ?? []).contains { $0.files.contains("src/server/api/routers/user.ts") })
        // The text report prints the message on one line, as the language notice's.
        #expect(TextRenderer().render(report).split(separator: "\n").contains { $0 == "warning: " + notice.message })
    }

    @Test("the notice is said alike in JSON (its file groups) and SARIF (a location per file, its kind the message)")
    func jsonAndSARIFCarryTheFiles() throws {
        let report = try Self.scan(Self.tree)
        let json = try JSONSerialization.jsonObject(with: Data(JSONRenderer().render(report).utf8)) as? [String: Any]
        let notices = (json?["summary"] as? [String: Any])?["notices"] as? [[String: Any]] ?? []
        let groups = notices.first { ($0["message"] as? String)?.hasPrefix(Self.heading) == true }?["fileGroups"] as? [[String: Any]]
        #expect(groups?.first?["kind"] as? String == "Angular templates")
        #expect(groups?.first?["files"] as? [String] == ["web/app/app.component.html"])
        #expect(groups?.contains { ($0["kind"] as? String)?.contains("tRPC") == true } == false)

        let sarif = try JSONSerialization.jsonObject(with: Data(SARIFRenderer().render(report).utf8)) as? [String: Any]
        let invocations = (sarif?["runs"] as? [[String: Any]])?.flatMap { $0["invocations"] as? [[String: Any]] ?? [] } ?? []
        let notifications = invocations.flatMap { $0["toolExecutionNotifications"] as? [[String: Any]] ?? [] }
        let notification = try #require(
            notifications.first { (($0["message"] as? [String: Any])?["text"] as? String)?.hasPrefix(Self.heading) == true })
        #expect(notification["level"] as? String == "warning")
        let locations = notification["locations"] as? [[String: Any]] ?? []
        let pairs = locations.map { location in
            let uri = ((location["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
            return "\((location["message"] as? [String: Any])?["text"] as? String ?? ""): \(uri ?? "")"
        }
        #expect(pairs.count == 7)
        #expect(pairs.contains("Angular templates: web/app/app.component.html"))
        #expect(pairs.contains("Nunjucks templates: views/mail.njk"))
        #expect(pairs.contains("TypeScript path aliases not resolved: src/server/api/routers/post.ts"))
        let html = HTMLRenderer().render(report)
        #expect(html.contains("<summary>Angular templates (1)</summary>"))
        #expect(html.contains("<summary>TypeScript path aliases not resolved (2)</summary>"))
        #expect(!html.contains("tRPC procedures"))
    }

    @Test("a tree without them says nothing: Express with relative imports, a tsconfig without paths, a Jinja template")
    func plainTreeSaysNothing() throws {
        let report = try Self.scan([
            "tsconfig.json": "{ \"compilerOptions\": { \"strict\": true } }\n",
            "src/app.ts":
                "import express from 'express'\nimport { find } from './db'\nconst app = express()\napp.get('/', (req, res) => res.send(find(req.query.id)))\n",
            "src/db.ts": "export function find(id: string) { return id }\n",
            "templates/index.html": "<p>{{ name }}</p>\n",
            "app.py": "print(1)\n",
        ])
        #expect(Self.unmodelled(report).isEmpty, "\(report.notices.map(\.message))")
        #expect(!report.notices.contains { $0.message.hasPrefix("path aliases not read") })
    }

    @Test("hostile configs (not JSON, nested deep, huge, a symbolic link) crash nothing and give at most a note naming each")
    func hostileConfigs() throws {
        let importer = "import { db } from '@/lib/db'\nexport const x = db\n"
        let paths = "{\"compilerOptions\": {\"paths\": {\"@/*\": [\"./*\"]}}}"
        let outside = NSTemporaryDirectory() + "sentinel-tsconfig-\(UUID().uuidString).json"
        try paths.write(toFile: outside, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let report = try Self.scan(
            [
                "a/tsconfig.json": "<?xml version=\"1.0\"?><project/>", "a/page.ts": importer,
                "b/tsconfig.json": String(repeating: "[", count: 200_000), "b/page.ts": importer,
                "c/tsconfig.json": "{\"compilerOptions\": {\"paths\": {\"@/*\": [\"./*\"]}}, \"pad\": \""
                    + String(repeating: "x", count: 2 << 20) + "\"}",
                "c/page.ts": importer,
                "d/page.ts": importer,
            ],
            prepare: { root in try FileManager.default.createSymbolicLink(atPath: root + "/d/tsconfig.json", withDestinationPath: outside) }
        )
        // No config was read: no file imports through an alias the scan knows.
        #expect(Self.unmodelled(report).isEmpty, "\(report.notices.map(\.message))")
        for config in ["a/tsconfig.json", "b/tsconfig.json", "c/tsconfig.json"] {
            let notes = report.notices.filter { $0.file == config }
            #expect(notes.count == 1, "\(config): \(notes)")
            #expect(notes.allSatisfy { $0.level == .info && $0.message.hasPrefix("path aliases not read: ") })
        }
        #expect(report.notices.first { $0.file == "c/tsconfig.json" }?.message == "path aliases not read: larger than 1048576 bytes")
        // The link is never followed: the walk leaves it out, and nothing reads it.
        #expect(!report.notices.contains { $0.file == "d/tsconfig.json" })
    }
}
