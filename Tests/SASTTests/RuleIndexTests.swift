import Findings
import Foundation
import Support
import Synchronization
import Testing

@testable import SAST

/// The compiled-rule index (issue 77): a scan leaves unread the shipped rules that need
/// identifiers no file of its tree holds, and its output is the same as when every rule is read;
/// an index that does not describe a file's bytes is not trusted, so a stale one is slower,
/// never wrong.
@Suite struct RuleIndexTests {
    static let shipped = RuleFilesTests.rulesDirectory

    /// A fresh directory, removed by the caller.
    static func temporaryDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rule-index-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Reads `files` (absolute paths) as one project: its summaries, and the union of the
    /// identifiers of its trees, as the scan gathers them before compiling.
    static func project(_ files: [String]) -> (ProjectSummaries, TreeContents, @Sendable (String) -> String?) {
        let read: @Sendable (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }
        let project = ProjectSummaries(files: files, read: read)
        return (project, SASTEngine.contents(of: files, project: project, read: read) ?? TreeContents(identifiers: []), read)
    }

    /// What a scan reports of a finding, for comparing two scans.
    static func summary(_ findings: [FileScanResult?]) -> [String] {
        findings.flatMap { $0?.findings ?? [] }.map {
            "\($0.ruleId) \($0.location.file):\($0.location.startLine ?? 0):\($0.location.startColumn ?? 0) \($0.message) \($0.confidence)"
        }
    }

    @Test("the committed rules/index.json is what the rules generate now")
    func committedIndexIsCurrent() throws {
        let path = URL(fileURLWithPath: Self.shipped).appendingPathComponent(RuleIndex.fileName).path
        let committed = (try? BoundedFile.read(path, limit: RuleIndex.maxSize, followLinks: false)).map { [UInt8]($0) }
        let generated = try RuleIndex.generate(directory: Self.shipped).encoded()
        #expect(committed == generated, "rules/\(RuleIndex.fileName) is stale: run `\(RuleIndex.command)`")
    }

    @Test("every rule test file, in projects of ten: the same findings, descriptors and equivalents with the index")
    func sameFindingsWithIndex() throws {
        let documents = try RuleSet.read(directories: [Self.shipped], indexed: [Self.shipped])
        #expect(documents.skippableCount > 100)
        let full = try RuleSet.compile(try RuleSet.read(directories: [Self.shipped]))
        let fullEngine = SASTEngine(rules: full)
        let fixtures = RuleFilesTests.testFiles.filter { !$0.hasSuffix(".html") }.map { Self.shipped + "/" + $0 }
        #expect(fixtures.count > 150)
        var skipped = 0
        for start in stride(from: 0, to: fixtures.count, by: 10) {
            let files = Array(fixtures[start..<min(start + 10, fixtures.count)])
            let (project, identifiers, read) = Self.project(files)
            let rules = try RuleSet.compile(documents, optionalDirectories: [Self.shipped], tree: identifiers)
            skipped += rules.unloaded.count
            #expect(rules.rules.count + rules.unloaded.count == full.rules.count)
            #expect(rules.descriptors == full.descriptors)
            #expect(rules.equivalence == full.equivalence)
            let withIndex = SASTEngine(rules: rules).scanProject(files: files, project: project, read: read)
            let without = fullEngine.scanProject(files: files, read: read)
            #expect(Self.summary(withIndex) == Self.summary(without), "\(files)")
            #expect(!Self.summary(without).isEmpty)
        }
        // Ten files of tests hold the identifiers of a few dozen rules, not of every rule.
        #expect(skipped > fixtures.count / 10 * 50)
    }

    @Test("the identifiers gathered before compiling are every file's own, from trees the scan then takes: one parse per file")
    func identifiersFromTheScansTrees() throws {
        let root = "rule-index-\(UUID().uuidString)"
        let texts: [String: String] = [
            root + "/app.py": "import yaml\nfrom .helpers import load\ndef view(request):\n    return yaml.load(request.body)\n",
            root + "/helpers.py": "import pickle as pk\ndef load(data):\n    return pk.loads(data)\n",
            root + "/static/app.js": "const cp = require('child_process');\nmodule.exports = (x) => cp.exec(x);\n",
            root + "/broken.py": "def (:\n",
        ]
        let files = texts.keys.sorted()
        let reads = SourceReads(under: root)
        reads.start()
        defer { reads.stop() }
        let read: @Sendable (String) -> String? = { texts[$0] }
        let project = ProjectSummaries(files: files, read: read)
        let gathered = SASTEngine.contents(of: files, project: project, read: read)
        let identifiers = try #require(gathered).identifiers
        var expected: Set<String> = []
        for file in files where !file.hasSuffix("broken.py") {
            let bytes = Array(texts[file]!.utf8)
            let tree = try SourceFrontEnd.parse(bytes: bytes, file: file, language: SASTEngine.language(of: file, bytes: bytes))
            expected.formUnion(FileIndex.identifiers(of: tree.root))
        }
        #expect(identifiers == expected)
        #expect(identifiers.isSuperset(of: ["yaml", "load", "pickle", "pk", "loads", "child_process", "exec"]))
        reads.start()
        let project2 = ProjectSummaries(files: files, read: read)
        _ = SASTEngine.contents(of: files, project: project2, read: read)
        let results = try RuleFilesTests.engine.get().scanProject(files: files, project: project2, read: read)
        #expect(results[files.firstIndex { $0.hasSuffix("broken.py") }!]?.parseError != nil)
        // The file that does not parse is read again by the scan (which reports it); every other once.
        #expect(reads.byFile == Dictionary(uniqueKeysWithValues: files.map { ($0, $0.hasSuffix("broken.py") ? 2 : 1) }))
        // A tree past the budget is not read ahead: its rules are chosen by language alone.
        #expect(SASTEngine.contents(of: files, project: project2, read: read, budget: 10) == nil)
    }

