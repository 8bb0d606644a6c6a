import Foundation
import Testing

/// Issue 76, H1 and H2 end to end: `sentinel scan` over a JavaScript project whose sinks are spelled
/// as Node allows (inline `require`, string-literal members, aliases, indirect eval, the global
/// object, `call`/`apply`/`Reflect.apply`, dynamic `import`, a callback) and one whose CommonJS file
/// holds HTML-like comments. Each is critical and fails the gate (exit 1), not clean (exit 0).
@Suite(.serialized) struct HostileJavaScriptCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
    var environment: [String: String] { CLI.environment(home: home) }

    /// `(ruleId, file, line, severity)` of every finding of a JSON report.
    static func findings(_ stdout: String) throws -> [(rule: String, file: String, line: Int, severity: String)] {
        let json = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        return (json?["findings"] as? [[String: Any]] ?? []).map { finding in
            let location = finding["location"] as? [String: Any]
            return (
                finding["ruleId"] as? String ?? "", location?["file"] as? String ?? "", location?["startLine"] as? Int ?? 0,
                finding["severity"] as? String ?? ""
            )
        }
    }

    /// One handler per spelling, each on its own line (line N+4 for the Nth).
    static let spellings = [
        "require('child_process').exec(req.query.a);",
        "require('vm').runInNewContext(req.query.a);",
        "cp['exec'](req.query.a);",
        "cp.exec(req['query']['a']);",
        "const run = cp.exec; run(req.query.a);",
        "const e = eval; e(req.query.a);",
        "(0, eval)(req.query.a);",
        "globalThis.eval(req.query.a);",
        "cp.exec.call(null, req.query.a);",
        "cp.exec.apply(null, [req.query.a]);",
        "Reflect.apply(eval, null, [req.query.a]);",
        "const m = await import('node:child_process'); m.exec(req.query.a);",
        "[req.query.a].forEach(eval);",
    ]

    @Test func everySpellingOfASinkFailsTheGate() throws {
        let handlers = Self.spellings.enumerated().map { i, line in "app.get('/\(i)', async (req, res) => { \(line) });" }
        let source =
            "const express = require('express');\nconst cp = require('child_process');\nconst app = express();\n"
            + handlers.joined(separator: "\n") + "\n"
        let root = try CLI.tree(texts: ["server.js": source], prefix: "sentinel-jsvalues")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        let scan = try CLI.run(["scan", root, "--tools", "native", "--format", "json"], environment: environment)
        #expect(scan.status == 1, "\(scan.stderr)")
        let found = try Self.findings(scan.stdout)
        for (i, line) in Self.spellings.enumerated() {
            #expect(
                found.contains { $0.file == "server.js" && $0.line == i + 4 && $0.severity == "critical" },
                "\(line): \(found.filter { $0.line == i + 4 })")
        }
    }

    @Test func aCommonJSFileWithHTMLLikeCommentsIsScannedNotSkipped() throws {
        let source = """
            const cp = require('child_process');
            <!-- Node reads this as a comment (Annex B) and runs the file
            require('express')().get('/x', (req, res) => {
              --> so is this, first on its line
              cp.exec(req.query.cmd);
            });

            """
        let root = try CLI.tree(texts: ["legacy.js": source], prefix: "sentinel-htmlcomment")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        let scan = try CLI.run(["scan", root, "--tools", "native", "--format", "json"], environment: environment)
        #expect(scan.status == 1, "\(scan.stderr)")
        #expect(!scan.stderr.contains("file skipped"), "\(scan.stderr)")
        let found = try Self.findings(scan.stdout)
        #expect(
            found.contains { $0.rule == "javascript.taint-command-injection" && $0.line == 5 && $0.severity == "critical" },
            "\(found)")
    }
}
