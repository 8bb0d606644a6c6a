import Foundation
import Support
import Testing

@testable import SAST

/// The YAML rule format: validation errors name the file, the line (where the problem has one) and the problem.
@Suite("Rule loader")
struct RuleLoaderTests {
    static let head = "id: python.x\nmessage: m\nseverity: high\n"

    @Test(
        "bad rules are rejected with a one-line error naming the file",
        arguments: [
            (head + "patterns:\n  - pattern: f()\n  - pattern-nto: g()\n", "r.yaml:6: unknown key 'patterns[1].pattern-nto'"),
            (head + "pattern: f()\nfoo: 1\n", "r.yaml:5: unknown key 'foo'"),
            ("message: m\nseverity: high\npattern: f()\n", "r.yaml: missing 'id'"),
            ("id: a\nseverity: high\npattern: f()\n", "r.yaml: missing 'message'"),
            (
                "id: a\nmessage: m\nseverity: severe\npattern: f()\n",
                "r.yaml:3: bad severity 'severe' (expected info, low, medium, high or critical)"
            ),
            (head + "pattern: f(\n", "r.yaml:4: 'pattern': pattern 'f(' does not parse"),
            (head + "pattern: f()\npattern-either:\n  - pattern: g()\n", "r.yaml: a search rule needs exactly one of"),
            (head + "mode: taint\nsources:\n  - pattern: input()\n", "r.yaml: a taint rule needs 'sources' and 'sinks'"),
            (
                head + "mode: taint\nsources:\n  - pattern: input()\nsinks:\n  - pattern: eval($X)\n    focus: X\n",
                "r.yaml:9: 'sinks[0].focus' must be a metavariable"
            ),
            (
                head + "patterns:\n  - metavariable-regex:\n      metavariable: $X\n      regex: '('\n  - pattern: f($X)\n",
                "r.yaml:7: 'patterns[0].metavariable-regex.regex': bad regular expression"
            ),
            (head + "pattern: [a, b\n", "r.yaml:5: invalid YAML"),
            (head + "patterns:\n  - pattern-not: f()\n", "r.yaml:5: 'patterns' needs at least one positive pattern"),
            (head + "pattern: f()\nfix-imports: [os]\n", "r.yaml:5: 'fix-imports' needs 'fix'"),
            (head + "pattern: f()\nfix: g()\nfix-imports: [os, 'a-b']\n", "r.yaml:6: 'fix-imports': 'a-b' is not a module name"),
            (head + "pattern: f()\nfix: [g(), '']\n", "r.yaml:5: 'fix' must not be empty"),
            // A malformed fix: code that does not parse, a metavariable nothing binds.
            (head + "pattern: f($X)\nfix: g($X\n", "r.yaml:5: 'fix': 'g($X' does not parse"),
            (head + "pattern: f($X)\nfix:\n  - g($X)\n  - h($Y)\n", "r.yaml:7: 'fix[1]' names $Y, which no pattern of the rule binds"),
            (
                head + "pattern: f($...ARGS)\nfix: f($...ARG, secure=True)\n",
                "r.yaml:5: 'fix' names $...ARG, which no pattern of the rule binds"
            ),
            (
                "id: javascript.x\nmessage: m\nseverity: high\nlanguages: [javascript]\npattern: f($X)\nfix: 'f({secure: })'\n",
                "r.yaml:6: 'fix': 'f({secure: })' does not parse"
            ),
            // fix-holes: a wrapper of one $HOLE, no quote, for a metavariable a template names.
            (head + "pattern: f($X)\nfix-holes: {$X: 'e($HOLE)'}\n", "r.yaml:5: 'fix-holes' needs 'fix'"),
            (head + "pattern: f($X)\nfix: $X\nfix-holes: {$X: e(x)}\n", "r.yaml:6: 'fix-holes.$X' must hold $HOLE once"),
            (head + "pattern: f($X)\nfix: $X\nfix-holes: {$Y: e($HOLE)}\n", "r.yaml:6: 'fix-holes': no 'fix' template names $Y"),
            (
                head + "pattern: f($X)\nfix: $X\nfix-holes: {$X: \"e($HOLE, 'a')\"}\n",
                "r.yaml:6: 'fix-holes.$X' must not hold a quote"
            ),
            (head + "pattern: f($X)\nfix: $X\nfix-holes: {$X: e($HOLE}\n", "r.yaml:6: 'fix-holes.$X': 'e($HOLE' does not parse"),
        ])
    func rejects(yaml: String, expected: String) {
        do {
            _ = try RuleLoader.parse(yaml, file: "r.yaml")
            Issue.record("accepted: \(yaml)")
        } catch let error as SentinelError {
            #expect(error.code == .invalidInput)
            #expect(error.message.hasPrefix(expected), "got: \(error.message)")
            #expect(!error.message.contains("\n"))
        } catch {
            Issue.record("wrong error type \(error)")
        }
    }

