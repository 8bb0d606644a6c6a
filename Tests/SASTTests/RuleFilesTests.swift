import Findings
import Foundation
import PythonSyntax
import Languages
import Testing

@testable import SAST

/// Runs every rule's test file in the package's `rules/` directory (`sentinel rules test`).
@Suite("Rule files")
struct RuleFilesTests {
    /// `<package>/rules`, found from this file's path so the test runs from any directory.
    static let rulesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("rules").path

    /// Every rule test file, relative to `rules/` (`python/eval-used.py`, `templates/safe-filter.html`): one test case each, so one
    /// rule runs alone with `swift test --filter 'RuleFilesTests'` and its argument in the output.
    static let testFiles: [String] = {
        let root = URL(fileURLWithPath: rulesDirectory)
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if ["py", "html"].contains(url.pathExtension) || SourceLanguage.javaScriptFamilyExtensions.contains(url.pathExtension) {
                files.append(String(url.path.dropFirst(root.path.count + 1)))
            }
        }
        return files.sorted()
    }()

    /// The shipped rules, loaded once for every case.
    static let engine = Result { SASTEngine(rules: try RuleSet.load(directories: [rulesDirectory])) }

    @Test("the rule test file's ruleid/ok annotations hold", arguments: testFiles)
    func ruleFile(_ file: String) throws {
        let engine = try Self.engine.get()
        let path = Self.rulesDirectory + "/" + file
        let result =
            file.hasSuffix(".html")
            ? TemplateRuleTests.check(file: path, engine: TemplateEngine(rules: engine.rules.templateRules))
            : RuleTests.check(file: path, engine: engine)
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
        var table = try RuleSet.load(directories: [Self.rulesDirectory]).equivalence
        // Semgrep's ids match by dotted suffix, as its scanner declares (SASTTests do not see Adapters).
        table.matching[ToolName.semgrep] = .dottedSuffix
        func banditTest(_ id: String) -> [String] { table.nativeRules(for: RuleID(tool: ToolName.bandit, checkId: id)) }
        #expect(banditTest("B307") == ["python.eval-literal", "python.eval-used", "python.taint-code-injection"])
        #expect(table.nativeRules(for: RuleID("bandit.B110")) == ["python.try-except-pass"])
        #expect(banditTest("B602").contains("python.subprocess-shell-true"))
        #expect(table.checkIds(of: ToolName.bandit, forNative: "python.eval-used") == ["B307"])
        #expect(table.nativeRules(for: RuleID("semgrep.eval-detected")) == ["python.eval-used"])
        // Every test Bandit 1.7/1.8 ships (B322 is Python 2's input()).
        let bandit =
            [
                "B101", "B102", "B103", "B104", "B105", "B106", "B107", "B108", "B110", "B112", "B113",
                "B201", "B202",
            ] + (301...324).map { "B\($0)" } + (401...413).map { "B\($0)" } + ["B415"]
            + (501...509).map { "B\($0)" } + (601...615).map { "B\($0)" } + (701...704).map { "B\($0)" }
        let unmapped = bandit.filter { banditTest($0).isEmpty }
        #expect(unmapped.isEmpty, "no native rule for \(unmapped)")
    }

    /// The CWE lists of the key rules (issue 13): the most specific weakness MITRE defines first,
    /// then the broader class tools commonly file it under. Issue 29: one CWE where a finding is only
    /// ever one weakness (each CWE of a finding is scored, and read, as a finding of its own).
    static let expectedCWEs: [(String, [Int])] = [
        ("python.eval-used", [95, 94]),
        ("python.exec-used", [95, 94]),
        ("python.taint-code-injection", [95, 94]),
        ("python.hashlib-weak-hash", [328]),
        ("python.hashlib-new-weak-hash", [328]),
        ("python.hashlib-weak-hash-audit", [328]),
        ("python.pycrypto-weak-hash", [328]),
        ("python.yaml-load", [502]),
        ("python.ruamel-unsafe-yaml", [502]),
        ("python.pickle-load", [502]),
        ("python.marshal-load", [502]),
        ("python.torch-load", [502]),
        ("python.import-pickle", [502]),
        ("python.taint-insecure-deserialization", [502]),
        ("python.taint-sql-injection", [89]),
        ("python.sql-string-building", [89]),
        ("python.django-rawsql", [89]),
        ("python.taint-xpath-injection", [643]),
        ("python.taint-ldap-injection", [90]),
        ("python.taint-template-injection", [1336]),
        ("python.taint-trust-boundary-violation", [501]),
        ("python.taint-insecure-cookie", [614]),
        ("python.insecure-cookie-httponly", [1004]),
        ("python.taint-open-redirect", [601]),
        ("python.taint-path-traversal", [22]),
        ("python.tarfile-extractall", [22]),
        ("python.insecure-random", [338, 330]),
        ("python.taint-xxe", [611]),
        ("python.lxml-parse", [611, 776]),
        ("python.xml-etree-parse", [776, 611]),
        ("python.taint-command-injection", [78]),
        ("python.subprocess-shell-true", [78]),
        ("python.os-system", [78]),
        ("python.requests-verify-false", [295]),
        ("python.ssl-unverified-context", [295]),
        ("python.paramiko-missing-host-key-policy", [322, 295]),
        ("python.hardcoded-password-string", [798]),
        ("python.hardcoded-password-funcarg", [798]),
        ("python.hardcoded-password-default", [798]),
        ("python.flask-debug-true", [489]),
        ("python.partial-executable-path", [426, 427]),
        ("python.requests-without-timeout", [1088, 400]),
        ("python.bind-all-interfaces", [1327, 605]),
        ("python.taint-xss", [79]),
        ("python.taint-ssrf", [918]),
    ]

    @Test("key rules carry these CWE lists", arguments: expectedCWEs)
    func cwes(id: String, expected: [Int]) throws {
        let rules = try Self.engine.get().rules.rules
        let rule = try #require(rules.first { $0.id == id }, "no rule \(id)")
        #expect(rule.cwe == expected, "\(id)")
    }

    /// Rules whose finding is not itself an injection (a constant command, a list-form call, an
    /// import, a partial path) carry none of the injection CWEs.
    @Test(
        "audit rules of safe forms carry no injection CWE",
        arguments: [
            "python.import-subprocess", "python.subprocess-without-shell", "python.subprocess-shell-true-literal",
            "python.os-system-literal", "python.os-exec-spawn-literal", "python.eval-literal", "python.exec-literal",
            "python.partial-executable-path", "python.paramiko-exec-command-literal",
        ])
    func noInjectionCWE(id: String) throws {
        let injection: Set<Int> = [74, 77, 78, 88, 89, 90, 94, 95, 643, 917]
        let rule = try #require(try Self.engine.get().rules.rules.first { $0.id == id }, "no rule \(id)")
        #expect(Set(rule.cwe).isDisjoint(with: injection), "\(id): \(rule.cwe)")
        #expect(!rule.cwe.isEmpty, "\(id) carries no CWE")
    }

    @Test("every rule carries a CWE, and audit rules are neither high severity nor high confidence")
    func everyRuleHasCWE() throws {
        for rule in try Self.engine.get().rules.rules {
            #expect(!rule.cwe.isEmpty, "\(rule.id) carries no CWE")
            if rule.confidence == .low { #expect(rule.severity < .high, "\(rule.id): low confidence at \(rule.severity)") }
        }
    }

    @Test("every rule has at least two ruleid and two ok cases")
    func coverage() throws {
        #expect(Self.testFiles.count >= 100, "rule test files found: \(Self.testFiles.count)")
        let rules = try RuleSet.load(directories: [Self.rulesDirectory])
        var counts: [String: (ruleid: Int, ok: Int)] = [:]
        for rule in rules.rules {
            // The test file beside the rule: `<name>.py`, or for a JavaScript/TypeScript rule `<name>.js`, `.ts`, ...
            let stem = String(rule.file.dropLast(rule.file.hasSuffix(".yml") ? 4 : 5))
            let candidates = [stem + ".py"] + SourceLanguage.javaScriptFamilyExtensions.sorted().map { stem + "." + $0 }
            guard let testFile = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }),
                let data = FileManager.default.contents(atPath: testFile)
            else {
                Issue.record("\(rule.file): no test file \(stem).py (or .js, .ts)")
                continue
            }
            let source = SourceText(String(decoding: data, as: UTF8.self))
            let annotations: [Annotation]
            if testFile.hasSuffix(".py") {
                let module = try PythonParser.parseModule(source: String(decoding: data, as: UTF8.self), fileName: testFile)
                annotations = Annotation.parse(module: module, source: source)
            } else {
                annotations = Annotation.parse(slashComments: source)
            }
            for a in annotations where a.ruleId == rule.id {
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
