import Foundation
import Languages
import SAST
import SyntaxTree
import Testing
import TestSupport

/// A language the engine has never heard of, registered from a test target: its files are found
/// by the registry, a rule naming it loads with patterns in it, and the engine matches them, with
/// no edit under Sources/SAST (issue 77, "done when").
@Suite("A third language through the seam", .serialized)
struct ThirdLanguageTests {
    init() { Languages.register(ToyLanguage()) }

    @Test("the registry knows the toy language by name, alias, extension and interpreter, after the built-ins")
    func registered() throws {
        let names = Languages.registry.all.map(\.name)
        #expect(Array(names.prefix(3)) == ["python", "javascript", "typescript"])
        #expect(names.contains("toy"))
        #expect(SourceLanguage(fileName: "jobs/nightly.toy")?.name == "toy")
        #expect(SourceLanguage(ruleName: "TOYLANG")?.name == "toy")
        #expect(SourceLanguage(shebang: Array("#!/usr/bin/env toyrun\n".utf8))?.name == "toy")
        #expect(Languages.fileExtensions.contains("toy"))
    }

    @Test("a rule with `languages: [toy]` and a toy pattern loads and finds its match, and only it")
    func ruleRuns() throws {
        let directory = try TemporaryDirectory.make("toy-rules")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let rule = """
            id: toy.exec-of-a-name
            message: exec runs a command held in a variable
            severity: high
            confidence: medium
            languages: [toy]
            cwe: [78]
            patterns:
              - pattern: exec $CMD
              - pattern-not: exec "..."

            """
        try rule.write(toFile: directory + "/exec-of-a-name.yaml", atomically: true, encoding: .utf8)
        let engine = SASTEngine(rules: try RuleSet.load(directories: [directory]))
        let source = """
            echo "hello"
            exec "ls"   # a constant command
            exec user_command
            exec

            """
        let result = engine.scan(file: "jobs/nightly.toy", source: source)
        #expect(result.parseError == nil)
        #expect(result.findings.map(\.ruleId) == ["toy.exec-of-a-name"])
        #expect(result.findings.first?.location.startLine == 3)
        // The rule is the toy language's: a Python file with the same words is not its business.
        #expect(engine.scan(file: "nightly.py", source: "exec(user_command)\n").findings.isEmpty)
    }

    @Test("a toy file that does not read is one notice naming the file, not a crash")
    func syntaxError() throws {
        let directory = try TemporaryDirectory.make("toy-rules")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "id: toy.any\nmessage: m\nseverity: low\nlanguages: [toy]\npattern: exec $X\n".write(
            toFile: directory + "/any.yaml", atomically: true, encoding: .utf8)
        let engine = SASTEngine(rules: try RuleSet.load(directories: [directory]))
        let result = engine.scan(file: "broken.toy", source: "exec \"open\n")
        #expect(result.findings.isEmpty)
        #expect(result.parseError?.hasPrefix("broken.toy:1:1: unterminated string") == true)
    }
}
