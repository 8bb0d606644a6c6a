import Foundation
import Testing

/// Issue 76, "nothing is skipped silently": a file too large to analyse, a script named for no
/// language, code under a nested `build/` are analysed or fail the gate with the reason; and no
/// line printed from a repository's text is a CI runner's workflow command.
struct NothingSkippedCLITests {
    /// The `location.file ruleId` of each finding of a JSON report.
    private func findings(_ stdout: String) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        return (report["findings"] as? [[String: Any]] ?? []).map { finding in
            "\((finding["location"] as? [String: Any])?["file"] ?? "") \(finding["ruleId"] ?? "")"
        }.sorted()
    }

    /// H3: a 5 MB comment appended to a file with a critical finding used to turn the scan green
    /// (the file skipped with a note). The file is a high finding now, and the default gate fails.
    @Test func aSourceFileOverTheSizeLimitFailsTheDefaultGate() throws {
        let padding = "# " + String(repeating: "x", count: 1 << 20) + "\n"
        let source = "import os\nos.system(input())\n" + String(repeating: padding, count: 6)
        let root = try CLI.tree(texts: ["app.py": source, "data.csv": String(repeating: "1,2\n", count: 2 << 20)], prefix: "oversize")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(["scan", root, "--allow-missing-db", "--format", "json"], timeout: 120)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(try findings(result.stdout) == ["app.py sentinel.file-not-analysed"], "\(result.stdout.prefix(2000))")
        #expect(result.stdout.contains("not analysed: larger than --max-file-size (6.0M > 5.0M)"))
        // Data over the limit is not code: still a skipped file, said so, not a finding.
        let text = try CLI.run(["scan", root, "--allow-missing-db", "--fail-on", "none"], timeout: 120)
        #expect(text.stdout.contains("data.csv: note: skipped: larger than --max-file-size (8.0M > 5.0M)"), "\(text.stdout)")
        #expect(text.stdout.contains("app.py: high: [sentinel.file-not-analysed] not analysed: larger than --max-file-size"))
    }

    /// H16: code outside recognised names was counted as scanned, not analysed.
    @Test func scriptsAreAnalysedByTheirShebangAndOddNames() throws {
        let python = "import os, sys\nos.system(sys.argv[1])\n"
        let node = """
            const express = require('express')
            const { exec } = require('child_process')
            const app = express()
            app.post('/ping', (req, res) => { exec('ping -c 2 ' + req.body.host) })

            """
        let root = try CLI.tree(
            texts: [
                "cgi-bin/ping.cgi": "#!/usr/bin/python3\n" + python, "bin/deploy.prod": "#!/usr/bin/env python3\n" + python,
                "app.wsgi": python, "bin/serve": "#!/usr/bin/env node\n" + node,
                "bin/tool.run": "#!/usr/bin/env -S node --no-warnings\n" + node,
                "bin/clean": "#!/bin/bash\nrm -rf \"$1\"\n",
            ], prefix: "scripts")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(
            ["scan", root, "--allow-missing-db", "--min-confidence", "low", "--format", "json", "--fail-on", "none"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let files = Set(try findings(result.stdout).map { String($0.split(separator: " ")[0]) })
        #expect(files == ["cgi-bin/ping.cgi", "bin/deploy.prod", "app.wsgi", "bin/serve", "bin/tool.run"], "\(result.stdout.prefix(3000))")
        // A script no front end reads is listed as not analysed, and not counted as scanned.
        let text = try CLI.run(["scan", root, "--allow-missing-db", "--fail-on", "none"], timeout: 120)
        #expect(text.stdout.contains("warning: code not analysed (no rules for its language yet): 1 bash script file"), "\(text.stdout)")
        #expect(text.stdout.contains("(5 files scanned in"), "\(text.stdout)")
    }

    /// H6: a `<script` in a comment, an attribute or a `<style>` swallowed the real script (the
    /// component was skipped as a syntax error), and `lang = "ts"` was read as JavaScript.
    @Test func aComponentsScriptIsFoundAsItsCompilerFindsIt() throws {
        let component = """
            <!-- the old <script> block was here -->
            <template><p title="<script>">hi</p></template>
            <script setup lang = "ts">
            const el = document.getElementById('out') as HTMLElement
            el.innerHTML = location.hash
            </script>
            <style>.a::after { content: "<script>" }</style>

            """
        let root = try CLI.tree(texts: ["App.vue": component], prefix: "component")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(["scan", root, "--allow-missing-db", "--format", "json"], timeout: 120)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(try findings(result.stdout) == ["App.vue javascript.taint-dom-xss"], "\(result.stdout.prefix(2000))")
        #expect(!result.stdout.contains("file skipped"))
    }

    /// Rounds 2–3: a command injection under `app/build/` was not reported by default. A nested
    /// `build/` is source; one at the root or beside a package manifest is generated output.
    @Test func aNestedBuildDirectoryIsSourceAndAPackagesBuildIsOutput() throws {
        let code = "import os\nos.system(input())\n"
        let root = try CLI.tree(
            texts: [
                "app/build/run.py": code, "build/lib/pkg/run.py": code, "web/package.json": "{}\n", "web/dist/run.py": code,
                "pyproject.toml": "[project]\nname = \"x\"\n",
            ], prefix: "build-dirs")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(
            ["scan", root, "--allow-missing-db", "--tools", "native", "--min-confidence", "low", "--fail-on", "none", "--format", "json"],
            timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Set(try findings(result.stdout).map { String($0.split(separator: " ")[0]) }) == ["app/build/run.py"], "\(result.stdout)")
    }

    /// H7: a key of the repository's `.sentinel.yml` holding a line break printed a line of its
    /// own, which a GitHub runner read as `::add-mask::` (or `::error file=…::`, `::stop-commands::`).
    @Test func anErrorQuotingRepositoryTextIsOneInertLine() throws {
        let root = try CLI.tree(
            texts: ["app.py": "x = 1\n", ".sentinel.yml": "\"a\\n::add-mask::hunter2 ##[error]x\": 1\n"], prefix: "commands")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(["scan", root, "--allow-missing-db"], timeout: 120)
        #expect(result.status == 2)
        #expect(
            result.stderr.split(separator: "\n").last
                == "sentinel: \(root)/.sentinel.yml:1: unknown key 'a\\x0a::add-mask::hunter2 ##\\x5berror]x'", "\(result.stderr)")
        for line in result.stderr.split(separator: "\n") {
            #expect(!line.drop { $0 == " " }.hasPrefix("::") && !line.contains("##["), "\(line)")
        }
    }

    /// H7: a `bun.lock` package name read by `db update --for` is quoted in a warning: one line.
    @Test func aLockfileKeyInAWarningIsOneLine() throws {
        let lock = "{\n  \"lockfileVersion\": 1,\n  \"packages\": {\n    \"x\\n::add-mask::hunter2\": 5\n  }\n}\n"
        let root = try CLI.tree(texts: ["bun.lock": lock], prefix: "bun-commands")
        let home = root + ".home"
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        let result = try CLI.run(
            ["db", "update", "--for", root, "--url", "http://127.0.0.1:9/"], environment: CLI.environment(home: home), timeout: 120)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "sentinel: warning: \(root): bun.lock:4: error: package \"x\\x0a::add-mask::hunter2\" must be an array starting with its resolution"
            ), "\(result.stderr)")
        #expect(!lines.contains { $0.hasPrefix("::") }, "\(result.stderr)")
    }

    /// H7: a text report's line starts with a file's name, which the repository chose.
    @Test func aReportLineCannotStartAWorkflowCommand() throws {
        let root = try CLI.tree(texts: ["::error file=x.py::forged.py": "eval(input())\n"], prefix: "report-commands")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(["scan", root, "--allow-missing-db", "--min-confidence", "low", "--fail-on", "none"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\\x3a:error file=x.py::forged.py:1:1: medium: [python.eval-used]"), "\(result.stdout)")
        for line in (result.stdout + result.stderr).split(separator: "\n") {
            #expect(!line.drop { $0 == " " }.hasPrefix("::"), "\(line)")
        }
    }
}
