import Findings
import Foundation
import Support
import Testing

@testable import SAST

/// Taint rules in the compiled-rule index (issue 77): a scan leaves unread a shipped taint rule
/// whose sinks no file of the tree holds, while the sanitizers the rule-free summaries share are
/// still counted over every taint rule, read or not, so that no other rule's result changes.
@Suite struct RuleIndexTaintTests {
    static let shipped = RuleIndexTests.shipped

    /// The sanitizer texts the engine's rule-free summaries apply with `rules`.
    static func sharedTexts(_ rules: RuleSet) -> [String] {
        let specs = rules.rules.compactMap { rule -> TaintSpec? in
            if case .taint(let spec) = rule.mode { return spec }
            return nil
        }
        return (rules.sharedSanitizers ?? TaintPatterns.sharedSanitizers(specs)).map(\.source)
    }

    @Test("a Python file without most sinks leaves their taint rules unread; the shared sanitizers are those of all")
    func unreadTaintRulesKeepTheSharedSanitizers() throws {
        let (directory, app) = try RuleIndexTests.flaskApp(
            "taint",
            body: "    n = int(request.args[\"n\"])\n    return subprocess.check_output(request.args[\"cmd\"] + str(n), shell=True)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (project, identifiers, read) = RuleIndexTests.project([app])
        let documents = try RuleSet.read(directories: [Self.shipped], indexed: [Self.shipped])
        let rules = try RuleSet.compile(documents, present: ["python"], optionalDirectories: [Self.shipped], tree: identifiers)
        let python = try RuleSet.compile(documents, present: ["python"], optionalDirectories: [Self.shipped])
        let index = try #require(RuleIndex.load(directory: Self.shipped))
        let taintIds = Set(index.files.compactMap { $0.taint != nil ? $0.header?.id : nil })
        let unreadTaint = rules.unloaded.filter { taintIds.contains($0.id) }
        #expect(unreadTaint.count >= 5)
        #expect(rules.rules.count + rules.unloaded.count == python.rules.count)
        #expect(rules.descriptors.map(\.id).sorted() == python.descriptors.map(\.id).sorted())
        #expect(rules.sharedSanitizers != nil)
        // The first rule by id with the shared type coercions takes them from its set: it stays unread.
        #expect(rules.unloaded.contains { $0.id == "python.taint-code-injection" })
        #expect(Self.sharedTexts(rules) == Self.sharedTexts(python))
        #expect(!Self.sharedTexts(python).isEmpty)
        let found = RuleIndexTests.summary(SASTEngine(rules: rules).scanProject(files: [app], project: project, read: read))
        #expect(found == RuleIndexTests.summary(SASTEngine(rules: python).scanProject(files: [app], read: read)))
        #expect(found.contains { $0.hasPrefix("python.") })
    }

    @Test("with a set file edited after the index was made, or the project's models, every taint rule is read")
    func anEditedSetOrModelsReadEveryTaintRule() throws {
        let rules = try RuleIndexTests.copyOfShippedRules()
        defer { try? FileManager.default.removeItem(at: rules.deletingLastPathComponent()) }
        let tree = rules.deletingLastPathComponent().appendingPathComponent("app.py").path
        try "print(1)\n".write(toFile: tree, atomically: true, encoding: .utf8)
        let (_, identifiers, _) = RuleIndexTests.project([tree])
        let index = try #require(RuleIndex.load(directory: rules.path))
        let taintIds = Set(index.files.compactMap { $0.taint != nil ? $0.header?.id : nil })
        func unreadTaint(leaving: Bool = true) throws -> Int {
            let documents = try RuleSet.read(directories: [rules.path], indexed: [rules.path])
            let compiled = try RuleSet.compile(
                documents, present: ["python"], optionalDirectories: [rules.path], tree: identifiers, leavingTaintRules: leaving)
            return compiled.unloaded.count { taintIds.contains($0.id) }
        }
        #expect(try unreadTaint() > 0)
        #expect(try unreadTaint(leaving: false) == 0)
        let set = try #require(index.files.first { $0.isSet && $0.languages == ["python"] })
        let file = rules.appendingPathComponent(set.path)
        try (String(contentsOf: file, encoding: .utf8) + "\n").write(to: file, atomically: true, encoding: .utf8)
        #expect(try unreadTaint() == 0)
    }

    /// Three indexed taint rules: two share a sanitizer written in each (`clean(...)`), the third
    /// has none. A tree with only the third's sink leaves the two unread by their sinks, but the
    /// sanitizer is still most rules': one of them is read to compile it.
    @Test("a shared sanitizer written only in unread rules is compiled from one of them")
    func aSharedSanitizerOnlyUnreadRulesHaveIsCompiled() throws {
        let directory = try RuleIndexTests.temporaryDirectory("census")
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = directory.appendingPathComponent("rules")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        for (name, sink, sanitizer) in [("a", "sink_a", true), ("b", "sink_b", true), ("c", "sink_c", false)] {
            var text = """
                id: python.census-\(name)
                mode: taint
                message: m
                severity: high
                languages: [python]
                cwe: [78]
                sources:
                  - pattern: input()
                sinks:
                  - pattern: \(sink)($X)

                """
            if sanitizer { text += "sanitizers:\n  - pattern: clean(...)\n" }
            try text.write(to: rules.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
        }
        try Data(try RuleIndex.generate(directory: rules.path).encoded()).write(to: rules.appendingPathComponent(RuleIndex.fileName))
        let app = directory.appendingPathComponent("app.py").path
        try """
        def helper(v):
            return clean(v)

        def run():
            sink_c(helper(input()))
        """.write(toFile: app, atomically: true, encoding: .utf8)
        let (project, identifiers, read) = RuleIndexTests.project([app])
        let documents = try RuleSet.read(directories: [rules.path], indexed: [rules.path])
        let compiled = try RuleSet.compile(documents, present: ["python"], optionalDirectories: [rules.path], tree: identifiers)
        let full = try RuleSet.compile(try RuleSet.read(directories: [rules.path]))
        #expect(Self.sharedTexts(full) == ["clean(...)"])
        #expect(Self.sharedTexts(compiled) == ["clean(...)"])
        #expect(compiled.unloaded.count == 1)
        #expect(compiled.rules.map(\.id).contains("python.census-c"))
        let found = RuleIndexTests.summary(SASTEngine(rules: compiled).scanProject(files: [app], project: project, read: read))
        #expect(found == RuleIndexTests.summary(SASTEngine(rules: full).scanProject(files: [app], read: read)))
        #expect(found.contains { $0.hasPrefix("python.census-c ") })
    }
}
