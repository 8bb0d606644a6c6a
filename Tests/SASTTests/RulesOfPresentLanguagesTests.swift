import Foundation
import Support
import Testing

@testable import SAST

/// A scan compiles only the shipped rules of the languages its tree holds (issue 77: compiling
/// every rule was most of a small scan's CPU), and nothing else changes: the rules it does
/// compile are those a full load gives, a project's own rules are always compiled in full (a bad
/// one is an error whatever the tree holds), and a rule of an unknown language is compiled, so
/// that its error is reported.
@Suite struct RulesOfPresentLanguagesTests {
    static let shipped = RuleFilesTests.rulesDirectory

    /// `rule` read from a rule directory of its own (removed again once read: `compile` needs
    /// only the documents), with that directory's path.
    static func read(rule: String) throws -> (RuleDocuments, directory: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("present-languages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try rule.write(to: directory.appendingPathComponent("rule.yaml"), atomically: true, encoding: .utf8)
        return (try RuleSet.read(directories: [directory.path]), directory.path)
    }

    @Test("a Python tree compiles the Python and route rules only; the same rules as a full load")
    func pythonTreeCompilesPythonRules() throws {
        let documents = try RuleSet.read(directories: [Self.shipped])
        let all = try RuleSet.compile(documents)
        let python = try RuleSet.compile(documents, present: ["python"], optionalDirectories: [Self.shipped])
        #expect(python.templateRules.isEmpty)
        #expect(!python.routeRules.isEmpty)
        #expect(python.rules.allSatisfy { $0.languages.contains("python") })
        #expect(python.rules.map(\.id) == all.rules.filter { $0.languages.contains("python") }.map(\.id))
        #expect(all.rules.contains { !$0.languages.contains("python") })
        #expect(python.library.names == all.library.names)
    }

    @Test("a JavaScript tree with templates compiles the JavaScript/TypeScript and template rules only")
    func scriptTreeCompilesScriptRules() throws {
        let documents = try RuleSet.read(directories: [Self.shipped])
        let all = try RuleSet.compile(documents)
        let script = try RuleSet.compile(
            documents, present: ["javascript", RuleSet.templateLanguage], optionalDirectories: [Self.shipped])
        #expect(script.routeRules.isEmpty)
        #expect(script.templateRules.map(\.id) == all.templateRules.map(\.id))
        #expect(!script.rules.isEmpty)
        #expect(!script.rules.contains { $0.languages == ["python"] })
    }

    @Test("a project's own bad rule is an error whatever the tree holds; a shipped one of an absent language is not compiled")
    func ownRulesAlwaysCompiled() throws {
        let bad = "id: javascript.bad\nmessage: m\nseverity: high\nlanguages: [javascript]\npattern: foo(\n"
        let (documents, directory) = try Self.read(rule: bad)
        #expect(throws: SentinelError.self) {
            try RuleSet.compile(documents, present: ["python"], optionalDirectories: [])
        }
        let skipped = try RuleSet.compile(documents, present: ["python"], optionalDirectories: [directory])
        #expect(skipped.rules.isEmpty)
        #expect(throws: SentinelError.self) {
            try RuleSet.compile(documents, present: ["javascript"], optionalDirectories: [directory])
        }
    }

    @Test("a rule naming a language no front end reads is compiled (and refused) even when filtering")
    func unknownLanguageCompiled() throws {
        let (documents, directory) = try Self.read(
            rule: "id: cobol.x\nmessage: m\nseverity: high\nlanguages: [cobol]\npattern: foo()\n")
        #expect(throws: SentinelError.self) {
            try RuleSet.compile(documents, present: ["python"], optionalDirectories: [directory])
        }
    }
}
