import Foundation
import PythonSyntax
import Testing

@testable import SAST

/// Runs every rule's test file in the package's `rules/` directory (`sentinel rules test`).
@Suite("Rule files")
struct RuleFilesTests {
    /// `<package>/rules`, found from this file's path so the test runs from any directory.
    static let rulesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("rules").path

    /// Every rule test file, relative to `rules/` (`python/eval-used.py`): one test case each, so one
    /// rule runs alone with `swift test --filter 'RuleFilesTests'` and its argument in the output.
    static let testFiles: [String] = {
        let root = URL(fileURLWithPath: rulesDirectory)
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "py" { files.append(String(url.path.dropFirst(root.path.count + 1))) }
        }
        return files.sorted()
    }()

    /// The shipped rules, loaded once for every case.
    static let engine = Result { SASTEngine(rules: try RuleSet.load(directories: [rulesDirectory])) }

    @Test("the rule test file's ruleid/ok annotations hold", arguments: testFiles)
    func ruleFile(_ file: String) throws {
        let engine = try Self.engine.get()
        let result = RuleTests.check(file: Self.rulesDirectory + "/" + file, engine: engine)
        #expect(result.expectations > 0, "\(file) checks nothing")
        #expect(result.failures.isEmpty, "\(result.failures.joined(separator: "\n"))")
    }

    @Test(
        "rule tests of another directory (SENTINEL_RULES_DIR)",
        .enabled(if: ProcessInfo.processInfo.environment["SENTINEL_RULES_DIR"] != nil))
    func otherDirectory() throws {
        let directory = try #require(ProcessInfo.processInfo.environment["SENTINEL_RULES_DIR"])
        let results = try RuleTests.run(directory: directory)
        let failures = results.flatMap(\.failures)
        print("rule tests: \(results.count) files, \(results.filter(\.passed).count) passed, \(failures.count) failures")
        for failure in failures { print("rule-test-failure: \(failure)") }
        #expect(failures.isEmpty)
    }

    @Test("the shipped rules map every Bandit test to native rules (for merging and # nosec)")
    func banditEquivalence() throws {
        let table = try RuleSet.load(directories: [Self.rulesDirectory]).equivalence
        #expect(table.nativeRules(forBandit: "B307") == ["python.eval-literal", "python.eval-used", "python.taint-code-injection"])
        #expect(table.nativeRules(forBandit: "bandit.B110") == ["python.try-except-pass"])
        #expect(table.nativeRules(forBandit: "B602").contains("python.subprocess-shell-true"))
        #expect(table.banditIds(forNative: "python.eval-used") == ["B307"])
        #expect(table.nativeRules(forSemgrep: "eval-detected") == ["python.eval-used"])
        // Every test Bandit 1.7/1.8 ships (B322 is Python 2's input()).
        let bandit =
            [
                "B101", "B102", "B103", "B104", "B105", "B106", "B107", "B108", "B110", "B112", "B113",
                "B201", "B202",
            ] + (301...324).map { "B\($0)" } + (401...413).map { "B\($0)" } + ["B415"]
            + (501...509).map { "B\($0)" } + (601...615).map { "B\($0)" } + (701...704).map { "B\($0)" }
        let unmapped = bandit.filter { table.nativeRules(forBandit: $0).isEmpty }
        #expect(unmapped.isEmpty, "no native rule for \(unmapped)")
    }

    @Test("every rule has at least two ruleid and two ok cases")
    func coverage() throws {
        #expect(Self.testFiles.count >= 100, "rule test files found: \(Self.testFiles.count)")
        let rules = try RuleSet.load(directories: [Self.rulesDirectory])
        var counts: [String: (ruleid: Int, ok: Int)] = [:]
        for rule in rules.rules {
            let testFile = String(rule.file.dropLast(rule.file.hasSuffix(".yml") ? 4 : 5)) + ".py"
            guard let data = FileManager.default.contents(atPath: testFile) else {
                Issue.record("\(rule.file): no test file \(testFile)")
                continue
            }
            let module = try PythonParser.parseModule(source: String(decoding: data, as: UTF8.self), fileName: testFile)
            for a in Annotation.parse(module: module, source: SourceText(String(decoding: data, as: UTF8.self))) where a.ruleId == rule.id {
                if a.expectsFinding { counts[rule.id, default: (0, 0)].ruleid += 1 } else { counts[rule.id, default: (0, 0)].ok += 1 }
            }
            let c = counts[rule.id] ?? (0, 0)
            #expect(c.ruleid >= 2 && c.ok >= 2, "\(rule.id): \(c.ruleid) ruleid and \(c.ok) ok cases")
        }
    }

    @Test("the runner reports missing and unexpected findings with file:line")
    func runnerReportsMismatches() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ruletests-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "id: python.e\nmessage: m\nseverity: low\npattern: eval(...)\n"
            .write(to: dir.appendingPathComponent("e.yaml"), atomically: true, encoding: .utf8)
        let test = """
            # ruleid: python.e
            eval(a)
            # ruleid: python.e
            print(b)
            # ok: python.e
            eval(c)
            eval(d)  # ruleid: python.e
            eval(e)

            """
        try test.write(to: dir.appendingPathComponent("e.py"), atomically: true, encoding: .utf8)
        let results = try RuleTests.run(directory: dir.path)
        let file = dir.appendingPathComponent("e.py").path
        #expect(
            results.flatMap(\.failures) == [
                "\(file):4: missing finding of python.e",
                "\(file):6: unexpected finding of python.e (marked ok)",
                "\(file):8: unexpected finding of python.e (no annotation)",
            ])
    }
}