    @Test("fix takes one template or a list; fix-imports one module or a list")
    func fixKeys() throws {
        let one = try RuleLoader.parse(Self.head + "pattern: f($X)\nfix: g($X)\nfix-imports: shlex\n", file: "r.yaml")
        #expect(one.fixes == ["g($X)"])
        #expect(one.fixImports == ["shlex"])
        let list = try RuleLoader.parse(
            Self.head + "pattern: f($X)\nfix:\n  - g($X)\n  - h()\nfix-imports: [os.path, json]\n", file: "r.yaml")
        #expect(list.fixes == ["g($X)", "h()"])
        #expect(list.fixImports == ["os.path", "json"])
        #expect(try RuleLoader.parse(Self.head + "pattern: f()\n", file: "r.yaml").fixes.isEmpty)
    }

    @Test("a full taint rule loads")
    func taintRule() throws {
        let rule = try RuleLoader.parse(
            """
            id: python.t
            mode: taint
            message: m
            severity: critical
            confidence: high
            cwe: [78, "CWE-77"]
            sources:
              - pattern: input(...)
              - pattern-either:
                  - pattern: sys.argv
            sinks:
              - pattern: os.system($CMD)
                focus: $CMD
            sanitizers:
              - pattern: shlex.quote(...)
            metadata:
              references: [https://example.org]
              bandit: [B605]
            """, file: "t.yaml")
        #expect(rule.cwe == [78, 77])
        #expect(rule.confidence == .high)
        #expect(rule.references == ["https://example.org"])
        #expect(rule.banditIds == ["B605"])
        guard case .taint(let spec) = rule.mode else {
            Issue.record("not taint")
            return
        }
        #expect(spec.sources.count == 2 && spec.sinks.first?.focus == "$CMD" && spec.sanitizers.count == 1)
        #expect(rule.descriptor.defaultSeverity == .critical)
    }

    @Test("duplicate ids across files are rejected")
    func duplicates() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rules-dup-\(getpid())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let body = Self.head + "pattern: f()\n"
        try body.write(to: dir.appendingPathComponent("a.yaml"), atomically: true, encoding: .utf8)
        try body.write(to: dir.appendingPathComponent("sub/b.yml"), atomically: true, encoding: .utf8)
        #expect {
            try RuleSet.load(directories: [dir.path])
        } throws: { error in
            (error as? SentinelError)?.message.contains("duplicate rule id 'python.x'") == true
        }
    }

    @Test("a missing rule directory is an error naming it")
    func missingDirectory() {
        #expect {
            try RuleSet.load(directories: ["/nonexistent/rules-dir"])
        } throws: { error in
            (error as? SentinelError)?.message == "/nonexistent/rules-dir: no such rule directory"
        }
    }

    @Test("descriptors carry id, severity, CWE and precision for SARIF")
    func descriptors() throws {
        let rule = try RuleLoader.parse(
            "id: python.d\nmessage: m\nseverity: low\nconfidence: high\ncwe: [22]\npattern: f()\nmetadata:\n  references: [https://x.example]\n",
            file: "d.yaml")
        let set = try RuleSet(rules: [rule])
        let d = try #require(set.descriptors.first)
        #expect(d.id == "python.d" && d.tool == "native" && d.defaultSeverity == .low)
        #expect(d.cwe == [22] && d.precision == .high && d.helpURI == "https://x.example")
    }
}
