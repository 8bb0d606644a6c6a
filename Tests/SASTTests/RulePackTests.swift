import Documents
import Foundation
import Support
import SyntaxTree
import TestSupport
import Testing

@testable import SAST

/// The compiled rule pack (issue 77): a scan takes the shipped rules' documents and pattern
/// trees from it instead of reading YAML and lowering patterns, and finds exactly what it finds
/// without it; a pack of another build, or one cut or damaged, is not used.
@Suite struct RulePackTests {
    static let shipped = RuleFilesTests.rulesDirectory
    static let build: [UInt8] = Array(repeating: 0xAB, count: 20)

    /// A copy of the shipped rules (index included), removed by the caller.
    static func copyOfShippedRules() throws -> URL {
        let directory = try RuleIndexTests.temporaryDirectory("pack")
        let copy = directory.appendingPathComponent("rules")
        try FileManager.default.copyItem(atPath: shipped, toPath: copy.path)
        for name in try FileManager.default.contentsOfDirectory(atPath: copy.path) where name.hasSuffix(".pack") {
            try FileManager.default.removeItem(at: copy.appendingPathComponent(name))
        }
        return directory
    }

    @Test("every shipped rule file's document and every pattern's tree come back from the pack as read")
    func packHoldsWhatTheRulesRead() throws {
        let bytes = try RulePack.generate(directory: Self.shipped, buildID: Self.build)
        let pack = try RulePack(bytes: bytes, buildID: Self.build)
        let files = try RuleSet.ruleFiles(under: Self.shipped)
        #expect(files.count > 200)
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let digest = RuleIndex.digest(Array(text.utf8))
            #expect(pack.document(sha256: digest) == (try RuleLoader.document(text, file: file)), "\(file)")
        }
        let trees = PatternTrees(pack: nil)
        _ = try RuleSet.compile(try RuleSet.read(directories: [Self.shipped], trees: trees))
        let lowered = trees.trees
        #expect(lowered.count > 1000)
        #expect(Set(lowered.map(\.syntax)) == ["python", "javascript"])
        for (syntax, text, tree) in lowered {
            let fresh = try PatternSyntax(name: syntax).lower(text)
            #expect(tree == fresh && pack.pattern(syntax: syntax, text: text) == fresh, "\(syntax): \(text)")
        }
        #expect(pack.pattern(syntax: "python", text: "not_a_pattern_of_any_rule($X)") == nil)
        let expressions = trees.regexes
        #expect(expressions.count > 100)
        for (pattern, literals) in expressions {
            #expect(literals == RegexLiterals(pattern: pattern) && pack.literals(ofRegex: pattern) == literals, "\(pattern)")
        }
        #expect(expressions.contains { !$0.literals.required.isEmpty })
    }

    @Test("every rule test file, in projects of ten: the same rules and findings with the pack as without")
    func sameFindingsWithPack() throws {
        let directory = try Self.copyOfShippedRules()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = directory.appendingPathComponent("rules").path
        let written = try RulePack.write(directory: rules)
        #expect(FileManager.default.fileExists(atPath: written))
        let packed = try RuleSet.read(directories: [rules], indexed: [rules])
        #expect(packed.packs[rules] != nil)
        let plain = try RuleSet.read(directories: [rules])
        #expect(plain.packs.isEmpty)
        let full = try RuleSet.compile(plain)
        let fromPack = try RuleSet.compile(packed)
        #expect(fromPack.rules.map(\.id) == full.rules.map(\.id))
        #expect(fromPack.descriptors == full.descriptors)
        // Every pattern the compilation met came from the pack: none was lowered again.
        #expect(packed.trees.trees.count > 1000)
        #expect(packed.trees.lowerings == 0)
        let fixtures = RuleFilesTests.testFiles.filter { !$0.hasSuffix(".html") }.map { rules + "/" + $0 }
        for start in stride(from: 0, to: fixtures.count, by: 10) {
            let files = Array(fixtures[start..<min(start + 10, fixtures.count)])
            let (project, identifiers, read) = RuleIndexTests.project(files)
            let compiled = try RuleSet.compile(packed, optionalDirectories: [rules], tree: identifiers)
            let withPack = SASTEngine(rules: compiled).scanProject(files: files, project: project, read: read)
            let without = SASTEngine(rules: full).scanProject(files: files, read: read)
            #expect(RuleIndexTests.summary(withPack) == RuleIndexTests.summary(without), "\(files)")
        }
    }

    @Test("a pack of another build, cut short or with any byte changed is not used")
    func foreignOrDamagedPackIsRefused() throws {
        let directory = try RuleIndexTests.temporaryDirectory("pack-small")
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        id: test.eval-used
        message: eval
        severity: medium
        pattern: eval($X)
        """.write(to: directory.appendingPathComponent("eval.yaml"), atomically: true, encoding: .utf8)
        let bytes = try RulePack.generate(directory: directory.path, buildID: Self.build)
        #expect((try? RulePack(bytes: bytes, buildID: Self.build)) != nil)
        #expect((try? RulePack(bytes: bytes, buildID: Array(repeating: 0xCD, count: 20))) == nil)
        for length in 0..<bytes.count {
            #expect((try? RulePack(bytes: Array(bytes.prefix(length)), buildID: Self.build)) == nil, "cut at \(length)")
        }
        for offset in bytes.indices {
            var damaged = bytes
            damaged[offset] ^= 0x20
            #expect((try? RulePack(bytes: damaged, buildID: Self.build)) == nil, "byte \(offset) changed")
        }
        // Written for this build but named for another: not found under this build's name.
        try Data(bytes).write(to: directory.appendingPathComponent(RulePack.fileName(buildID: Self.build)!))
        #expect(RulePack.load(directory: directory.path, buildID: Self.build) != nil)
        #expect(RulePack.load(directory: directory.path, buildID: Array(repeating: 0xCD, count: 20)) == nil)
        #expect(RulePack.load(directory: directory.path, buildID: nil) == nil)
    }

    @Test("writing a pack keeps the newest three of other builds' beside it and removes the rest")
    func olderPacksAreRemoved() throws {
        let directory = try RuleIndexTests.temporaryDirectory("pack-keep")
        defer { try? FileManager.default.removeItem(at: directory) }
        try "id: test.x\nmessage: x\nseverity: low\npattern: x($Y)\n".write(
            to: directory.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        let older = (1...5).map { RulePack.fileName(buildID: Array(repeating: UInt8($0), count: 20))! }
        for (age, name) in older.enumerated() {
            let path = directory.appendingPathComponent(name).path
            try Data("old".utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -Double(age + 1) * 3600)], ofItemAtPath: path)
        }
        try Data("not a pack".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let written = URL(fileURLWithPath: try RulePack.write(directory: directory.path)).lastPathComponent
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(left == Set([written, "x.yaml", "notes.txt"] + older.prefix(RulePack.maximumKept - 1)))
    }

    @Test("texts equal only canonically (a Kelvin sign for K) share no tree, expression or pack entry")
    func canonicallyEqualTextsAreNotShared() throws {
        let plain = "print(SECRET_KEY)"
        let kelvin = "print(SECRET_\u{212A}EY)"
        #expect(plain == kelvin && !plain.utf8.elementsEqual(kelvin.utf8))
        // JavaScript compares identifiers by code point (Python normalises them, NFKC: one tree).
        let javaScript = PatternSyntax(name: "javascript")
        let trees = PatternTrees(pack: nil)
        let first = try trees.tree(plain, syntax: javaScript)
        let second = try trees.tree(kelvin, syntax: javaScript)
        #expect(first.sexpr.utf8.elementsEqual(try javaScript.lower(plain).sexpr.utf8))
        #expect(second.sexpr.utf8.elementsEqual(try javaScript.lower(kelvin).sexpr.utf8))
        #expect(!first.sexpr.utf8.elementsEqual(second.sexpr.utf8))
        // Taint sources matched once per file by text number: another text, another number.
        let k = CompiledPattern(source: "SECRET_KEY", tree: try javaScript.lower("SECRET_KEY"))
        let kelvinName = CompiledPattern(source: "SECRET_\u{212A}EY", tree: try javaScript.lower("SECRET_\u{212A}EY"))
        #expect(SourceMatchCache.key(of: k) != SourceMatchCache.key(of: kelvinName))
        #expect(SourceMatchCache.key(of: k) == SourceMatchCache.key(of: k))
        let regex = try trees.regex(source: "^SECRET_KEY$", checked: true)
        let other = try trees.regex(source: "^SECRET_\u{212A}EY$", checked: true)
        #expect(regex.compiled !== other.compiled && other.compiled.pattern.utf8.elementsEqual("^SECRET_\u{212A}EY$".utf8))

        let directory = try RuleIndexTests.temporaryDirectory("pack-kelvin")
        defer { try? FileManager.default.removeItem(at: directory) }
        try "id: test.k\nmessage: k\nseverity: low\npattern: \(plain)\n".write(
            to: directory.appendingPathComponent("k.yaml"), atomically: true, encoding: .utf8)
        let pack = try RulePack(bytes: try RulePack.generate(directory: directory.path, buildID: Self.build), buildID: Self.build)
        #expect(pack.pattern(syntax: "python", text: plain) != nil)
        #expect(pack.pattern(syntax: "python", text: kelvin) == nil)
    }

    @Test("the tree decoders refuse whatever they did not write, without crashing, and bound their depth")
    func decodersRefuseArbitraryBytes() throws {
        var generator = SeededRandom(state: 77)
        var document = PackedWriter()
        try RuleLoader.document("a: [1, {b: c}]\nd: e\n", file: "x.yaml").pack(into: &document)
        var tree = PackedWriter()
        try PatternSyntax.python.lower("foo(bar, $X, *args)").pack(into: &tree)
        for sample in [document.bytes, tree.bytes] {
            for _ in 0..<3000 {
                var bytes = sample
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                if Bool.random(using: &generator) { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator))) }
                var documentReader = PackedReader(bytes)
                _ = try? DocumentNode(packed: &documentReader)
                var treeReader = PackedReader(bytes)
                _ = try? SyntaxNode(packed: &treeReader)
            }
        }
        // A chain of one-element arrays deeper than the bound: refused, not recursed through.
        var deep = PackedWriter()
        for _ in 0...DocumentNode.maximumPackedDepth {
            deep.int(1)
            deep.int(1)
            deep.byte(6)
            deep.int(1)
        }
        deep.int(1)
        deep.int(1)
        deep.byte(0)
        var reader = PackedReader(deep.bytes)
        #expect(throws: PackedReader.Damaged.self) { try DocumentNode(packed: &reader) }
    }
}
