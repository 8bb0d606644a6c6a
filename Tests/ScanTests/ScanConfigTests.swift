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