    /// A fresh directory (removed by the caller) holding `app.py`: a Flask app whose one route
    /// `/run` has `body` (lines indented four spaces) as its view.
    static func flaskApp(_ name: String, body: String) throws -> (directory: URL, app: String) {
        let directory = try temporaryDirectory(name)
        let app = directory.appendingPathComponent("app.py").path
        try """
        import subprocess
        from flask import Flask, request

        app = Flask(__name__)

        @app.route("/run")
        def run():
        \(body)
        """.write(toFile: app, atomically: true, encoding: .utf8)
        return (directory, app)
    }

    @Test("a one-file Flask app leaves most search rules unread, and reads none of them as YAML")
    func smallTreeSkipsRules() throws {
        let (directory, app) = try Self.flaskApp(
            "flask", body: "    return subprocess.check_output(request.args[\"cmd\"], shell=True)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (project, identifiers, read) = Self.project([app])
        let documents = try RuleSet.read(directories: [Self.shipped], indexed: [Self.shipped])
        let rules = try RuleSet.compile(documents, present: ["python"], optionalDirectories: [Self.shipped], tree: identifiers)
        let python = try RuleSet.compile(documents, present: ["python"], optionalDirectories: [Self.shipped])
        #expect(rules.unloaded.count > 80)
        #expect(rules.rules.count + rules.unloaded.count == python.rules.count)
        #expect(rules.descriptors.map(\.id).sorted() == python.descriptors.map(\.id).sorted())
        let found = Self.summary(SASTEngine(rules: rules).scanProject(files: [app], project: project, read: read))
        #expect(found == Self.summary(SASTEngine(rules: python).scanProject(files: [app], read: read)))
        #expect(found.contains { $0.hasPrefix("python.") })
    }

    /// A copy of the shipped rules (with their index) in a fresh directory.
    static func copyOfShippedRules() throws -> URL {
        let directory = try temporaryDirectory("copy")
        let copy = directory.appendingPathComponent("rules")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: shipped), to: copy)
        return copy
    }

    @Test("a shipped rule edited after the index was made is read and compiled in full, and reports its finding")
    func staleEntryFallsBack() throws {
        let rules = try Self.copyOfShippedRules()
        defer { try? FileManager.default.removeItem(at: rules.deletingLastPathComponent()) }
        let index = try #require(RuleIndex.load(directory: rules.path))
        let entry = try #require(index.files.first { $0.header != nil && $0.languages == ["python"] })
        let id = try #require(entry.header?.id)
        // The same rule id, now matching a call no other rule knows.
        try "id: \(id)\nmessage: probe\nseverity: high\nlanguages: [python]\npattern: sentinel_index_probe(...)\n"
            .write(to: rules.appendingPathComponent(entry.path), atomically: true, encoding: .utf8)
        let tree = rules.deletingLastPathComponent().appendingPathComponent("app.py").path
        try "sentinel_index_probe(1)\n".write(toFile: tree, atomically: true, encoding: .utf8)
        let (project, identifiers, read) = Self.project([tree])
        let documents = try RuleSet.read(directories: [rules.path], indexed: [rules.path])
        let compiled = try RuleSet.compile(documents, present: ["python"], optionalDirectories: [rules.path], tree: identifiers)
        #expect(!compiled.unloaded.contains { $0.id == id })
        #expect(compiled.rules.contains { $0.id == id })
        let found = Self.summary(SASTEngine(rules: compiled).scanProject(files: [tree], project: project, read: read))
        #expect(found.contains { $0.hasPrefix("\(id) ") })
    }

    /// A rule directory holding one rule (`eval(...)`) and an index entry for it claiming it
    /// needs an identifier no tree holds, with the SHA-256 `digest`.
    static func ruleWithIndex(digest: (String) -> String) throws -> URL {
        let directory = try temporaryDirectory("hostile")
        let rule = "id: python.probe-eval\nmessage: eval\nseverity: high\nlanguages: [python]\npattern: eval(...)\n"
        try rule.write(to: directory.appendingPathComponent("rule.yaml"), atomically: true, encoding: .utf8)
        let entry = RuleIndex.Entry(
            path: "rule.yaml", sha256: digest(rule), isSet: false, languages: ["python"], identifiers: [["never_in_any_tree"]], text: nil,
            header: RuleIndex.Header(
                id: "python.probe-eval",
                descriptor: RuleDescriptor.native(
                    id: "python.probe-eval", message: "eval", references: [], severity: .high, cwe: [], confidence: .medium, tags: []),
                bandit: [], semgrep: []))
        try Data(try RuleIndex(format: RuleIndex.currentFormat, files: [entry]).encoded())
            .write(to: directory.appendingPathComponent(RuleIndex.fileName))
        return directory
    }

    @Test("an index entry whose digest does not match the rule file is never trusted; one that does is used")
    func hostileEntryNotTrusted() throws {
        let tree = try Self.temporaryDirectory("tree").appendingPathComponent("app.py").path
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: tree).deletingLastPathComponent().path) }
        try "eval(input())\n".write(toFile: tree, atomically: true, encoding: .utf8)
        let (_, identifiers, read) = Self.project([tree])
        for (digest, trusted) in [
            ({ (_: String) in String(repeating: "0", count: 64) }, false), ({ RuleIndex.digest(Array($0.utf8)) }, true),
        ] {
            let directory = try Self.ruleWithIndex(digest: digest)
            defer { try? FileManager.default.removeItem(at: directory) }
            let documents = try RuleSet.read(directories: [directory.path], indexed: [directory.path])
            let rules = try RuleSet.compile(documents, present: ["python"], optionalDirectories: [directory.path], tree: identifiers)
            #expect(rules.unloaded.map(\.id) == (trusted ? ["python.probe-eval"] : []))
            let found = Self.summary(SASTEngine(rules: rules).scanProject(files: [tree], read: read))
            #expect(found.contains { $0.hasPrefix("python.probe-eval ") } == !trusted)
        }
    }

    @Test("a rule the index says needs literal text is left unread where no file holds it, read where one does")
    func textRequirement() throws {
        let directory = try Self.ruleWithIndex(digest: { RuleIndex.digest(Array($0.utf8)) })
        defer { try? FileManager.default.removeItem(at: directory) }
        var index = try #require(RuleIndex.load(directory: directory.path))
        index.files[0].identifiers = nil
        index.files[0].text = RuleIndex.TextNeeds(required: [[Array("passwd".utf8)]], caseInsensitive: false)
        try Data(try index.encoded()).write(to: directory.appendingPathComponent(RuleIndex.fileName))
        let documents = try RuleSet.read(directories: [directory.path], indexed: [directory.path])
        for (text, read) in [("eval(x)\n", false), ("eval(x)  # PASSWD\n", true)] {
            let tree = try Self.temporaryDirectory("text")
            defer { try? FileManager.default.removeItem(at: tree) }
            let file = tree.appendingPathComponent("app.py").path
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let (_, contents, _) = Self.project([file])
            let rules = try RuleSet.compile(documents, present: ["python"], optionalDirectories: [directory.path], tree: contents)
            #expect(rules.rules.map(\.id) == (read ? ["python.probe-eval"] : []))
            #expect(rules.unloaded.map(\.id) == (read ? [] : ["python.probe-eval"]))
        }
    }

    @Test("an index that is not JSON is ignored: every rule is read")
    func malformedIndexIgnored() throws {
        let directory = try Self.ruleWithIndex(digest: { _ in "" })
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{not json".write(to: directory.appendingPathComponent(RuleIndex.fileName), atomically: true, encoding: .utf8)
        let documents = try RuleSet.read(directories: [directory.path], indexed: [directory.path])
        #expect(documents.skippableCount == 0)
        let rules = try RuleSet.compile(
            documents, present: ["python"], optionalDirectories: [directory.path], tree: TreeContents(identifiers: []))
        #expect(rules.rules.map(\.id) == ["python.probe-eval"])
    }

    @Test("an operator's own rule directory is compiled in full even with an index in it")
    func ownDirectoryIgnoresIndex() throws {
        let directory = try Self.ruleWithIndex(digest: { RuleIndex.digest(Array($0.utf8)) })
        defer { try? FileManager.default.removeItem(at: directory) }
        let documents = try RuleSet.read(directories: [directory.path])
        let rules = try RuleSet.compile(documents, present: ["python"], optionalDirectories: [], tree: TreeContents(identifiers: []))
        #expect(rules.rules.map(\.id) == ["python.probe-eval"])
        #expect(rules.unloaded.isEmpty)
    }
}
