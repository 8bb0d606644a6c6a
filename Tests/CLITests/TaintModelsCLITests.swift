import Foundation
import Testing

/// `.sentinel.yml` `models:`: a project declares its own source, sanitizer and sink for the
/// shipped taint rules, without a rule file; bad models stop the scan (exit 2) with one line
/// naming the file, the line and the key. Native tools only: no sandbox needed.
@Suite(.serialized) struct TaintModelsCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
    var environment: [String: String] {
        CLI.environment(home: home)
    }

    static let models = """
        models:
          sources:
            - pattern: myapp.util.get_param(...)
              set: web-request
          sanitizers:
            - pattern: myapp.security.get_safe_redirect(...)
              rules: [python.taint-open-redirect]
          sinks:
            - pattern: myapp.db.run_sql($Q)
              focus: $Q
              rules: [python.taint-sql-injection]

        """
    static let app = """
        import flask
        from myapp import db, security, util

        app = flask.Flask(__name__)

        @app.route("/go")
        def go():
            return flask.redirect(security.get_safe_redirect(flask.request.args["next"]))

        @app.route("/jump")
        def jump():
            return flask.redirect(flask.request.args["next"])

        def report():
            name = util.get_param("name")
            db.run_sql("SELECT * FROM t WHERE name = '%s'" % name)

        """

    /// A project with `app` and `config` as its `.sentinel.yml`.
    static func project(config: String) throws -> String {
        let root = NSTemporaryDirectory() + "sentinel-models-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try app.write(toFile: root + "/app.py", atomically: true, encoding: .utf8)
        try config.write(toFile: root + "/.sentinel.yml", atomically: true, encoding: .utf8)
        return root
    }

    /// `rule:line` of each finding of a JSON report.
    static func findings(_ json: String) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let list = try #require(object["findings"] as? [[String: Any]])
        return list.compactMap { finding in
            guard let rule = finding["ruleId"] as? String, let location = finding["location"] as? [String: Any],
                let line = location["startLine"] as? Int
            else { return nil }
            return "\(rule):\(line)"
        }.sorted()
    }

    @Test func theProjectsModelsAddASourceASanitizerAndASink() throws {
        let root = try Self.project(config: Self.models)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // (`--min-confidence low`: open redirects report at low confidence, issue 55.)
        let scan = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "none", "--min-confidence", "low"],
            environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try Self.findings(scan.stdout) == ["python.taint-open-redirect:12", "python.taint-sql-injection:16"])

        // Without the models: the sanitizer is unknown (line 8 is a finding), the source and sink too.
        let plain = try Self.project(config: "")
        defer { try? FileManager.default.removeItem(atPath: plain) }
        let without = try CLI.run(
            ["scan", plain, "--tools", "native", "--format", "json", "--fail-on", "none", "--min-confidence", "low"],
            environment: environment)
        // (Line 16 is then only the low-confidence audit of string-built SQL.)
        #expect(
            try Self.findings(without.stdout) == [
                "python.sql-string-building:16", "python.taint-open-redirect:12", "python.taint-open-redirect:8",
            ])
    }

    @Test(arguments: [
        ("models:\n  sinks:\n    - pattern: f($Q)\n", ".sentinel.yml:3: models.sinks[0]: needs 'rules'"),
        ("models:\n  sources:\n    - pattern: f()\n      set: nope\n", ".sentinel.yml:3: models.sources[0].set: no source set 'nope'"),
        (
            "models:\n  sanitizers:\n    - pattern: f()\n      rules: [python.nope]\n",
            ".sentinel.yml:3: models.sanitizers[0].rules: no taint rule 'python.nope'"
        ),
        ("models:\n  sources:\n    - pattern: 'f(('\n      set: web-request\n", ".sentinel.yml:3: 'models.sources[0].pattern'"),
        (
            "models:\n  guards: [\"myapp.auth.role required\"]\n",
            ".sentinel.yml:2: models.guards[0]: 'myapp.auth.role required' is not a dotted name"
        ),
    ])
    func badModelsAreOneLineErrors(config: String, expected: String) throws {
        let root = try Self.project(config: config)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scan = try CLI.run(["scan", root, "--tools", "native"], environment: environment)
        #expect(scan.status == 2, "\(scan.stdout)\(scan.stderr)")
        #expect(scan.stderr.hasPrefix("sentinel: \(root)/\(expected)"), "\(scan.stderr)")
        #expect(scan.stderr.split(separator: "\n").count == 1, "\(scan.stderr)")
    }

    /// Issue 55: a project declares its own guard; a handler it decorates authenticates (the
    /// route rules' message says how).
    @Test func aDeclaredGuardAuthenticates() throws {
        var handlers = "from flask import Flask\nfrom flask_login import login_required\nfrom myapp.gates import keeper\n"
        handlers += "app = Flask(__name__)\n"
        for name in ["a", "b", "c", "d"] {
            handlers += "\n@app.route('/\(name)')\n@login_required\ndef \(name)():\n    return Item.query.all()\n"
        }
        handlers += "\n@app.route('/items')\n@keeper\ndef items():\n    return Item.query.all()\n"
        for (config, expected) in [("", ["python.route-missing-authentication:26"]), ("models:\n  guards: [myapp.gates.keeper]\n", [])] {
            let root = NSTemporaryDirectory() + "sentinel-guards-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: root) }
            try handlers.write(toFile: root + "/views.py", atomically: false, encoding: .utf8)
            try config.write(toFile: root + "/.sentinel.yml", atomically: false, encoding: .utf8)
            let scan = try CLI.run(
                // The rule reports at low confidence (its judged precision on real code).
                ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "none", "--min-confidence", "low"],
                environment: environment)
            #expect(scan.status == 0, "\(scan.stderr)")
            #expect(try Self.findings(scan.stdout).filter { $0.hasPrefix("python.route") } == expected, "\(config)")
        }
    }
}
