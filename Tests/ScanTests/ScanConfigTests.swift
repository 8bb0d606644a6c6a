import Findings
import Support
import Testing
@testable import Scan

@Suite struct ScanConfigTests {
    @Test func parsesEveryKey() throws {
        let config = try ScanConfig.parse(
            """
            scanners: [sast, secrets]
            tools: [native, bandit]
            include: ["src/**"]
            exclude: ["tests/**"]
            severity: {python.assert-used: info}
            failOn: medium
            minConfidence: High
            rules: [extra-rules]
            semgrep: {config: [semgrep.yml]}
            """, source: "/repo/.sentinel.yml", baseDirectory: "/repo")
        #expect(config.scanners == [.sast, .secrets])
        #expect(config.tools == ["native", "bandit"])
        #expect(config.include == ["src/**"])
        #expect(config.exclude == ["tests/**"])
        #expect(config.severity == ["python.assert-used": .info])
        #expect(config.failOn == .some(.medium))
        #expect(config.minConfidence == .high)
        #expect(config.ruleDirectories == ["/repo/extra-rules"])
        #expect(config.semgrepConfigs == ["/repo/semgrep.yml"])
    }

    @Test func defaultExcludesCanBeTurnedOff() throws {
        #expect(try ScanConfig.parse("exclude: [docs/]\n", source: "c.yml", baseDirectory: "/").defaultExcludes)
        let off = try ScanConfig.parse("default-excludes: false\nexclude: [docs/]\n", source: "c.yml", baseDirectory: "/")
        #expect(!off.defaultExcludes)
        #expect(off.exclude == ["docs/"])
        #expect(throws: SentinelError(.invalidInput, "c.yml:1: default-excludes: 'maybe' is not true or false")) {
            try ScanConfig.parse("default-excludes: maybe\n", source: "c.yml", baseDirectory: "/")
        }
    }

    /// Issue 80: `failOn: proven`, or an object with `proven` and `severity`.
    @Test func failOnProven() throws {
        let word = try ScanConfig.parse("failOn: proven\n", source: "c.yml", baseDirectory: "/")
        #expect(word.failOn == .some(.info) && word.failOnProven)
        let object = try ScanConfig.parse("failOn: {proven: true, severity: high}\n", source: "c.yml", baseDirectory: "/")
        #expect(object.failOn == .some(.high) && object.failOnProven)
        let plain = try ScanConfig.parse("failOn: {severity: medium}\n", source: "c.yml", baseDirectory: "/")
        #expect(plain.failOn == .some(.medium) && !plain.failOnProven)
        #expect(throws: SentinelError(.invalidInput, "c.yml:1: failOn.proven: 'often' is not true or false")) {
            try ScanConfig.parse("failOn: {proven: often}\n", source: "c.yml", baseDirectory: "/")
        }
    }

    /// Issue 80: `prove:` declares the application `scan --prove` starts: a list is the argv, a
    /// string runs with `/bin/sh -c`; a program without a slash goes through `/usr/bin/env`.
    @Test func proveDeclaresTheApplication() throws {
        let config = try ScanConfig.parse(
            """
            prove:
              run: [gunicorn, "app:app", -b, "127.0.0.1:8000"]
              port: 8000
              ready: /health
              wait: 90s
              env: {FLASK_ENV: development, DATABASE_URL: "sqlite:///tmp/app.db"}
              directory: src/web
              database: {engine: postgresql, name: shop, user: shop_app}
            """, source: "c.yml", baseDirectory: "/")
        let application = try #require(config.prove)
        #expect(application.argv == ["/usr/bin/env", "gunicorn", "app:app", "-b", "127.0.0.1:8000"])
        #expect(application.port == 8000 && application.url == "http://127.0.0.1:8000/")
        #expect(application.readyPath == "/health" && application.waitSeconds == 90)
        #expect(application.environment == ["FLASK_ENV": "development", "DATABASE_URL": "sqlite:///tmp/app.db"])
        #expect(application.directory == "src/web")
        #expect(application.database == ProofDatabase(name: "shop", user: "shop_app", port: 5432))
        #expect(application.database?.clientEnvironment["DATABASE_URL"] == "postgresql://shop_app@127.0.0.1:5432/shop")
        let shell = try ScanConfig.parse("prove: {run: \"node server.js --port 3000\", port: 3000}\n", source: "c.yml", baseDirectory: "/")
        #expect(shell.prove?.argv == ["/bin/sh", "-c", "node server.js --port 3000"])
        #expect(shell.prove?.readyPath == "/" && shell.prove?.waitSeconds == 60)
    }

    @Test(arguments: [
        ("prove: {port: 8000}\n", "c.yml:1: prove: no 'run' (the command that starts the application)"),
        ("prove: {run: [app]}\n", "c.yml:1: prove: no 'port' (where the application listens)"),
        ("prove: {run: [], port: 8000}\n", "c.yml:1: prove.run: an empty command"),
        ("prove: {run: [app], port: 80}\n", "c.yml:1: prove.port: '80' is not a port from 1024 to 65535 (47128 is the proof's canary)"),
        (
            "prove: {run: [app], port: 47128}\n",
            "c.yml:1: prove.port: '47128' is not a port from 1024 to 65535 (47128 is the proof's canary)"
        ),
        ("prove: {run: [app], port: 8000, ready: health}\n", "c.yml:1: prove.ready: 'health' is not a path of the application (/health)"),
        (
            "prove: {run: [app], port: 8000, ready: \"//127.0.0.1:47128/x\"}\n",
            "c.yml:1: prove.ready: '//127.0.0.1:47128/x' is not a path of the application (/health)"
        ),
        ("prove: {run: [app], port: 8000, wait: 1h}\n", "c.yml:1: prove.wait: must be more than 0 and at most 10m"),
        ("prove: {run: [app], port: 8000, directory: ../up}\n", "c.yml:1: prove.directory: '../up' is not a directory inside the tree"),
        ("prove: {run: [app], port: 8000, env: {\"A-B\": x}}\n", "c.yml:1: prove.env: 'A-B' is not a variable name"),
        (
            "prove: {run: [app], port: 8000, database: mysql}\n",
            "c.yml:1: prove.database: 'mysql' is not postgresql (SQLite needs no declaration: the application's copy is writable)"
        ),
        (
            "prove: {run: [app], port: 8000, database: {engine: postgresql, name: \"a; DROP\"}}\n",
            "c.yml:1: prove.database.name: 'a; DROP' is not a lower-case name (a-z, 0-9, _; at most 63)"
        ),
        (
            "prove: {run: [app], port: 8000, database: {engine: postgresql, port: 8000}}\n",
            "c.yml:1: prove.database.port: the application's port, or the proof's canary's"
        ),
    ])
    func proveDeclarationErrorsNameTheKey(text: String, message: String) throws {
        #expect(throws: SentinelError(.invalidInput, message)) {
            try ScanConfig.parse(text, source: "c.yml", baseDirectory: "/")
        }
    }

    @Test func failOnNoneDisablesTheGate() throws {
        let config = try ScanConfig.parse("failOn: none\n", source: "c.yml", baseDirectory: "/")
        #expect(config.failOn == .some(nil))
    }

    @Test func minConfidenceIsUnsetUnlessGiven() throws {
        #expect(try ScanConfig.parse("failOn: high\n", source: "c.yml", baseDirectory: "/").minConfidence == nil)
        #expect(try ScanConfig.parse("minConfidence: low\n", source: "c.yml", baseDirectory: "/").minConfidence == .low)
        #expect(throws: SentinelError(.invalidInput, "c.yml:2: minConfidence: 'sure' is not one of low, medium, high")) {
            try ScanConfig.parse("failOn: high\nminConfidence: sure\n", source: "c.yml", baseDirectory: "/")
        }
    }

    @Test(arguments: [
        ("scaners: [sast]\n", "c.yml:1: unknown key 'scaners'"),
        ("scanners: [sats]\n", "c.yml:1: scanners[0]: 'sats' is not one of sast, secrets, sca, dast"),
        ("severity: {r: huge}\n", "unknown severity 'huge'"),
        ("failOn: sometimes\n", "c.yml:1: failOn: 'sometimes' is not one of"),
        ("tools: [native, sentinel]\n", "c.yml:1: tools[1]: 'sentinel' is not one of native, secrets, osv, bandit, semgrep"),
        ("include: src\n", "c.yml:1: include: must be a list"),
        ("minConfidence: [low]\n", "c.yml:1: minConfidence:"),
        ("semgrep: {rules: x}\n", "c.yml:1: unknown key 'semgrep.rules'"),
        ("[broken\n", "c.yml:2: not valid YAML"),
    ])
    func badConfigsNameTheKey(text: String, expected: String) {
        do {
            _ = try ScanConfig.parse(text, source: "c.yml", baseDirectory: "/")
            Issue.record("accepted \(text)")
        } catch let error as SentinelError {
            #expect(error.code == .invalidInput)
            #expect(error.message.contains(expected), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
